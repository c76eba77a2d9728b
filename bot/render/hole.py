"""The hole-card picture a player gets in a direct message."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card
from bot.render.canvas import Canvas, row_width
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import HoleCardsView

#: Suit groups from left to right: black, red, black, red in the two-colour deck,
#: so two neighbouring groups never share a colour.
SUIT_ORDER = "shcd"

PAD = 28
CARD_H = 220
GAP = 14
BOARD_H = 100
BOARD_GAP = 8
MIN_WIDTH = 760
HEAD_H = 96  # title and game lines above the cards


def sort_hole(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards grouped by suit (spades, hearts, clubs, diamonds), highest rank first in each."""
    return tuple(sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank)))


def draw_hole_cards(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                    style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the picture; the canvas keeps the record of what went where."""
    if not 1 <= len(view.cards) <= 6:
        raise ValueError("a hole-card picture shows 1 to 6 cards")
    pal = palette(theme)
    cards = sort_hole(view.cards)
    width = max(MIN_WIDTH, 2 * PAD + row_width(len(cards), CARD_H, GAP))
    show_board = bool(view.board)
    height = PAD + HEAD_H + CARD_H + PAD
    if show_board:
        height += 24 + BOARD_H + (16 + 40 if view.label else 0)
    cv = Canvas(width, height, pal, DeckStyle(style))
    inner = (PAD, PAD - 8, width - PAD, height - PAD + 8)

    hand = f"Hand #{view.hand_number}"
    hand_box = cv.text((width - PAD, PAD), hand, 26, pal.text_dim, anchor="ra", limit=inner)
    name_limit = (PAD, inner[1], hand_box[0] - 20, inner[3])
    cv.text((PAD, PAD), view.table_name, 32, pal.text, bold=True, limit=name_limit)
    sub = view.game or f"{len(cards)} hole cards"
    cv.text((PAD, PAD + 44), sub, 24, pal.text_dim, limit=inner)

    y = PAD + HEAD_H
    x = (width - row_width(len(cards), CARD_H, GAP)) // 2
    cv.card_row(cards, x, y, CARD_H, GAP)
    y += CARD_H

    if show_board:
        y += 24
        label_w = 100
        cv.text((PAD, y + BOARD_H // 2), "Board", 24, pal.text_dim, anchor="lm",
                limit=(PAD, y, PAD + label_w - 10, y + BOARD_H))
        cv.card_row(tuple(view.board), PAD + label_w, y, BOARD_H, BOARD_GAP)
        y += BOARD_H
        if view.label:
            y += 16
            lead = cv.text((PAD, y + 20), "You have:", 28, pal.text_dim, anchor="lm", limit=inner)
            cv.text((lead[2] + 12, y + 20), view.label, 30, pal.accent, bold=True, anchor="lm",
                    limit=inner)
    return cv


def render_hole_cards(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                      style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of a player's hole cards (sorted by suit, then rank), with the board and the
    "you have" label once the board is out."""
    return draw_hole_cards(view, theme, style).png()


__all__ = ["SUIT_ORDER", "draw_hole_cards", "render_hole_cards", "sort_hole"]
