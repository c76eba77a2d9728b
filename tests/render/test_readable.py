"""Readable on a phone: every letter drawn, measured, and nothing drawn over anything else.

Discord shows a picture about 400 pixels wide on a phone; letters smaller
than about 12 pixels there cannot be read. The canvas records the size of
every text it draws (and of every card's rank index) and the picture's
width, so these tests measure what each picture really draws, for every
kind of picture, table sizes 2 to 10, hi-lo, long names and many pots.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest

from bot.engine.cards import parse_cards
from bot.render import samples
from bot.render.canvas import PHONE_MIN_PX, PHONE_WIDTH, Box, Canvas, Placed, overlaps
from bot.render.hole import draw_hole_cards
from bot.render.leaderboard import draw_leaderboard
from bot.render.results import draw_results
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table, layout
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import (
    HoleCardsView,
    LeaderboardRow,
    LeaderboardView,
    ResultRow,
    ResultsView,
    TableView,
)

Case = tuple[str, Callable[[], Canvas]]


def _cases() -> Iterator[Case]:
    for n in range(2, 11):
        yield f"table {n} seats", lambda n=n: draw_table(samples.crowded_table(n))
        yield f"table {n} seats, hand over", lambda n=n: draw_table(
            samples.crowded_table(n, finished=True))
    yield "table sample", lambda: draw_table(samples.full_table())
    yield "table sample, hand over", lambda: draw_table(samples.finished_table())
    yield "courchevel sample", lambda: draw_table(samples.courchevel_table())
    for hole, most in ((4, 10), (5, 9), (6, 7)):
        for hands in sorted({1, 2, 3, most}):
            for hi_lo in (True, False):
                yield (f"showdown {hands} hands of {hole}, hi-lo {hi_lo}",
                       lambda h=hands, k=hole, lo=hi_lo: draw_showdown(
                           samples.crowded_showdown(h, k, lo)))
    yield "showdown sample", lambda: draw_showdown(samples.showdown())
    for n in (2, 6, 10):  # Texas Hold'em: two cards a seat
        yield f"hold'em table {n} seats", lambda n=n: draw_table(samples.crowded_table(n, hole=2))
        yield f"hold'em table {n} seats, hand over", lambda n=n: draw_table(
            samples.crowded_table(n, finished=True, hole=2))
    for hands in (1, 2, 3, 10):
        yield f"showdown {hands} hands of 2", lambda h=hands: draw_showdown(
            samples.crowded_showdown(h, 2, False))
    yield "hold'em sample", lambda: draw_table(samples.holdem_table())
    yield "hold'em sample, hand over", lambda: draw_table(samples.holdem_table(finished=True))
    yield "hold'em showdown sample", lambda: draw_showdown(samples.holdem_showdown())
    yield "hold'em hole sample", lambda: draw_hole_cards(samples.holdem_hole_cards())
    for hole in ("AsKs", "AsKs7h2d", "AsKs7h2d9c", "AsKs7h2d9cQh"):
        yield f"hole {len(hole) // 2}", lambda h=hole: draw_hole_cards(
            HoleCardsView("T" * 90, 10**9, parse_cards(h)))
        yield f"hole {len(hole) // 2} with board", lambda h=hole: draw_hole_cards(
            HoleCardsView("T" * 90, 10**9, parse_cards(h), parse_cards("Tc9c8c7c6c"),
                          label="Straight flush, ten high; no low " * 3, game="G" * 90))
    yield "results of 10", lambda: draw_results(ResultsView(
        "Sit and go #12", "Pot Limit Omaha · 10 players · 1,000 chips · final results",
        tuple(ResultRow(p, f"player {p}", max(0, 600 - 200 * p)) for p in range(1, 11))))
    yield "results, cancelled, long names", lambda: draw_results(ResultsView(
        "T" * 90, "S" * 90, tuple(ResultRow(None if i < 3 else i, "N" * 90, 10**12 - i)
                                  for i in range(10))))
    yield "leaderboard", lambda: draw_leaderboard(samples.leaderboard())
    yield "leaderboard, long", lambda: draw_leaderboard(LeaderboardView(
        "T" * 90, tuple(LeaderboardRow(i, "N" * 90, 10**15 + i) for i in range(95, 125)),
        "S" * 90, "Chips"))


CASES = dict(_cases())


def too_small(cv: Canvas) -> list[Placed]:
    """Every text and card index smaller than PHONE_MIN_PX once the picture is shown
    PHONE_WIDTH pixels wide (card backs have no letters)."""
    return [p for p in cv.placed
            if (p.kind == "text" or p.card is not None) and cv.phone_px(p.size) < PHONE_MIN_PX]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_letter_is_at_least_12_px_on_a_phone(name: str) -> None:
    """Each text and each card's rank index is at least 12 px tall at 400 px wide."""
    cv = CASES[name]()
    texts = [p for p in cv.placed if p.kind == "text"]
    assert len(texts) >= 3 and all(p.size > 0 for p in texts)
    assert too_small(cv) == []
    smallest = min(p.size for p in cv.placed if p.kind == "text" or p.card is not None)
    assert smallest * PHONE_WIDTH / cv.img.width >= PHONE_MIN_PX


def test_the_measure_catches_small_letters() -> None:
    """The check is real: a 20 px text or a 60 px card on an 800 px picture (10 px and
    a 10.8 px index on a phone) is reported; 24 px and a 74 px card are not."""
    cv = Canvas(800, 200, palette(Theme.DARK), DeckStyle.FOUR_COLOUR)
    cv.text((10, 40), "small", 20, (255, 255, 255), limit=cv.bounds)
    cv.text((10, 100), "fine", 24, (255, 255, 255), limit=cv.bounds)
    cv.card(parse_cards("Ts")[0], 300, 10, 60)
    cv.card(parse_cards("Ts")[0], 400, 10, 74)
    cv.card(None, 500, 10, 40)  # a back: no letters
    assert [(p.text or str(p.card)) for p in too_small(cv)] == ["small", "Ts"]
    assert too_small(cv)[1].extent[3] - too_small(cv)[1].extent[1] == 60


def _visible(p: Placed, view: TableView | None) -> Box:
    """A table's face-down cards are partly behind their seat box: the part that shows
    (the boxes where the picture of ``view`` has them: grown for long names, moved down)."""
    if view is None or p.card is not None or not p.tag.startswith("back:"):
        return p.extent
    front = next(s.front for s in layout(view) if s.seat == int(p.tag[5:]))
    x0, y0, x1, y1 = p.extent
    return (x0, max(y0, front[1]), x1, min(y1, front[3]))


CROWDED: dict[str, tuple[Callable[[], Canvas], TableView | None]] = {
    name: ((lambda v=view: draw_table(v)), view) for name, view in (
        ("table 10 seats", samples.crowded_table(10)),
        ("table 9 seats", samples.crowded_table(9)),
        ("table 10 seats, hand over", samples.crowded_table(10, finished=True)),
        ("table sample, hand over", samples.finished_table()))
} | {
    "showdown 10-way hi-lo, 9 side pots": (
        lambda: draw_showdown(samples.crowded_showdown(10, 4, True, 9)), None),
    "showdown 7-way six-card hi-lo": (
        lambda: draw_showdown(samples.crowded_showdown(7, 6, True, 6)), None),
    "hole 6 with board": (lambda: CASES["hole 6 with board"](), None),
    "leaderboard, long": (lambda: CASES["leaderboard, long"](), None),
}


@pytest.mark.parametrize("name", sorted(CROWDED))
def test_nothing_drawn_overlaps_in_crowded_pictures(name: str) -> None:
    """No two texts touch; no text lies on a card (or on the visible part of a table's
    face-down cards); cards touch only the other cards of their own fan."""
    draw, view = CROWDED[name]
    cv = draw()
    texts = [p for p in cv.placed if p.kind == "text"]
    cards = [(p, _visible(p, view)) for p in cv.placed if p.kind == "card"]
    assert texts and (cards or name.startswith("leaderboard"))
    for a, b in itertools.combinations(texts, 2):
        assert not overlaps(a.extent, b.extent), (a.text, a.tag, b.text, b.tag)
    for t in texts:
        for c, seen in cards:
            assert not overlaps(t.extent, seen), (t.text, t.tag, c.tag)
    for (a, sa), (b, sb) in itertools.combinations(cards, 2):
        fan = a.tag == b.tag and a.tag.startswith(("shown:", "back:"))
        assert fan or not overlaps(sa, sb), (a.tag, b.tag)
