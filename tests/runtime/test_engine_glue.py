"""Reading a hand for the table from its events (bot/runtime/engine_glue.py)."""

import random

from bot.engine.cards import Deck
from bot.engine.events import Action, ActionKind, PlayerActed
from bot.engine.hand import VARIANTS, GameConfig, Hand, SeatIn, Structure
from bot.runtime.engine_glue import HandLedger


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


def test_ledger_sweeps_river_bets_into_the_awarded_pot() -> None:
    """After the showdown no seat shows a bet and the middle is empty."""
    hand = _river_bet_and_call()
    ledger = HandLedger()
    ledger.feed(hand.events)
    assert all(st.bet == 0 for st in ledger.seats.values())
    assert ledger.pot_total == 0
    assert ledger.final == hand.result.final_stacks


def test_ledger_shows_the_river_bet_before_the_call() -> None:
    """While the river bet stands, the ledger shows it in front of the bettor."""
    hand = _river_bet_and_call()
    events = list(hand.events)
    bet_at = next(i for i, e in enumerate(events)
                  if isinstance(e, PlayerActed) and e.kind is ActionKind.BET)
    ledger = HandLedger()
    ledger.feed(events[: bet_at + 1])
    assert sorted(st.bet for st in ledger.seats.values()) == [0, 0, 6]
    assert ledger.pot_total == 3 * 2 + 6
