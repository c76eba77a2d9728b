"""The leaderboard picture (bot.render.leaderboard)."""

from __future__ import annotations

import pytest

from bot.render import render_leaderboard
from bot.render.canvas import inside, overlaps
from bot.render.leaderboard import MEDALS, PAD, ROW_H, draw_leaderboard
from bot.render.samples import leaderboard
from bot.render.theme import Theme, palette
from bot.render.views import LeaderboardRow, LeaderboardView
from tests.render.pixels import border_is_plain, load


def test_rows_show_rank_name_and_value() -> None:
    """Each row draws its rank, its (cut) name and its value with separators."""
    view = leaderboard()
    cv = draw_leaderboard(view)
    texts = [p.text for p in cv.placed if p.kind == "text"]
    for row in view.rows:
        assert str(row.rank) in texts
    assert "1,234,567" in texts and "12 wins" in texts
    assert any(t.startswith("Charlotte") and t.endswith("\u2026") for t in texts)


@pytest.mark.parametrize("theme", list(Theme))
def test_text_inside_boxes_and_picture_grows_with_rows(theme: Theme) -> None:
    """No text leaves its box or touches another; each row adds ROW_H pixels."""
    rows = tuple(LeaderboardRow(i, "N" * 90, 10**15 + i) for i in range(1, 21))
    cv = draw_leaderboard(LeaderboardView("T" * 90, rows, "S" * 90, "Chips"), theme)
    texts = [p for p in cv.placed if p.kind == "text"]
    for p in texts:
        assert inside(p.extent, p.limit), p
        assert inside(p.extent, cv.bounds), p
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            assert not overlaps(a.extent, b.extent), (a.text, b.text)
    shorter = draw_leaderboard(LeaderboardView("T", rows[:10], "S" * 90, "Chips"), theme)
    assert cv.img.height - shorter.img.height == 10 * ROW_H
    assert border_is_plain(load(cv.png()), PAD // 2, palette(theme).background)


def test_top_three_get_medals() -> None:
    """Ranks 1-3 sit on gold, silver and bronze discs; rank 4 does not."""
    img = load(render_leaderboard(leaderboard()))
    first_row = PAD + 96 + 40
    cx = PAD + 34
    for rank in (1, 2, 3):
        y = first_row + (rank - 1) * ROW_H + (ROW_H - 6) // 2
        assert img.getpixel((cx - 12, y)) == MEDALS[rank]
    y = first_row + 3 * ROW_H + (ROW_H - 6) // 2
    assert img.getpixel((cx - 12, y)) not in MEDALS.values()


def test_empty_leaderboard_says_so() -> None:
    """No rows: a friendly line instead of an empty picture."""
    cv = draw_leaderboard(LeaderboardView("Top", ()))
    assert "Nobody here yet" in [p.text for p in cv.placed]


def test_net_losses_are_drawn_in_the_warning_colour() -> None:
    """A negative value (net result) is red; a positive one green."""
    view = LeaderboardView("Net", (LeaderboardRow(1, "Ann", 500), LeaderboardRow(2, "Ben", -500)))
    cv = draw_leaderboard(view)
    img = load(cv.png())
    pal = palette(Theme.DARK)
    values = [p for p in cv.placed if p.text in ("500", "-500")]
    inks = [{c for _, c in img.crop(p.extent).getcolors(maxcolors=4096) or []} for p in values]
    assert pal.money in inks[0] and pal.danger not in inks[0]
    assert pal.danger in inks[1] and pal.money not in inks[1]
