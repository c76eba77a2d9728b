"""Wording the engine's hand for the table (bot/runtime/table/hand_views.py)."""

import random

from bot.engine.cards import Deck
from bot.engine.events import Action
from bot.engine.hand import VARIANTS, GameConfig, Hand, SeatIn, Structure
from bot.runtime.table.hand_views import private_cards, result_view


def _river_bet_and_call() -> Hand:
    config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2)
    hand = Hand(config, [SeatIn(1, 100), SeatIn(2, 100), SeatIn(3, 100)], 3,
                Deck(rng=random.Random(5)))
    hand.start()
    while hand.street.value != "river":
        seat = hand.to_act
        assert seat is not None
        hand.act(seat, Action.call())
    first = hand.to_act
    assert first is not None
    hand.act(first, Action.bet(6))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(seat, Action.call())
    return hand


def test_after_the_showdown_no_bet_stands_and_the_middle_is_empty() -> None:
    """The engine's hand, the one model the table reads, sweeps the river bets."""
    hand = _river_bet_and_call()
    assert all(p.bet == 0 for p in hand.players)
    assert hand.pot_total == 0
    assert {p.seat: p.stack for p in hand.players} == hand.result.final_stacks


def test_the_result_names_each_share_with_the_hand_shown() -> None:
    """One line a share, worded from the engine's result and its shown hands' labels."""
    hand = _river_bet_and_call()
    names = {1: "alice", 2: "bob", 3: "carol"}
    view = result_view(hand, 7, names, {1: 11, 2: 12, 3: 13})
    result = hand.result
    assert view.hand_no == 7 and view.board == hand.board
    assert view.payouts == {s: w for s, w in result.payouts.items() if w}
    assert sum(view.net.values()) == 0
    for seat, won in view.payouts.items():
        shown = result.shown[seat]
        line = f"{names[seat]} wins {won:,} with {shown.high.description.lower()}"
        assert any(line_.startswith(line) for line_ in view.lines)
    assert [s.seat for s in view.shown] == sorted(result.shown)
    assert all(s.label == result.shown[s.seat].label and s.high for s in view.shown)


def test_private_cards_label_only_once_the_flop_is_out() -> None:
    hand = _river_bet_and_call()
    mine = private_cards(hand, 1)
    assert mine.cards == hand.hole(1) and mine.board == hand.board and mine.label
    assert "cards=" not in repr(mine)
    fresh = Hand(hand.config, [SeatIn(1, 100), SeatIn(2, 100)], 2, Deck(rng=random.Random(1)))
    fresh.start()
    assert private_cards(fresh, 1).label == ""
