"""The table's words: in English the same text the runtime writes for its logs."""

from __future__ import annotations

import itertools

import pytest

from bot.engine.cards import parse_cards
from bot.engine.events import ActionKind, PlayerActed, Street
from bot.engine.variants import VARIANTS
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


def test_a_stored_hands_title_comes_from_its_settings_or_its_stored_key() -> None:
    """A hand's table may have had settings that no longer make a table: its stored
    variant key stands for the title then."""
    settings = TableConfig.create(ante=1).to_dict()
    assert wording.stored_title("pt-BR", settings, "omaha") == "Omaha Pot Limit 1/2 ante 1"
    assert wording.stored_title("en", {**settings, "big_blind": -5}, "omaha") == "omaha"
    assert wording.stored_title("en", {"variant_key": "gone"}, "omaha") == "gone"


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



def _checked_down(variant: str, holes: list[str], board: str) -> object:
    """A heads-up hand (seat 1 on the button deals first) checked and called down."""
    from bot.engine.cards import Deck
    from bot.engine.dealing import deck_order_for
    from bot.engine.events import Action
    from bot.engine.hand import Hand, SeatIn
    from bot.engine.variants import GameConfig, Structure

    order = deck_order_for(VARIANTS[variant], [parse_cards(h) for h in holes],
                           parse_cards(board))
    cfg = GameConfig(VARIANTS[variant], Structure.POT_LIMIT, 1, 2)
    hand = Hand(cfg, [SeatIn(1, 100), SeatIn(2, 100)], 1, Deck(order=order))
    hand.start()
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    return result_view(hand, 1, {1: "alice", 2: "bob"}, {1: 11, 2: 12})


def test_hand_names_read_as_part_of_the_sentence() -> None:
    """Hi-lo: alice's two pair take the high, bob's 6-5-4-2-A the low. The result lines say
    the hand in lower case inside the sentence and "low" once (not "baixa com Baixa")."""
    view = _checked_down("omaha_hilo", ["AdQs5c9s", "6s2hJdTc"], "Ac5h4dKs7h")
    assert wording.result_lines("en", view) == list(view.lines) == [
        "alice wins 2 high with two pair, aces and fives",
        "bob wins 2 low with 6-5-4-2-A"]
    assert wording.result_lines("pt-BR", view) == [
        "alice ganha 2 alta com dois pares, ases e cincos", "bob ganha 2 baixa com 6-5-4-2-A"]
    assert wording.result_lines("es-419", view)[1] == "bob gana 2 baja con 6-5-4-2-A"
    assert wording.result_lines("it", view)[0] == (
        "alice vince 2 High con doppia coppia, assi e cinque")  # the seed's "l'High"


def test_a_kicker_that_decides_is_named() -> None:
    """Both players have a pair of kings: the ace beats the queen, and the lines and the
    shown hands say so in every language (RULES.md 1: ties are broken by kickers)."""
    view = _checked_down("omaha", ["KhAs9d9c", "KdQs7c6h"], "Kc8d4s3h2c")
    assert wording.result_lines("en", view) == ["alice wins 4 with pair of kings, kicker ace"]
    assert wording.result_lines("pt-BR", view) == [
        "alice ganha 4 com par de reis, kicker ás"]
    assert wording.result_lines("es-ES", view) == [
        "alice gana 4 con pareja de reyes, kicker as"]
    labels = {s.name: s.label for s in view.shown}
    assert labels == {"alice": "Pair of kings, kicker ace", "bob": "Pair of kings, kicker queen"}
