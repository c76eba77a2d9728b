"""The leaderboard picture for the economy commands: rank, name, value."""

from __future__ import annotations

from bot.render import words
from bot.render.canvas import Canvas, chips
from bot.render.fonts import block, display_name, text_width
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import LeaderboardView

WIDTH = 760
PAD = 28
ROW_H = 58
HEAD = 96
SMALL = 24  # the smallest letters: 12 px when Discord shows the picture 400 wide
SUB_LINE = 30  # between the lines of a wrapped subtitle
MEDALS = {1: (232, 184, 40), 2: (178, 186, 196), 3: (196, 120, 64)}


def _value(v: int | str) -> str:
    return chips(v) if isinstance(v, int) else v


def draw_leaderboard(view: LeaderboardView, theme: Theme | str = Theme.DARK) -> Canvas:
    """Lay out and draw the leaderboard in ``view.locale``; the canvas keeps the record of
    what went where."""
    with words.speaking(view.locale):
        return _draw_leaderboard(view, theme)


def _draw_leaderboard(view: LeaderboardView, theme: Theme | str) -> Canvas:
    pal = palette(theme)
    rows = view.rows
    heading = 40 if view.value_label else 0
    # the subtitle (a results picture's game line) whole: wrapped, the picture grown
    sub = block(view.subtitle, SMALL, WIDTH - 2 * PAD) if view.subtitle else None
    below = (len(sub.lines) - 1) * SUB_LINE if sub else 0
    height = PAD + HEAD + below + heading + max(1, len(rows)) * ROW_H + PAD
    cv = Canvas(WIDTH, height, pal, DeckStyle.FOUR_COLOUR)
    cv.exact.update(MEDALS.values())
    page = (PAD, PAD - 10, WIDTH - PAD, height - PAD + 10)
    cv.text((PAD, PAD + 18), view.title, 34, pal.text, bold=True, anchor="lm", limit=page)
    if sub:
        cv.block((PAD, PAD + 60), sub, SUB_LINE, pal.text_dim, limit=page, tag="subtitle")
    y = PAD + HEAD + below
    if view.value_label:
        cv.text((WIDTH - PAD - 16, y + 18), view.value_label, SMALL, pal.text_dim, bold=True,
                anchor="rm", limit=page)
        cv.text((PAD + 76, y + 18), words.say("render.player"), SMALL, pal.text_dim,
                bold=True, anchor="lm", limit=page)
        y += heading
    if not rows:
        cv.text((WIDTH // 2, y + ROW_H // 2), words.say("render.nobody"), 26, pal.text_dim,
                anchor="mm", limit=page)
    value_w = max((text_width(_value(r.value), 28, bold=True) for r in rows), default=0)
    value_w = min(value_w, (WIDTH - 2 * PAD) // 2)
    for i, row in enumerate(rows):
        box = (PAD, y, WIDTH - PAD, y + ROW_H - 6)
        mine = bool(view.highlight) and row.name == view.highlight
        if mine or i % 2 == 0:
            cv.draw.rounded_rectangle(box, radius=12, fill=pal.panel,
                                      outline=pal.accent if mine else None,
                                      width=3 if mine else 0)
        mid = y + (ROW_H - 6) // 2
        cx = PAD + 34
        medal = MEDALS.get(row.rank)
        if medal:
            cv.draw.ellipse((cx - 19, mid - 19, cx + 19, mid + 19), fill=medal)
        rank_ink = (30, 30, 30) if medal else pal.text_dim
        cv.text((cx, mid), str(row.rank), SMALL, rank_ink, bold=True, anchor="mm",
                limit=(cx - 30, box[1], cx + 30, box[3]))
        value_left = box[2] - 16 - value_w
        losing = isinstance(row.value, int) and row.value < 0
        cv.text((box[2] - 16, mid), _value(row.value), 28, pal.danger if losing else pal.money,
                bold=True, anchor="rm",
                limit=(value_left, box[1], box[2] - 8, box[3]))
        cv.text((PAD + 76, mid), display_name(row.name, words.say("render.player")), 28,
                pal.text, bold=mine,
                anchor="lm", limit=(PAD + 76, box[1], value_left - 20, box[3]))
        y += ROW_H
    return cv


def render_leaderboard(view: LeaderboardView, theme: Theme | str = Theme.DARK) -> bytes:
    """PNG of a leaderboard: rank (medals for the top three), name, value."""
    return draw_leaderboard(view, theme).png()
