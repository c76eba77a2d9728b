"""The hole-card picture a player gets in a direct message.

800 pixels wide (about 400 on a phone, where 24-pixel letters read as 12): the
cards as large as the width allows, sorted by suit and rank, and once the board
is out the board and what the player has.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card
from bot.render import words
from bot.render.canvas import Canvas, row_width
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import HoleCardsView

#: Suit groups from left to right: black, red, black, red in the two-colour deck,
#: so two neighbouring groups never share a colour.
SUIT_ORDER = "shcd"

WIDTH = 800  # Discord shows it about 400 wide on a phone: letters >= 24 px stay >= 12
PAD = 16
CARD_H = 240  # the tallest hole cards (four or five fit the width at this size)
GAP = 14
BOARD_H = 100
BOARD_GAP = 8
HEAD_H = 66  # title and game lines above the cards
LABEL_W = 90  # "Board" left of the board
SMALL = 24


def card_height(n: int) -> int:
    """The height of ``n`` hole cards side by side: as tall as the width allows, at most
    :data:`CARD_H`."""
    height = CARD_H
    while row_width(n, height, GAP) > WIDTH - 2 * PAD:
        height -= 1
    return height


def sort_hole(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards grouped by suit (spades, hearts, clubs, diamonds), highest rank first in each."""
    return tuple(sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank)))


def draw_hole_cards(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                    style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the picture in ``view.locale``; the canvas keeps the record of what
    went where."""
    with words.speaking(view.locale):
        return _draw_hole_cards(view, theme, style)


def _draw_hole_cards(view: HoleCardsView, theme: Theme | str, style: DeckStyle | str) -> Canvas:
    if not 1 <= len(view.cards) <= 6:
        raise ValueError("a hole-card picture shows 1 to 6 cards")
    pal = palette(theme)
    cards = sort_hole(view.cards)
    card_h = card_height(len(cards))
    show_board = bool(view.board)
    height = PAD + HEAD_H + card_h + PAD
    if show_board:
        height += 16 + BOARD_H + (12 + 36 if view.label else 0)
    cv = Canvas(WIDTH, height, pal, DeckStyle(style))
    inner = (PAD, 0, WIDTH - PAD, height)

    number = words.say("render.hand_number", number=str(view.hand_number))
    hand_box = cv.text((WIDTH - PAD, PAD + 12), number, SMALL, pal.text_dim, anchor="rm",
                       limit=(PAD, 0, WIDTH - PAD, PAD + 32))
    cv.text((PAD, PAD + 12), view.table_name, 30, pal.text, bold=True, anchor="lm",
            limit=(PAD, 0, hand_box[0] - 16, PAD + 32), tag="title")
    sub = view.game or words.say("render.hole_cards", count=len(cards))
    cv.text((PAD, PAD + 46), sub, SMALL, pal.text_dim, anchor="lm",
            limit=(PAD, PAD + 32, WIDTH - PAD, PAD + HEAD_H - 2), tag="game")

    y = PAD + HEAD_H
    x = (WIDTH - row_width(len(cards), card_h, GAP)) // 2
    cv.card_row(cards, x, y, card_h, GAP, tag="hole")
    y += card_h

    if show_board:
        y += 16
        cv.text((PAD, y + BOARD_H // 2), words.say("render.board"), SMALL, pal.text_dim,
                anchor="lm",
                limit=(PAD, y, PAD + LABEL_W - 10, y + BOARD_H), tag="board-label")
        cv.card_row(tuple(view.board), PAD + LABEL_W, y, BOARD_H, BOARD_GAP, tag="board")
        y += BOARD_H
        if view.label:
            y += 12
            lead = cv.text((PAD, y + 18), words.say("render.you_have"), 26, pal.text_dim,
                           anchor="lm", limit=inner)
            cv.text((lead[2] + 12, y + 18), words.hand(view.label), 28, pal.accent, bold=True,
                    anchor="lm", limit=inner, tag="label")
    return cv


def render_hole_cards(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                      style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of a player's hole cards (sorted by suit, then rank), with the board and the
    "you have" label once the board is out."""
    return draw_hole_cards(view, theme, style).png()


__all__ = ["SUIT_ORDER", "card_height", "draw_hole_cards", "render_hole_cards", "sort_hole"]
