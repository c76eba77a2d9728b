"""The table's words: in English the same text the runtime writes for its logs."""

from __future__ import annotations

import itertools

import pytest

from bot.engine.events import ActionKind, PlayerActed, Street
from bot.i18n import table as words
from bot.runtime.config import TableConfig
from bot.runtime.decisions import Source
from bot.runtime.engine_glue import action_view
from bot.runtime.seating import Seat


@pytest.mark.parametrize(("kind", "all_in", "source"), list(itertools.product(
    [k for k in ActionKind if k is not ActionKind.ALL_IN], (False, True), list(Source))))
def test_actions_in_english_are_the_runtimes_text(kind: ActionKind, all_in: bool,
                                                   source: Source) -> None:
    acted = PlayerActed(seat=1, street=Street.FLOP, kind=kind, amount=1234, to=2468,
                        all_in=all_in)
    view = action_view(Seat(1, 7, "alice", 5000, 30.0), acted, source)
    assert words.action("en", view) == view.text
    assert words.action("pt-BR", view) != view.text


def test_titles() -> None:
    config = TableConfig.create(ante=1)
    assert words.title("en", config) == config.title
    assert words.title("pt-BR", config) == "Omaha Pot Limit 1/2 ante 1"
    assert words.title("es-ES", config) == "Omaha Límite de bote 1/2 ante 1"
    assert words.table_name("it", 1234) == "Tavolo 1234"
