"""The showdown picture: every shown hand, its best five cards, and who won what.

Each shown hand is a panel: the player's name and winnings, the hole cards
(cards the hand does not use are faded), then the best high five and, in
hi-lo, the best low five with their descriptions; the two cards of each five
that come from the hand are underlined. Under the panels, one line
per pot says who won it and how much.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render.canvas import Box, Canvas, chips, row_width
from bot.render.cardart import card_width
from bot.render.fonts import display_name
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import MadeHandLike, ShowdownHand, ShowdownView

PAD = 28
BOARD_H = 110
HOLE_H, HOLE_GAP = 96, 6
BEST_H, BEST_GAP = 64, 4
NAME_W = 220
DESC_W = 330
PANEL_PAD = 14
POT_LINE = 36


def _used(hand: MadeHandLike | None) -> frozenset[Card]:
    return frozenset(hand.cards) if hand is not None else frozenset()


@dataclass(frozen=True, slots=True)
class _Layout:
    """The picture's size and the geometry every panel shares."""

    width: int
    height: int
    hole_w: int  # the widest row of hole cards
    best_w: int  # a row of five best cards
    right_h: int  # the best-five rows: high, and low in hi-lo
    panel_h: int
    board_top: int
    panels_top: int

    @property
    def page(self) -> Box:
        return (PAD, PAD - 10, self.width - PAD, self.height - PAD + 10)


def _layout(view: ShowdownView) -> _Layout:
    max_hole = max(len(h.hole) for h in view.hands)
    hole_w = row_width(max_hole, HOLE_H, HOLE_GAP)
    best_w = row_width(5, BEST_H, BEST_GAP)
    lines = 2 if view.hi_lo else 1
    right_h = lines * BEST_H + (lines - 1) * 8
    panel_h = max(HOLE_H, right_h) + 2 * PANEL_PAD
    width = PAD + NAME_W + 16 + hole_w + 24 + best_w + 14 + DESC_W + PAD + 2 * PANEL_PAD
    board_top = PAD + 84
    panels_top = board_top + BOARD_H + 24
    height = (panels_top + len(view.hands) * (panel_h + 12) + 8
              + len(view.pots) * POT_LINE + PAD)
    return _Layout(width, height, hole_w, best_w, right_h, panel_h, board_top, panels_top)


def draw_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the showdown; the canvas keeps the record of what went where."""
    if not view.hands:
        raise ValueError("a showdown needs at least one shown hand")
    lay = _layout(view)
    cv = Canvas(lay.width, lay.height, palette(theme), DeckStyle(style))
    _draw_header(cv, view, lay)
    _draw_board(cv, view, lay)
    y = lay.panels_top
    for i, hand in enumerate(view.hands):
        _draw_panel(cv, view, lay, i, hand, y)
        y += lay.panel_h + 12
    _draw_pot_lines(cv, view, lay, y + 8)
    return cv


def _draw_header(cv: Canvas, view: ShowdownView, lay: _Layout) -> None:
    """The table name, the hand number and the game."""
    pal, page = cv.pal, lay.page
    hb = cv.text((lay.width - PAD, PAD + 16), f"Hand #{view.hand_number} \u00b7 Showdown", 26,
                 pal.text_dim, anchor="rm", limit=page)
    cv.text((PAD, PAD + 16), view.table_name, 32, pal.text, bold=True, anchor="lm",
            limit=(PAD, page[1], hb[0] - 24, page[3]))
    if view.game:
        cv.text((PAD, PAD + 54), view.game, 22, pal.text_dim, anchor="lm", limit=page)


def _draw_board(cv: Canvas, view: ShowdownView, lay: _Layout) -> None:
    board_top = lay.board_top
    cv.text((PAD, board_top + BOARD_H // 2), "Board", 26, cv.pal.text_dim, anchor="lm",
            limit=(PAD, board_top, PAD + NAME_W, board_top + BOARD_H))
    cv.card_row(tuple(view.board), PAD + NAME_W + 16 + PANEL_PAD, board_top, BOARD_H, 10,
                tag="board")


def _draw_panel(cv: Canvas, view: ShowdownView, lay: _Layout, i: int, hand: ShowdownHand,
                y: int) -> None:
    """Shown hand ``i`` in its panel from ``y`` down: name and winnings, the hole cards
    (those the hand does not use faded), then its best fives."""
    pal = cv.pal
    box = (PAD, y, lay.width - PAD, y + lay.panel_h)
    winner = hand.won > 0
    cv.draw.rounded_rectangle(box, radius=16, fill=pal.panel,
                              outline=pal.accent if winner else pal.panel_edge,
                              width=4 if winner else 2)
    x = PAD + PANEL_PAD
    mid = y + lay.panel_h // 2
    _draw_name(cv, i, hand, x, y, mid, lay.panel_h)
    x += NAME_W + 16
    used = _used(hand.high) | _used(hand.low)
    faded = frozenset(c for c in hand.hole if c not in used)
    cv.card_row(tuple(hand.hole), x, mid - HOLE_H // 2, HOLE_H, HOLE_GAP, faded=faded,
                limit=box, tag=f"hole:{i}")
    x += lay.hole_w + 24
    rows: list[tuple[str, MadeHandLike | None]] = [("HIGH", hand.high)]
    if view.hi_lo:
        rows.append(("LOW", hand.low))
    ry = mid - lay.right_h // 2
    for label, made in rows:
        _draw_best_row(cv, lay, i, hand, label, made, x, ry, box)
        ry += BEST_H + 8


def _draw_name(cv: Canvas, i: int, hand: ShowdownHand, x: int, y: int, mid: int,
               panel_h: int) -> None:
    """The player's name and what they won (or "no win")."""
    pal = cv.pal
    name_box = (x, y + 6, x + NAME_W, y + panel_h - 6)
    cv.text((x, mid - 18), display_name(hand.name, "Player"), 28, pal.text, bold=True,
            anchor="lm", limit=name_box, tag=f"name:{i}")
    if hand.won > 0:
        cv.text((x, mid + 20), f"wins {chips(hand.won)}", 26, pal.money, bold=True,
                anchor="lm", limit=name_box, tag=f"won:{i}")
    else:
        cv.text((x, mid + 20), "no win", 24, pal.text_dim, anchor="lm", limit=name_box)


def _draw_best_row(cv: Canvas, lay: _Layout, i: int, hand: ShowdownHand, label: str,
                   made: MadeHandLike | None, x: int, ry: int, box: Box) -> None:
    """One best five (``HIGH`` or ``LOW``) at ``x, ry``: its cards with the ones from the
    hand underlined, or an empty slot, then the label and the description."""
    pal = cv.pal
    text_x = x + lay.best_w + 14
    desc_box = (text_x, ry, lay.width - PAD - PANEL_PAD, ry + BEST_H)
    if made is not None:
        cv.card_row(tuple(made.cards), x, ry, BEST_H, BEST_GAP, limit=box,
                    tag=f"{label.lower()}:{i}")
        _underline_hole_cards(cv, made, hand, x, ry)
        desc, ink = made.description, pal.text
    else:
        cv.draw.rounded_rectangle((x, ry, x + lay.best_w, ry + BEST_H), radius=8,
                                  outline=pal.panel_edge, width=2)
        desc, ink = ("No low" if label == "LOW" else "Mucked"), pal.text_dim
    cv.text((text_x, ry + 16), label, 18, pal.text_dim, bold=True, anchor="lm",
            limit=desc_box)
    cv.text((text_x, ry + 44), desc, 25, ink, bold=True, anchor="lm", limit=desc_box,
            tag=f"{label.lower()}:{i}")


def _underline_hole_cards(cv: Canvas, made: MadeHandLike, hand: ShowdownHand, x: int,
                          ry: int) -> None:
    """A bar under each card of the five drawn at ``x, ry`` that comes from the hand."""
    step = card_width(BEST_H) + BEST_GAP
    for k, c in enumerate(made.cards):
        if c in hand.hole:
            cx = x + k * step
            cv.draw.rounded_rectangle(
                (cx + 6, ry + BEST_H + 2, cx + step - BEST_GAP - 6, ry + BEST_H + 6),
                radius=2, fill=cv.pal.accent)


def _draw_pot_lines(cv: Canvas, view: ShowdownView, lay: _Layout, y: int) -> None:
    """One line per pot from ``y`` down: who won it and how much."""
    pal, page = cv.pal, lay.page
    for pot in view.pots:
        who = " \u00b7 ".join(
            f"{w.name} {chips(w.amount)}" + (f" ({w.half})" if w.half else "")
            for w in pot.winners)
        lead = cv.text((PAD, y + POT_LINE // 2), f"{pot.label} {chips(pot.amount)}:", 24,
                       pal.text_dim, bold=True, anchor="lm", limit=page)
        cv.text((lead[2] + 10, y + POT_LINE // 2), who, 24, pal.text, anchor="lm", limit=page,
                tag="pot")
        y += POT_LINE


def render_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                    style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of the showdown: shown hands with their best fives, high and low, and the pots."""
    return draw_showdown(view, theme, style).png()
