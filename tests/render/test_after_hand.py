"""The picture of cards shown after a hand (bot.render.after_hand): a rabbit hunt drawn
apart from the board, a hand shown with its hidden cards face down."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from bot.engine.cards import parse_cards
from bot.render import CardRow, CardRowsView, render_card_rows
from bot.render.after_hand import WIDTH, draw_card_rows
from bot.render.canvas import inside, overlaps
from tests.render.pixels import load

#: ``PICTURES=dir`` keeps the pictures drawn here for a look.
PICTURES = os.environ.get("PICTURES")


def _rabbit(locale: str = "en", name: str = "bob") -> CardRowsView:
    return CardRowsView("Rabbit hunt", "No Limit Texas Hold'em 1/2", 12, (
        CardRow("Board", parse_cards("Ah7d2c")),
        CardRow(f"Not played: the cards that would have come ({name})", parse_cards("Ks9h"),
                apart=True),
    ), locale=locale)


def test_the_rabbit_is_drawn_faded_below_the_board_in_a_frame_of_its_own(
    tmp_path: Path,
) -> None:
    cv = draw_card_rows(_rabbit())
    board = [p for p in cv.placed if p.tag == "cards"]
    rabbit = [p for p in cv.placed if p.tag == "rabbit"]
    assert [p.card for p in board] == list(parse_cards("Ah7d2c"))
    assert [p.card for p in rabbit] == list(parse_cards("Ks9h"))
    assert not any(p.faded for p in board) and all(p.faded for p in rabbit)
    assert min(p.extent[1] for p in rabbit) > max(p.extent[3] for p in board)
    assert not any(p.cut for p in cv.placed)
    png = render_card_rows(_rabbit())
    assert load(png).size == (WIDTH, cv.img.height)
    (Path(PICTURES) if PICTURES else tmp_path).joinpath("rabbit-flop.png").write_bytes(png)


def test_a_shown_hand_keeps_its_hidden_cards_face_down() -> None:
    hole = parse_cards("AsKdQh2c9s8d")
    view = CardRowsView("alice shows", "Pot Limit Omaha 1/2", 3, (
        CardRow("alice's hand", (None, hole[1], None, None, hole[4], None)),))
    cv = draw_card_rows(view)
    cards = sorted((p for p in cv.placed if p.kind == "card"), key=lambda p: p.extent[0])
    assert [p.card for p in cards] == [None, hole[1], None, None, hole[4], None]
    for a, b in itertools.pairwise(cards):
        assert not overlaps(a.extent, b.extent)
    assert all(inside(p.extent, cv.bounds) for p in cv.placed)


@pytest.mark.parametrize("locale", ["en", "pt-BR", "es-ES", "es-419", "it"])
def test_long_names_and_labels_wrap_whole_in_every_language(locale: str) -> None:
    cv = draw_card_rows(_rabbit(locale, "W" * 32))
    assert not any(p.cut for p in cv.placed)
    assert cv.img.height > draw_card_rows(_rabbit(locale)).img.height


def test_rows_of_one_to_six_cards_only() -> None:
    with pytest.raises(ValueError, match="1 to 6 cards"):
        draw_card_rows(CardRowsView("x", "y", 1, (CardRow("z", ()),)))
