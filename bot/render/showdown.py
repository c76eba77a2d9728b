"""The showdown picture: every shown hand, its best five cards, and who won what.

Each shown hand is a panel: the player's name and winnings, the hole cards
(cards the hand does not use are faded), then the best high five and, in
hi-lo, the best low five with their descriptions; the two cards of each five
that come from the hand are underlined. Under the panels, one line
per pot says who won it and how much.
"""

from __future__ import annotations

from bot.engine.cards import Card
from bot.render.canvas import Canvas, chips, row_width
from bot.render.cardart import card_width
from bot.render.fonts import display_name
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import MadeHandLike, ShowdownView

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


def draw_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the showdown; the canvas keeps the record of what went where."""
    if not view.hands:
        raise ValueError("a showdown needs at least one shown hand")
    pal = palette(theme)
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
    cv = Canvas(width, height, pal, DeckStyle(style))
    page = (PAD, PAD - 10, width - PAD, height - PAD + 10)

    hb = cv.text((width - PAD, PAD + 16), f"Hand #{view.hand_number} \u00b7 Showdown", 26,
                 pal.text_dim, anchor="rm", limit=page)
    cv.text((PAD, PAD + 16), view.table_name, 32, pal.text, bold=True, anchor="lm",
            limit=(PAD, page[1], hb[0] - 24, page[3]))
    if view.game:
        cv.text((PAD, PAD + 54), view.game, 22, pal.text_dim, anchor="lm", limit=page)

    cv.text((PAD, board_top + BOARD_H // 2), "Board", 26, pal.text_dim, anchor="lm",
            limit=(PAD, board_top, PAD + NAME_W, board_top + BOARD_H))
    cv.card_row(tuple(view.board), PAD + NAME_W + 16 + PANEL_PAD, board_top, BOARD_H, 10,
                tag="board")

    y = panels_top
    for i, hand in enumerate(view.hands):
        box = (PAD, y, width - PAD, y + panel_h)
        winner = hand.won > 0
        cv.draw.rounded_rectangle(box, radius=16, fill=pal.panel,
                                  outline=pal.accent if winner else pal.panel_edge,
                                  width=4 if winner else 2)
        x = PAD + PANEL_PAD
        mid = y + panel_h // 2
        name_box = (x, y + 6, x + NAME_W, y + panel_h - 6)
        cv.text((x, mid - 18), display_name(hand.name, "Player"), 28, pal.text, bold=True,
                anchor="lm", limit=name_box, tag=f"name:{i}")
        if winner:
            cv.text((x, mid + 20), f"wins {chips(hand.won)}", 26, pal.money, bold=True,
                    anchor="lm", limit=name_box, tag=f"won:{i}")
        else:
            cv.text((x, mid + 20), "no win", 24, pal.text_dim, anchor="lm", limit=name_box)
        x += NAME_W + 16
        used = _used(hand.high) | _used(hand.low)
        faded = frozenset(c for c in hand.hole if c not in used)
        cv.card_row(tuple(hand.hole), x, mid - HOLE_H // 2, HOLE_H, HOLE_GAP, faded=faded,
                    limit=box, tag=f"hole:{i}")
        x += hole_w + 24
        rows: list[tuple[str, MadeHandLike | None]] = [("HIGH", hand.high)]
        if view.hi_lo:
            rows.append(("LOW", hand.low))
        ry = mid - right_h // 2
        for label, made in rows:
            text_x = x + best_w + 14
            desc_box = (text_x, ry, width - PAD - PANEL_PAD, ry + BEST_H)
            if made is not None:
                cv.card_row(tuple(made.cards), x, ry, BEST_H, BEST_GAP, limit=box,
                            tag=f"{label.lower()}:{i}")
                step = card_width(BEST_H) + BEST_GAP
                for k, c in enumerate(made.cards):  # underline the cards from the hand
                    if c in hand.hole:
                        cx = x + k * step
                        cv.draw.rounded_rectangle(
                            (cx + 6, ry + BEST_H + 2, cx + step - BEST_GAP - 6, ry + BEST_H + 6),
                            radius=2, fill=pal.accent)
                desc, ink = made.description, pal.text
            else:
                cv.draw.rounded_rectangle((x, ry, x + best_w, ry + BEST_H), radius=8,
                                          outline=pal.panel_edge, width=2)
                desc, ink = ("No low" if label == "LOW" else "Mucked"), pal.text_dim
            cv.text((text_x, ry + 16), label, 18, pal.text_dim, bold=True, anchor="lm",
                    limit=desc_box)
            cv.text((text_x, ry + 44), desc, 25, ink, bold=True, anchor="lm", limit=desc_box,
                    tag=f"{label.lower()}:{i}")
            ry += BEST_H + 8
        y += panel_h + 12

    y += 8
    for pot in view.pots:
        who = " \u00b7 ".join(
            f"{w.name} {chips(w.amount)}" + (f" ({w.half})" if w.half else "")
            for w in pot.winners)
        lead = cv.text((PAD, y + POT_LINE // 2), f"{pot.label} {chips(pot.amount)}:", 24,
                       pal.text_dim, bold=True, anchor="lm", limit=page)
        cv.text((lead[2] + 10, y + POT_LINE // 2), who, 24, pal.text, anchor="lm", limit=page,
                tag="pot")
        y += POT_LINE
    return cv


def render_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                    style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of the showdown: shown hands with their best fives, high and low, and the pots."""
    return draw_showdown(view, theme, style).png()
