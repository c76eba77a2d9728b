"""The table's words: in English the same text the runtime writes for its logs."""

from __future__ import annotations

import itertools

import pytest

from bot.engine.events import ActionKind, PlayerActed, Street
from bot.runtime.config import TableConfig
from bot.runtime.decisions import Source
from bot.runtime.seating import Seat
from bot.runtime.table import wording
from bot.runtime.table.hand_views import action_view, result_view
from tests.engine.test_run_twice import _worked_hand


@pytest.mark.parametrize(("kind", "all_in", "source"), list(itertools.product(
    [k for k in ActionKind if k is not ActionKind.ALL_IN], (False, True), list(Source))))
def test_actions_in_english_are_the_runtimes_text(kind: ActionKind, all_in: bool,
                                                   source: Source) -> None:
    acted = PlayerActed(seat=1, street=Street.FLOP, kind=kind, amount=1234, to=2468,
                        all_in=all_in)
    view = action_view(Seat(1, 7, "alice", 5000, 30.0), acted, source)
    assert wording.action("en", view) == view.text
    assert wording.action("pt-BR", view) != view.text


def test_titles() -> None:
    config = TableConfig.create(ante=1)
    assert wording.title("en", config) == config.title
    assert wording.title("pt-BR", config) == "Omaha Pot Limit 1/2 ante 1"
    assert wording.title("es-ES", config) == "Omaha Límite de bote 1/2 ante 1"
    assert wording.table_name("it", 1234) == "Tavolo 1234"


@pytest.mark.parametrize("twice", [True, False])
def test_result_lines_in_english_are_the_runtimes_text(twice: bool) -> None:
    """The worked hand of tests/engine/test_run_twice.py, run twice or once: the channel's
    English words are the runtime's, and each board is named in every language."""
    hand = _worked_hand()
    for seat in (1, 2, 3):
        if not hand.is_over:
            hand.vote_run_twice(seat, twice)
    view = result_view(hand, 1, {1: "ann", 2: "bob", 3: "cy"}, {1: 11, 2: 12, 3: 13})
    assert wording.result_lines("en", view) == list(view.lines)
    if twice:
        assert view.lines == (
            "ann wins 24 with two pair, aces and kings (board 1)",
            "bob wins 23 with two pair, aces and kings (board 1)",
            "cy wins 46 with three of a kind, queens (board 2)",
        )
    for locale in ("pt-BR", "es-ES", "it"):
        lines = wording.result_lines(locale, view)
        assert len(lines) == len(view.lines)
        assert any("2)" in line for line in lines) == twice
