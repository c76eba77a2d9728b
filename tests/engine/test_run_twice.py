"""Run it twice (bot.engine.run_twice): when it is asked, the dealing order, the split."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import DECK, Card, Deck, card
from bot.engine.dealing import deal_positions
from bot.engine.events import BoardDealt, CardBurned, PotAwarded, RunTwiceVoted, event_from_dict
from bot.engine.hand import (
    VARIANTS,
    Action,
    GameConfig,
    Hand,
    IllegalAction,
    SeatIn,
    Structure,
)
from tests.engine.test_properties import expected_pots, expected_shares


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(text[i:i + 2]) for i in range(0, len(text), 2))


def _deck(variant_key: str, n: int, holes: list[str], board: str, board2: str,
          shared: int) -> list[Card]:
    """A deck that deals ``holes`` (deal order), ``board`` and the second run's own cards."""
    plan = deal_positions(n, VARIANTS[variant_key], shared)
    slots: dict[int, Card] = {}
    for k, hole in enumerate(holes):
        slots.update(zip(plan[f"hole:{k}"], cards(hole), strict=True))
    slots.update(zip(plan["board"], cards(board), strict=True))
    slots.update(zip(plan["board2"], cards(board2), strict=True))
    spare = iter(c for c in DECK if c not in slots.values())
    return [slots[i] if i in slots else next(spare) for i in range(52)]


def _worked_hand() -> Hand:
    """Three players of no-limit Omaha, 1/2, all-in before the flop.

    Seat 1 (small blind) and seat 2 (big blind) have 31 chips, seat 3 (button) 100.
    Seat 3 moves all-in, both call: 69 go back to seat 3, the pot is 93.
    Board 1 Ac Kd 2h 3s 9c: seats 1 and 2 both make aces and kings with a nine
    (As Ks / Ah Kh), seat 3 only queens. Board 2 Ac Kd 2h 3s 9c is not dealt: the
    second run is Qc Jh 5s 4h 8d, where seat 3's Qh Qd make three queens.
    """
    holes = ["AsKs7c7d", "AhKh6c6d", "QhQdJcJd"]  # deal order: seat 1, 2, 3
    deck = _deck("omaha", 3, holes, "AcKd2h3s9c", "QcJh5s4h8d", 0)
    cfg = GameConfig(VARIANTS["omaha"], Structure.NO_LIMIT, 1, 2, run_it_twice=True)
    hand = Hand(cfg, [SeatIn(1, 31), SeatIn(2, 31), SeatIn(3, 100)], 3, Deck(order=deck))
    hand.start()
    hand.act(3, Action.all_in())
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    return hand


def test_worked_example_by_hand() -> None:
    """93 chips: board 1 gets 47 (odd chip), tied by seats 1 and 2 (24 to seat 1, the first
    after the button, 23 to seat 2); board 2's 46 go to seat 3's three queens."""
    hand = _worked_hand()
    assert hand.run_twice_voters == (1, 2, 3) and hand.to_act is None
    assert not hand.is_over and hand.board == ()
    hand.vote_run_twice(2, True)
    hand.vote_run_twice(1, True)
    assert hand.run_twice_voters == (3,)
    hand.vote_run_twice(3, True)
    assert hand.is_over and hand.invariant_violations() == []
    assert hand.board == cards("AcKd2h3s9c")
    assert hand.second_board == cards("QcJh5s4h8d")
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(a.index, a.amount, a.high, a.run) for a in awards] == [
        (0, 47, ((1, 24), (2, 23)), 0),
        (0, 46, ((3, 46),), 1),
    ]
    result = hand.result
    assert result.final_stacks == {1: 24, 2: 23, 3: 69 + 46}
    assert result.boards == (hand.board, hand.second_board)
    assert result.second_shown[3].label.startswith("Three of a kind")
    assert [(p.amount, p.eligible) for p in hand.pots] == [(93, (1, 2, 3))]


def test_dealing_order_second_run_follows_the_first() -> None:
    """The second run's burns and cards come right after the first run's river."""
    hand = _worked_hand()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    order = hand.deck.order
    plan = deal_positions(3, hand.config.variant, 0)
    assert plan["burn2"] == [20, 24, 26] and plan["board2"] == [21, 22, 23, 25, 27]
    assert tuple(order[i] for i in plan["board2"]) == hand.second_board
    assert hand.deck.position == 28
    second = [e for e in hand.events if isinstance(e, BoardDealt | CardBurned) and e.run == 1]
    assert [type(e).__name__ for e in second] == ["CardBurned", "BoardDealt"] * 3


@pytest.mark.parametrize("answers", [(True, False), (False,), (True, True, False)])
def test_any_once_runs_it_once(answers: tuple[bool, ...]) -> None:
    """The first "once" deals the board once, at once; the rest are not asked."""
    hand = _worked_hand()
    for seat, agree in zip((1, 2, 3), answers, strict=False):
        hand.vote_run_twice(seat, agree)
    assert hand.is_over and hand.second_board == ()
    assert hand.board == cards("AcKd2h3s9c")
    assert hand.result.final_stacks == {1: 47, 2: 46, 3: 69}
    with pytest.raises(IllegalAction):
        hand.vote_run_twice(3, True)


def test_question_refused_off_table_and_twice() -> None:
    """No question when the table does not allow it; a seat answers once."""
    hand = _worked_hand()
    hand.vote_run_twice(1, True)
    with pytest.raises(IllegalAction, match="no run-it-twice question"):
        hand.vote_run_twice(1, True)
    cfg = GameConfig(VARIANTS["omaha"], Structure.NO_LIMIT, 1, 2)
    off = Hand(cfg, [SeatIn(1, 31), SeatIn(2, 31), SeatIn(3, 100)], 3, Deck(order=hand.deck.order))
    off.start()
    off.act(3, Action.all_in())
    off.act(1, Action.call())
    off.act(2, Action.call())
    assert off.is_over and off.run_twice_voters == ()


def test_not_asked_when_the_deck_is_short() -> None:
    """Seven players of six-card Omaha all-in before the flop: 42 + 8 + 8 > 52 cards."""
    cfg = GameConfig(VARIANTS["omaha6"], Structure.NO_LIMIT, 1, 2, run_it_twice=True)
    seats = [SeatIn(s, 10) for s in range(1, 8)]
    hand = Hand(cfg, seats, 7, Deck(rng=random.Random(4)))
    hand.start()
    while hand.to_act is not None:
        hand.act(hand.to_act, Action.call())
    assert hand.is_over and hand.second_board == ()


def test_events_round_trip_with_run() -> None:
    """The second run's events keep ``run`` through to_dict; the first run writes none."""
    hand = _worked_hand()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    for e in hand.events:
        assert event_from_dict(e.to_dict()) == e
        if isinstance(e, BoardDealt) and e.run == 0:
            assert "run" not in e.to_dict()
    votes = [e for e in hand.events if isinstance(e, RunTwiceVoted)]
    assert [(v.seat, v.agree) for v in votes] == [(1, True), (2, True), (3, True)]
    again = Hand.replay(hand.config, [SeatIn(1, 31), SeatIn(2, 31), SeatIn(3, 100)], 3,
                        hand.deck.order, hand.inputs)
    assert again.events == hand.events


@st.composite
def all_in_hands(draw: st.DrawFn) -> tuple[Hand, list[SeatIn]]:
    """2-6 players, hi-lo and high-only games, stacks of every size (side pots, odd pots)."""
    key = draw(st.sampled_from(["omaha", "omaha_hilo", "big_o", "courchevel_hilo", "omaha6"]))
    n = draw(st.integers(2, 6))
    big = draw(st.integers(2, 6))
    ante = draw(st.sampled_from([0, 1]))
    cfg = GameConfig(VARIANTS[key], Structure.NO_LIMIT, draw(st.integers(1, big)), big, ante,
                     run_it_twice=True)
    stacks = draw(st.lists(st.integers(1, 300), min_size=n, max_size=n))
    seats = [SeatIn(k + 1, s) for k, s in enumerate(stacks)]
    deck = Deck(rng=random.Random(draw(st.integers(0, 2**32))))
    return Hand(cfg, seats, draw(st.integers(1, n)), deck), seats


def _play(hand: Hand, data: st.DataObject) -> None:
    """Call or move all-in (now and then fold or check) until the betting is over."""
    while hand.to_act is not None:
        la = hand.legal_actions()
        assert la is not None
        moves = [Action.call(), Action.call()]
        if la.max_raise_to is not None:
            moves.append(Action.raise_to(la.max_raise_to))
        if la.to_call:
            moves.append(Action.fold())
        hand.act(la.seat, data.draw(st.sampled_from(moves)))
        assert hand.invariant_violations() == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=all_in_hands(), data=st.data())
def test_run_twice_conserves_chips_and_splits_each_pot(
    spec: tuple[Hand, list[SeatIn]], data: st.DataObject
) -> None:
    """Every pot: ceil(half) to board 1, floor(half) to board 2, each awarded by the rules on
    its own board; chips conserved; the replay of the inputs is the same hand."""
    hand, seats = spec
    hand.start()
    _play(hand, data)
    asked = hand.run_twice_voters
    agree = data.draw(st.lists(st.booleans(), min_size=len(asked), max_size=len(asked)))
    for seat, yes in zip(asked, agree, strict=True):
        if hand.is_over:
            break
        hand.vote_run_twice(seat, yes)
        assert hand.invariant_violations() == []
    assert hand.is_over
    result = hand.result
    assert sum(result.final_stacks.values()) == sum(s.stack for s in seats)
    twice = bool(asked) and all(agree)
    assert bool(hand.second_board) == twice
    if twice:
        states = hand.players
        awards = [e for e in hand.events if isinstance(e, PotAwarded)]
        payouts = {s.seat: 0 for s in seats}
        for k, (amount, owners) in enumerate(expected_pots(states)):
            mine = [a for a in awards if a.index == k]
            assert [a.amount for a in mine if a.amount] == [
                x for x in (amount - amount // 2, amount // 2) if x]
            for run, board in enumerate(hand.boards):
                share = [a for a in mine if a.run == run]
                half = (amount - amount // 2, amount // 2)[run]
                want = expected_shares(half, owners, states, board,
                                       hand.config.variant) if half else {}
                got: dict[int, int] = {}
                for a in share:
                    for seat, chips in a.high + a.low:
                        got[seat] = got.get(seat, 0) + chips
                assert {s: c for s, c in got.items() if c} == {
                    s: c for s, c in want.items() if c}
                for seat, chips in want.items():
                    payouts[seat] += chips
        assert result.payouts == payouts
        used = [c for s in seats for c in hand.hole(s.seat)] + list(hand.board) + [
            c for c in hand.second_board if c not in hand.board]
        assert len(used) == len(set(used))
    again = Hand.replay(hand.config, seats, hand.button, hand.deck.order, hand.inputs)
    assert again.events == hand.events


def test_second_board_invariant_can_fail() -> None:
    """A second board that repeats a first-board card is reported."""
    hand = _worked_hand()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    hand._board2[4] = card("Ac")
    assert any("repeats" in v for v in hand.invariant_violations())
