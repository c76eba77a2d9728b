"""Cards shown after a hand (RULES.md 10): a rabbit hunt, or a player's cards shown.

One picture, rows of cards under their labels (:class:`CardRowsView`): a rabbit
hunt draws the hand's real board, then the rabbit apart from it (``apart``: in a
dashed frame of its own, the cards faded, its label saying they were not played);
a player's shown cards are drawn in order with the ones they keep hidden face down,
above the board. 800 pixels wide as the hole-card picture (letters of 24 pixels read
as 12 on a phone); titles and labels are laid out whole (:func:`bot.render.fonts.block`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render import words
from bot.render.canvas import Canvas
from bot.render.fonts import Block, block, drawable, text_width
from bot.render.theme import DeckStyle, Theme, palette

__all__ = ["CardRow", "CardRowsView", "draw_card_rows", "render_card_rows"]

WIDTH = 800
PAD = 16
CARD_H = 150  # six cards (a six-card Omaha hand) fit the width
GAP = 12
TITLE_LINE, GAME_LINE, LABEL_LINE = 34, 30, 30
SMALL = 24
FRAME = 10  # the dashed frame around cards drawn apart: its margin
LABEL_GAP = 6  # between a row's label and its frame
DASH = 10


@dataclass(frozen=True, slots=True)
class CardRow:
    """One row: its label and its cards (``None``: a card face down); ``apart``: cards not
    played, drawn faded in a dashed frame."""

    label: str
    cards: tuple[Card | None, ...]
    apart: bool = False


@dataclass(frozen=True, slots=True)
class CardRowsView:
    title: str
    game: str
    hand_number: int
    rows: tuple[CardRow, ...]
    locale: str = "en"


@dataclass(frozen=True, slots=True)
class _Words:
    number: str
    title: Block
    game: Block
    labels: tuple[Block, ...]

    @property
    def head_h(self) -> int:
        return TITLE_LINE * len(self.title.lines) + GAME_LINE * len(self.game.lines)


def _words(view: CardRowsView) -> _Words:
    number = words.say("render.hand_number", number=str(view.hand_number))
    title_w = WIDTH - 2 * PAD - text_width(drawable(number), SMALL) - 16
    return _Words(
        number, block(view.title, 30, title_w, bold=True, smallest=SMALL),
        block(view.game, SMALL, WIDTH - 2 * PAD),
        tuple(block(row.label, SMALL, WIDTH - 2 * PAD - 2 * FRAME, bold=row.apart)
              for row in view.rows),
    )


def _row_h(laid: Block) -> int:
    return 12 + LABEL_LINE * len(laid.lines) + LABEL_GAP + CARD_H + 2 * FRAME


def draw_card_rows(view: CardRowsView, theme: Theme | str = Theme.DARK,
                   style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the picture in ``view.locale`` (the canvas records what went where)."""
    if not view.rows or any(not 1 <= len(r.cards) <= 6 for r in view.rows):
        raise ValueError("a picture of cards shows 1 to 6 cards a row")
    with words.speaking(view.locale):
        said = _words(view)
        height = PAD + said.head_h + sum(_row_h(laid) for laid in said.labels) + PAD
        pal = palette(theme)
        cv = Canvas(WIDTH, height, pal, DeckStyle(style))
        inner = (PAD, 0, WIDTH - PAD, height)
        number = cv.text((WIDTH - PAD, PAD + 12), said.number, SMALL, pal.text_dim,
                         anchor="rm", limit=(PAD, 0, WIDTH - PAD, PAD + 32))
        title_bottom = PAD - 2 + TITLE_LINE * len(said.title.lines)
        cv.block((PAD, PAD + 12), said.title, TITLE_LINE, pal.text, bold=True,
                 limit=(PAD, 0, number[0] - 16, title_bottom), tag="title")
        cv.block((PAD, title_bottom + 14), said.game, GAME_LINE, pal.text_dim,
                 limit=(PAD, title_bottom, WIDTH - PAD, PAD + said.head_h), tag="game")
        y = PAD + said.head_h
        for row, laid in zip(view.rows, said.labels, strict=True):
            _draw_row(cv, row, laid, y, inner)
            y += _row_h(laid)
        return cv


def _draw_row(cv: Canvas, row: CardRow, laid: Block, y: int,
              inner: tuple[int, int, int, int]) -> None:
    pal = cv.pal
    y += 12
    ink = pal.accent if row.apart else pal.text_dim
    cv.block((PAD + FRAME, y + LABEL_LINE // 2), laid, LABEL_LINE, ink, bold=row.apart,
             limit=inner, tag="rabbit-label" if row.apart else "label")
    y += LABEL_LINE * len(laid.lines) + LABEL_GAP + FRAME
    x = PAD + FRAME
    faded = frozenset(c for c in row.cards if c is not None) if row.apart else frozenset()
    drawn = cv.card_row(row.cards, x, y, CARD_H, GAP, faded=faded,
                        tag="rabbit" if row.apart else "cards")
    if row.apart:
        _dashed(cv, (x - FRAME, y - FRAME, drawn[2] + FRAME, y + CARD_H + FRAME))


def _dashed(cv: Canvas, box: tuple[int, int, int, int]) -> None:
    """A dashed rectangle (the frame of cards not played)."""
    x0, y0, x1, y1 = box
    ink = cv.pal.accent
    for x in range(x0, x1, 2 * DASH):
        cv.draw.line((x, y0, min(x + DASH, x1), y0), fill=ink, width=2)
        cv.draw.line((x, y1, min(x + DASH, x1), y1), fill=ink, width=2)
    for y in range(y0, y1, 2 * DASH):
        cv.draw.line((x0, y, x0, min(y + DASH, y1)), fill=ink, width=2)
        cv.draw.line((x1, y, x1, min(y + DASH, y1)), fill=ink, width=2)


def render_card_rows(view: CardRowsView, theme: Theme | str = Theme.DARK,
                     style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of :func:`draw_card_rows`."""
    return draw_card_rows(view, theme, style).png()
