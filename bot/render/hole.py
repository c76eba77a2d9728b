"""The hole-card picture a player gets in a direct message.

800 pixels wide (about 400 on a phone, where 24-pixel letters read as 12): the
cards as large as the width allows, sorted by suit and rank, and once the board
is out the board and what the player has (a double board or a hand run twice: each
board, "Board 1" and "Board 2", with what the player has on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render import words
from bot.render.canvas import Canvas, row_width
from bot.render.fonts import Block, block, drawable, text_width
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
TITLE_LINE, GAME_LINE = 34, 32  # a line of the title, a line of the game (header)
HEAD_H = TITLE_LINE + GAME_LINE  # the header with one line of each
LABEL_W = 90  # "Board" left of the board (wider when the word is)
LABEL_LINE = 34  # a line of "you have ..."
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


@dataclass(frozen=True, slots=True)
class _Words:
    """The picture's texts laid out whole (:func:`bot.render.fonts.block`): nothing is cut."""

    number: str
    title: Block
    game: Block
    boards: tuple[str, ...]  # each board's name: "Board", or "Board 1" and "Board 2"
    lead: str
    labels: tuple[Block | None, ...]  # what the player has on each board

    @property
    def head_h(self) -> int:
        """The title and game lines above the cards."""
        return TITLE_LINE * len(self.title.lines) + GAME_LINE * len(self.game.lines)

    @property
    def label_w(self) -> int:
        """The column left of the board: "Board" (or a longer word) and a gap."""
        return max([LABEL_W, *(text_width(drawable(b), SMALL) + 12 for b in self.boards)])


def boards_of(view: HoleCardsView) -> list[tuple[tuple[Card, ...], str]]:
    """The boards shown (none before the flop) with what the player has on each."""
    if not view.board:
        return []
    second = [(view.second_board, view.second_label)] if view.second_board else []
    return [(view.board, view.label), *second]


def _words(view: HoleCardsView, count: int) -> _Words:
    number = words.say("render.hand_number", number=str(view.hand_number))
    title_w = WIDTH - 2 * PAD - text_width(drawable(number), SMALL) - 16
    sub = view.game or words.say("render.hole_cards", count=count)
    lead = words.say("render.you_have")
    room = WIDTH - 2 * PAD - text_width(drawable(lead), 26) - 12
    shown = boards_of(view)
    labels = tuple(block(words.hand(label), 28, room, bold=True, smallest=SMALL) if label
                   else None for _, label in shown)
    names = tuple(words.say("render.board_number", number=str(i + 1)) if len(shown) > 1
                  else words.say("render.board") for i in range(len(shown)))
    return _Words(number, block(view.table_name, 30, title_w, bold=True, smallest=SMALL),
                  block(sub, SMALL, WIDTH - 2 * PAD), names, lead, labels)


def _label_h(label: Block | None) -> int:
    return 0 if label is None else 12 + 36 + LABEL_LINE * (len(label.lines) - 1)


def _draw_hole_cards(view: HoleCardsView, theme: Theme | str, style: DeckStyle | str) -> Canvas:
    if not 1 <= len(view.cards) <= 6:
        raise ValueError("a hole-card picture shows 1 to 6 cards")
    pal = palette(theme)
    cards = sort_hole(view.cards)
    card_h = card_height(len(cards))
    said = _words(view, len(cards))
    shown = boards_of(view)
    height = PAD + said.head_h + card_h + PAD + sum(
        16 + BOARD_H + _label_h(label) for label in said.labels)
    cv = Canvas(WIDTH, height, pal, DeckStyle(style))

    hand_box = cv.text((WIDTH - PAD, PAD + 12), said.number, SMALL, pal.text_dim, anchor="rm",
                       limit=(PAD, 0, WIDTH - PAD, PAD + 32))
    title_bottom = PAD - 2 + TITLE_LINE * len(said.title.lines)
    cv.block((PAD, PAD + 12), said.title, TITLE_LINE, pal.text, bold=True,
             limit=(PAD, 0, hand_box[0] - 16, title_bottom), tag="title")
    cv.block((PAD, title_bottom + 14), said.game, GAME_LINE, pal.text_dim,
             limit=(PAD, title_bottom, WIDTH - PAD, PAD + said.head_h - 2), tag="game")

    y = PAD + said.head_h
    x = (WIDTH - row_width(len(cards), card_h, GAP)) // 2
    cv.card_row(cards, x, y, card_h, GAP, tag="hole")
    y += card_h
    for (board, _), name, label in zip(shown, said.boards, said.labels, strict=True):
        y = _draw_board(cv, said, (board, name, label), y)
    return cv


def _draw_board(cv: Canvas, said: _Words, board: tuple[tuple[Card, ...], str, Block | None],
                y: int) -> int:
    """A board under the cards (its name left of it) and what the player has on it; the
    y under them."""
    cards, name, label = board
    pal, inner = cv.pal, (PAD, 0, WIDTH - PAD, cv.img.height)
    y += 16
    cv.text((PAD, y + BOARD_H // 2), name, SMALL, pal.text_dim, anchor="lm",
            limit=(PAD, y, PAD + said.label_w - 10, y + BOARD_H), tag="board-label")
    cv.card_row(tuple(cards), PAD + said.label_w, y, BOARD_H, BOARD_GAP, tag="board")
    y += BOARD_H
    if label is not None:
        y += 12
        lead = cv.text((PAD, y + 18), said.lead, 26, pal.text_dim, anchor="lm", limit=inner)
        cv.block((lead[2] + 12, y + 18), label, LABEL_LINE, pal.accent, bold=True,
                 limit=inner, tag="label")
        y += 36 + LABEL_LINE * (len(label.lines) - 1)
    return y


def render_hole_cards(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                      style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of a player's hole cards (sorted by suit, then rank), with the board and the
    "you have" label once the board is out."""
    return draw_hole_cards(view, theme, style).png()


__all__ = ["SUIT_ORDER", "card_height", "draw_hole_cards", "render_hole_cards", "sort_hole"]
