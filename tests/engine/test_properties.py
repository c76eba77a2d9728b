"""Property tests over random hands of every variant and structure (RULES.md sections 2-6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import Card, Deck
from bot.engine.evaluate import high_value, low_value
from bot.engine.events import PotAwarded
from bot.engine.hand import (
    VARIANTS,
    Action,
    ActionKind,
    GameConfig,
    Hand,
    IllegalAction,
    LegalActions,
    SeatIn,
    SeatState,
    Structure,
)
from bot.engine.variants import Variant


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, list[SeatIn]]:
    """A started hand: random variant, structure, seats, stacks (short ones too), antes."""
    v = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    structure = draw(st.sampled_from(list(Structure)))
    n = draw(st.integers(2, v.max_seats))
    numbers = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n, unique=True))
    big = draw(st.integers(2, 10))
    ante = draw(st.sampled_from([0, 0, 1, big // 2]))
    if structure is Structure.FIXED_LIMIT:
        cfg = GameConfig.fixed_limit(v, big, ante)
    else:
        cfg = GameConfig(v, structure, draw(st.integers(1, big)), big, ante)
    stacks = draw(st.lists(
        st.one_of(st.integers(1, 3 * big), st.integers(1, 400)), min_size=n, max_size=n))
    newcomers = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    seats = [SeatIn(s, st_, nc and draw(st.integers(0, 3)) == 0)
             for s, st_, nc in zip(numbers, stacks, newcomers, strict=True)]
    button = draw(st.sampled_from(numbers))
    deck = Deck(rng=random.Random(draw(st.integers(0, 2**32))))
    return Hand(cfg, seats, button, deck), seats


def illegal_samples(hand: Hand, la: LegalActions) -> list[tuple[int, Action]]:
    """Actions the rules refuse now: wrong seat, check facing a bet, amounts out of range."""
    out: list[tuple[int, Action]] = []
    others = [s for s in hand.seat_order if s != la.seat]
    out.append((others[0], Action.check()))
    out.append((others[-1], Action.fold()))
    out.append((999, Action.fold()))
    if not la.can_check:
        out.append((la.seat, Action.check()))
    if la.min_raise_to is None:
        out.append((la.seat, Action.raise_to(la.all_in_to)))
        out.append((la.seat, Action.bet(la.current_bet + 100)))
    else:
        assert la.max_raise_to is not None
        out.append((la.seat, Action.raise_to(la.max_raise_to + 1)))
        if la.min_raise_to > la.current_bet + 1:
            out.append((la.seat, Action.raise_to(la.min_raise_to - 1)))
        out.append((la.seat, Action.raise_to(la.current_bet)))
    return out


def expected_pots(states: Sequence[SeatState]) -> list[tuple[int, tuple[int, ...]]]:
    """An independent cut of the pots by RULES.md section 6: chip layers between
    contribution levels, merged while their owners (positions) are the same."""
    contrib = [p.committed for p in states]
    live = [not p.folded for p in states]
    levels = sorted(set(contrib) - {0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels:
        chips = sum(max(0, min(c, level) - prev) for c in contrib)
        owners = tuple(i for i in range(len(states)) if live[i] and contrib[i] >= level)
        if pots and (owners == pots[-1][1] or not owners):
            pots[-1] = (pots[-1][0] + chips, pots[-1][1])
        else:
            pots.append((chips, owners))
        prev = level
    return pots


def expected_shares(
    amount: int, owners: Sequence[int], states: Sequence[SeatState], board: Sequence[Card],
    variant: Variant,
) -> dict[int, int]:
    """An independent award of one pot on ``board``: seat -> chips (RULES.md section 6)."""
    highs = {i: high_value(states[i].hole, board, variant.rule) for i in owners}
    lows = {i: low_value(states[i].hole, board) for i in owners} if variant.hi_lo else {}
    qualified = {i: v for i, v in lows.items() if v is not None}
    halves = [(amount - amount // 2, highs), (amount // 2, qualified)] if qualified \
        else [(amount, highs)]
    out: dict[int, int] = {}
    for half, values in halves:
        best = max(values.values())
        winners = sorted(i for i, v in values.items() if v == best)
        for k, i in enumerate(winners):
            seat = states[i].seat
            out[seat] = out.get(seat, 0) + half // len(winners) + (k < half % len(winners))
    return out


def expected_payouts(hand: Hand) -> tuple[list[int], dict[int, int]]:
    """An independent settlement by RULES.md section 6: each pot split on its own."""
    states = hand.players  # clockwise from the first seat after the button
    pots = expected_pots(states)
    contrib = [p.committed for p in states]
    live = [not p.folded for p in states]
    payouts = {p.seat: 0 for p in states}
    if sum(live) == 1:
        winner = states[live.index(True)].seat
        payouts[winner] = sum(contrib)
        return [sum(contrib)], payouts
    for amount, owners in pots:
        shares = expected_shares(amount, owners, states, hand.board, hand.config.variant)
        for seat, chips in shares.items():
            payouts[seat] += chips
    return [a for a, _ in pots], payouts


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (hand.events, hand.players, hand.to_act, hand.legal_actions(), tuple(hand.board))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=hands(), data=st.data())
def test_random_hands_keep_every_invariant(spec: tuple[Hand, list[SeatIn]],
                                           data: st.DataObject) -> None:
    """Chips conserved, no card twice, legal actions accepted, others refused, replay exact."""
    hand, seats = spec
    hand.start()
    assert hand.invariant_violations() == []
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 200, "the hand does not end"
        la = hand.legal_actions()
        assert la is not None and la.seat == hand.to_act
        assert la.to_call >= 0 and la.all_in_to >= la.bet + la.to_call
        if la.min_raise_to is not None:
            assert la.max_raise_to is not None
            assert la.current_bet < la.min_raise_to <= la.max_raise_to <= la.all_in_to
        before = snapshot(hand)
        for seat, bad in illegal_samples(hand, la):
            try:
                hand.act(seat, bad)
            except IllegalAction as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{bad} by seat {seat} was accepted")
            assert snapshot(hand) == before
        choices: list[Action] = [Action.fold(), Action.check() if la.can_check else Action.call()]
        if la.min_raise_to is not None and la.max_raise_to is not None:
            amount = data.draw(st.integers(la.min_raise_to, la.max_raise_to))
            choices += [Action.raise_to(amount), Action.raise_to(la.min_raise_to),
                        Action.raise_to(la.max_raise_to)]
            if la.max_raise_to == la.all_in_to:
                choices.append(Action.all_in())
        elif la.to_call and la.call_is_all_in:
            choices.append(Action.all_in())
        action = data.draw(st.sampled_from(choices))
        if action.kind is not ActionKind.FOLD and data.draw(st.integers(0, 9)) == 0:
            hand.request_show(la.seat)
        hand.check(la.seat, action)
        hand.act(la.seat, action)
        assert hand.invariant_violations() == []
    result = hand.result
    assert sum(result.final_stacks.values()) == sum(s.stack for s in seats)
    amounts, payouts = expected_payouts(hand)
    assert result.payouts == payouts
    if not result.pots[0].uncontested:
        assert [p.amount for p in result.pots] == amounts
        # a hand that wins any part of a pot is shown; a mucked hand wins nothing
        assert all(seat in result.shown for seat, won in payouts.items() if won)
        assert all(payouts[seat] == 0 for seat in result.mucked)
        live = {p.seat for p in hand.players if not p.folded}
        assert set(result.shown) | set(result.mucked) == live
    else:
        assert result.shown == {} and result.mucked == ()
    assert sum(result.payouts.values()) == sum(
        e.amount for e in hand.events if isinstance(e, PotAwarded))
    cards = [c for s in seats for c in hand.hole(s.seat)] + list(hand.board)
    assert len(cards) == len(set(cards))
    again = Hand.replay(hand.config, seats, hand.button, hand.deck.order, hand.inputs)
    assert again.events == hand.events


def test_invariant_checker_can_fail() -> None:
    """Corrupted states are reported: chips created, a card twice, a folded player to act."""
    def fresh() -> Hand:
        cfg = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2)
        hand = Hand(cfg, [SeatIn(1, 50), SeatIn(2, 50), SeatIn(3, 50)], 3,
                    Deck(rng=random.Random(9)))
        hand.start()
        assert hand.invariant_violations() == []
        return hand

    hand = fresh()
    hand._players[0].stack += 1
    assert any("conserved" in v for v in hand.invariant_violations())
    hand = fresh()
    hand._board.append(hand.hole(1)[0])
    assert any("twice" in v for v in hand.invariant_violations())
    hand = fresh()
    hand._players[2].folded = True
    assert any("cannot act" in v for v in hand.invariant_violations())
    hand = fresh()
    hand._players[1].bet += 5
    hand._players[1].stack -= 5
    hand._players[1].committed += 5
    assert any("above the current bet" in v for v in hand.invariant_violations())
