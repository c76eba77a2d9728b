"""Adversarial audit of the engine against RULES.md sections 1 to 6.

Every expected number here was worked out by hand from RULES.md (the arithmetic
is in the comments), not read back from the engine.
"""

from __future__ import annotations

import pytest

from bot.engine.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandMucked,
    HandShown,
    PlayerActed,
    PotAwarded,
    Street,
)
from bot.engine.hand import Action, ActionKind, IllegalAction, LegalActions
from bot.engine.variants import HandRule
from tests.engine.conftest import FL, NL, PL, check_down, new_hand, play, step


def legal(hand) -> LegalActions:  # type: ignore[no-untyped-def]
    la = hand.legal_actions()
    assert la is not None
    return la


def shows(events: list[Event] | tuple[Event, ...]) -> list[tuple[str, int]]:
    """The showdown as ("show"|"muck", seat) in order."""
    out = []
    for e in events:
        if isinstance(e, HandShown):
            out.append(("show", e.seat))
        elif isinstance(e, HandMucked):
            out.append(("muck", e.seat))
    return out


def awards(events: list[Event] | tuple[Event, ...]) -> list[PotAwarded]:
    return [e for e in events if isinstance(e, PotAwarded)]


def pots(hand) -> list[tuple[int, tuple[int, ...]]]:  # type: ignore[no-untyped-def]
    return [(p.amount, p.eligible) for p in hand.pots]


# ---------------------------------------------------------------------------------
# Section 3: short blinds, antes
# ---------------------------------------------------------------------------------
def test_section_3_short_big_blind_three_handed_callers_pay_full_and_side_pot_forms() -> None:
    """BB all-in for 1 of 2, three-handed: button and SB put in 2; main 3, side 2."""
    hand = new_hand([100, 1, 100])  # seats 1 SB, 2 BB (1 chip), 3 button
    la = legal(hand)
    assert (la.seat, la.to_call, la.current_bet, la.min_raise_to) == (3, 2, 2, 4)
    step(hand, "call")
    la = legal(hand)
    # small blind completes 1 to the full big blind; its minimum raise is still to 4
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 1, 4)
    step(hand, "call")
    # the all-in big blind has no option: the round is over
    assert hand.street is Street.FLOP and hand.to_act == 1
    assert pots(hand) == [(3, (1, 2, 3)), (2, (1, 3))]


def test_section_3_short_big_blind_with_antes_pot_limit_maximum() -> None:
    """Ante 1, blinds 1-2, BB has 2 (ante 1 + 1 all-in): pot 5, so the max raise is to 9."""
    hand = new_hand([100, 2, 100], structure=PL, ante=1)
    bb = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted) and e.seat == 2]
    assert bb == [AntePosted(2, 1, False), BlindPosted(2, 1, "big", True)]
    la = legal(hand)
    # pot = 3 antes + SB 1 + BB 1 = 5; call 2 makes 7; raise 7 over the bet of 2 -> 9
    assert (la.pot, la.to_call, la.min_raise_to, la.max_raise_to) == (5, 2, 4, 9)
    step(hand, "call")
    la = legal(hand)
    # SB: pot 7, to call 1 -> 8, max = 2 + 8 = 10
    assert (la.seat, la.to_call, la.max_raise_to) == (1, 1, 10)


def test_section_3_big_blind_all_in_on_the_ante_posts_no_blind_bet_stays_full() -> None:
    """BB all-in on the ante: no blind posted, others still owe 2; PL max counts the antes."""
    hand = new_hand([100, 1, 100], structure=PL, ante=1)
    assert not any(isinstance(e, BlindPosted) and e.seat == 2 for e in hand.events)
    la = legal(hand)
    # pot = 3 antes + SB 1 = 4; call 2 -> 6; max = 2 + 6 = 8
    assert (la.seat, la.to_call, la.current_bet, la.min_raise_to, la.max_raise_to) == (
        3, 2, 2, 4, 8)
    play(hand, "call", "call")
    assert hand.street is Street.FLOP
    # main pot: the three antes; side pot: the two 2-chip blinds/calls
    assert pots(hand) == [(3, (1, 2, 3)), (4, (1, 3))]


def test_section_3_small_blind_all_in_on_the_ante_big_blind_keeps_option() -> None:
    """SB all-in on its ante posts no blind; the BB still has the option after a call."""
    hand = new_hand([1, 100, 100], ante=1)
    assert not any(isinstance(e, BlindPosted) and e.seat == 1 for e in hand.events)
    step(hand, "call")  # button calls 2
    la = legal(hand)
    assert la.seat == 2 and la.can_check and la.min_raise_to == 4
    step(hand, "check")
    assert hand.street is Street.FLOP and hand.to_act == 2  # the all-in SB is skipped
    assert pots(hand) == [(3, (1, 2, 3)), (4, (2, 3))]


def test_section_3_heads_up_big_blind_all_in_on_ante_small_blind_returned() -> None:
    """Heads-up, BB all-in on the ante: nobody acts, the SB's 1 is returned, the pot is 2."""
    hand = new_hand([1, 100], ante=1, button=2)  # seat 2 is button and small blind
    assert hand.is_over
    assert not any(isinstance(e, PlayerActed) for e in hand.events)
    assert BetReturned(2, 1) in hand.events
    r = hand.result
    assert r.returned == {2: 1}
    assert [(p.amount, p.eligible) for p in r.pots] == [(2, (1, 2))]
    assert sum(r.final_stacks.values()) == 101


def test_section_3_heads_up_short_big_blind_with_ante_runs_out_without_action() -> None:
    """Heads-up 2-4 ante 1, BB has 3 (ante 1 + 2 all-in): the button's 2 already matches."""
    hand = new_hand([3, 100], blinds=(2, 4), ante=1, button=2)
    assert hand.is_over
    assert not any(isinstance(e, PlayerActed | BetReturned) for e in hand.events)
    r = hand.result
    assert [p.amount for p in r.pots] == [6]
    assert sum(r.payouts.values()) == 6


def test_section_3_short_small_blind_all_in_forms_a_side_pot() -> None:
    """Blinds 2-4, SB has 1: it posts 1 all-in; after call and check, main 3, side 6."""
    hand = new_hand([1, 100, 100], blinds=(2, 4))
    sb = [e for e in hand.events if isinstance(e, BlindPosted) and e.seat == 1]
    assert sb == [BlindPosted(1, 1, "small", True)]
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 4, 8)
    play(hand, "call", "check")
    assert hand.street is Street.FLOP
    assert pots(hand) == [(3, (1, 2, 3)), (6, (2, 3))]


def test_section_3_fixed_limit_short_big_blind_still_counts_as_the_first_bet() -> None:
    """5-10 game, BB all-in for 3: callers pay 5, raises go 10, 15, 20 and then it is capped."""
    hand = new_hand([100, 3, 100, 100], structure=FL, blinds=(2, 5))
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (3, 5, 10, 10)
    play(hand, ("raise", 10), ("raise", 15), ("raise", 20))
    la = legal(hand)
    assert la.seat == 3 and la.to_call == 10 and la.min_raise_to is None
    assert "capped" in (la.no_raise_reason or "")


# ---------------------------------------------------------------------------------
# Section 5: incomplete raises and reopening
# ---------------------------------------------------------------------------------
def test_section_5_bet_10_all_in_14_bettor_and_caller_only_call_newcomer_raises_to_24() -> None:
    """NL flop: bet 10, call, all-in to 14 (short): an unacted player raises to >= 24."""
    hand = new_hand([100, 100, 16, 100])  # seat 3 keeps 14 after the preflop
    play(hand, "call", "call", "call", "check")
    play(hand, ("bet", 10), "call", "allin")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (4, 14, 24, 98)
    step(hand, "call")
    for seat in (1, 2):
        la = legal(hand)
        assert la.seat == seat and la.to_call == 4 and la.min_raise_to is None
        with pytest.raises(IllegalAction, match="did not reopen"):
            hand.check(seat, Action.raise_to(30))
        step(hand, "call")
    assert hand.street is Street.TURN


def test_section_5_checker_reopened_when_two_short_all_ins_add_up_to_a_full_bet() -> None:
    """Blinds 1-2: check, all-in bet 1, all-in to 2: together a full bet, the checker may raise."""
    hand = new_hand([100, 3, 4, 100])  # after the preflop: seat 2 has 1, seat 3 has 2
    play(hand, "call", "call", "call", "check")
    play(hand, "check", "allin")  # seat 1 checks, seat 2 all-in bet of 1
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 1, 2)  # all-in to 2 only
    step(hand, "allin")  # seat 3 all-in to 2: +1, incomplete
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (4, 2, 4)
    step(hand, "call")
    la = legal(hand)
    # seat 1 checked (faced 0); the all-ins add up to 2 = a full bet: reopened, to 2 + 2
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (1, 2, 4, 98)


def test_section_5_checker_not_reopened_by_a_lone_short_all_in_bet_of_1() -> None:
    """Blinds 1-2: check, all-in bet of 1 (short), call: the checker may only call or fold."""
    hand = new_hand([100, 3, 100, 100])
    play(hand, "call", "call", "call", "check")
    play(hand, "check", "allin")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 1, 3)  # 'minimum raise is to 3'
    play(hand, "call", "call")
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 1 and la.min_raise_to is None


def test_section_5_full_raise_over_an_all_in_bet_of_1_reopens_for_the_checker() -> None:
    """Blinds 1-2: check, all-in bet 1, raise to 3 (a full raise): the checker re-raises to 5."""
    hand = new_hand([100, 3, 100, 100])
    play(hand, "call", "call", "call", "check")
    play(hand, "check", "allin", ("raise", 3), "call")
    la = legal(hand)
    # increment stays 2 (the raise from 1 to 3): next raise to 3 + 2 = 5
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 3, 5)


def test_section_5_caller_of_a_short_all_in_measures_from_the_bet_it_last_faced() -> None:
    """Bet 10, all-in 15, call 15, all-in 22: the bettor (faced 10) reopens, the caller (15) not."""
    hand = new_hand([100, 17, 100, 24, 100])
    # preflop: 3, 4, 5, 1 call 2; 2 checks. Stacks: seat 2 has 15, seat 4 has 22.
    play(hand, "call", "call", "call", "call", "check")
    play(hand, ("bet", 10), "allin", "call", "allin")  # 1 bets 10, 2 to 15, 3 calls, 4 to 22
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (5, 22, 32)  # unacted: 22 + 10
    step(hand, "call")
    la = legal(hand)
    # seat 1 faced 10 when it acted; 22 - 10 = 12 >= 10: a full raise, reopened
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 12, 32)
    step(hand, "call")
    la = legal(hand)
    # seat 3 last faced 15; 22 - 15 = 7 < 10: call or fold
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 7, None)


def test_section_5_preflop_short_all_in_raise_keeps_big_blind_option_but_not_limpers() -> None:
    """Blinds 1-2: limp, all-in to 3 (short): the limper may only call; the BB may raise to 5."""
    hand = new_hand([100, 100, 100, 3])
    play(hand, "call", "allin")  # seat 3 limps, seat 4 all-in to 3
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 2, 5)  # SB has not acted
    step(hand, "call")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (2, 1, 5)  # BB has not acted
    step(hand, "call")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 1, None)


# ---------------------------------------------------------------------------------
# Section 5: pot limit
# ---------------------------------------------------------------------------------
def test_section_5_pot_limit_flop_short_all_in_pot_raise_reraise_capped_by_stack() -> None:
    """PL flop: pot 8, bet 8, short all-in to 12, pot raise to 52; the bettor's max is its stack."""
    hand = new_hand([100, 100, 14, 100], structure=PL)
    play(hand, "call", "call", "call", "check")  # pot 8; seat 3 has 12 left
    la = legal(hand)
    assert (la.seat, la.min_raise_to, la.max_raise_to) == (1, 2, 8)
    play(hand, ("bet", 8), "fold", "allin")  # seat 3 all-in to 12 (+4: incomplete)
    la = legal(hand)
    # pot = 8 + 8 + 12 = 28; to call 12; max = 12 + 28 + 12 = 52; min = 12 + 8 = 20
    assert (la.seat, la.pot, la.to_call, la.min_raise_to, la.max_raise_to) == (
        4, 28, 12, 20, 52)
    step(hand, ("raise", 52))
    la = legal(hand)
    # seat 1 reopened by a full raise; pot 80, to call 44: 52 + 124 = 176 > stack 98
    # the minimum is 52 + 40 = 92
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (1, 44, 92, 98)


def test_section_5_pot_limit_turn_maximum_counts_folded_players_chips() -> None:
    """PL turn, pot 21: bet 10, call 10, raise to 40, fold: the caller's max is 40 + 81 + 30."""
    hand = new_hand([300] * 3, structure=PL)
    play(hand, ("raise", 7), "call", "call")  # pot 21
    play(hand, "check", "check", "check")
    assert hand.street is Street.TURN and hand.pot_total == 21
    la = legal(hand)
    assert la.max_raise_to == 21
    play(hand, ("bet", 10), "call")
    la = legal(hand)
    assert (la.seat, la.max_raise_to) == (3, 10 + 41 + 10)
    play(hand, ("raise", 40), "fold")  # seat 1's 10 stay in the pot, dead
    la = legal(hand)
    # pot = 21 + 10 + 10 + 40 = 81, to call 30: 40 + 81 + 30 = 151; min 40 + 30 = 70
    assert (la.seat, la.pot, la.to_call, la.min_raise_to, la.max_raise_to) == (
        2, 81, 30, 70, 151)


def test_section_5_pot_limit_minimum_above_stack_is_all_in() -> None:
    """PL: when the stack is below the minimum raise, the only raise is all-in."""
    hand = new_hand([100, 100, 100, 12], structure=PL)
    play(hand, ("raise", 7))
    la = legal(hand)
    # min raise would be 12; seat 4 has 12: min = max = 12
    assert (la.seat, la.min_raise_to, la.max_raise_to, la.all_in_to) == (4, 12, 12, 12)
    hand = new_hand([100, 100, 100, 10], structure=PL)
    play(hand, ("raise", 7))
    la = legal(hand)
    assert (la.min_raise_to, la.max_raise_to) == (10, 10)


# ---------------------------------------------------------------------------------
# Section 5: fixed limit
# ---------------------------------------------------------------------------------
def test_section_5_fixed_limit_short_all_in_between_full_raises_does_not_use_a_cap_slot() -> None:
    """5-10 flop: bet 5, raise 10, all-in 12, raise 17, raise 22: capped after 4 full bets."""
    hand = new_hand([100, 100, 17, 100], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "call", "check")  # seat 3 has 12 left
    play(hand, ("bet", 5), ("raise", 10), "allin")  # seat 3 all-in to 12 (+2)
    la = legal(hand)
    assert (la.seat, la.min_raise_to, la.max_raise_to) == (4, 17, 17)
    step(hand, ("raise", 17))  # third full bet
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 12, 22)  # fourth allowed
    step(hand, ("raise", 22))
    la = legal(hand)
    assert la.seat == 2 and la.to_call == 12 and la.min_raise_to is None
    assert "capped" in (la.no_raise_reason or "")


def test_section_5_fixed_limit_two_short_all_ins_reopen_for_the_bettor() -> None:
    """5-10 flop: bet 5, all-in to 7, all-in to 10: together a full raise, the bettor may raise."""
    hand = new_hand([100, 12, 15, 100], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "call", "check")  # seat 2 has 7, seat 3 has 10
    play(hand, ("bet", 5), "allin", "allin")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (4, 10, 15)
    step(hand, "call")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (1, 5, 15, 15)


def test_section_5_fixed_limit_short_all_in_bet_next_raise_is_a_full_bet_above() -> None:
    """5-10 turn (big bet 10): all-in bet of 4, the next player may raise only to 14."""
    hand = new_hand([100, 9, 100], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "check", "check", "check", "check")  # seat 2 has 4 left
    assert hand.street is Street.TURN
    play(hand, "check", "allin")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (3, 4, 14, 14)
    with pytest.raises(IllegalAction):
        hand.check(3, Action.raise_to(10))


# ---------------------------------------------------------------------------------
# Section 5: betting needs an answer, uncalled bets
# ---------------------------------------------------------------------------------
def test_section_5_small_blind_matching_a_short_big_blind_does_not_act_after_fold() -> None:
    """BB all-in for 1, button folds: the SB's 1 already matches and nobody could answer."""
    hand = new_hand([100, 1, 100])
    events = step(hand, "fold")
    assert hand.is_over
    assert not any(isinstance(e, PlayerActed) and e.seat == 1 for e in events)
    assert not any(isinstance(e, BetReturned) for e in events)
    assert [p.amount for p in hand.result.pots] == [2]


def test_section_5_two_all_ins_the_last_player_may_call_but_not_raise() -> None:
    """All-in 30, all-in raise to 50: the big blind calls 48 at most, main 90, side 40."""
    hand = new_hand([50, 100, 30])
    play(hand, "allin", "allin")  # seat 3 to 30, seat 1 to 50
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (2, 48, None)
    events = step(hand, "call")
    assert hand.is_over
    assert [(a.amount, a.eligible) for a in awards(events)] == [(90, (1, 2, 3)), (40, (1, 2))]


def test_section_5_uncalled_part_returned_when_two_short_stacks_call() -> None:
    """Flop bet 60 called all-in for 25 and 40: 20 goes back; pots 81 and 30 (plus blinds)."""
    hand = new_hand([200, 27, 42])  # after the preflop seat 2 has 25, seat 3 has 40
    play(hand, "call", "call", "check")  # pot 6
    events = play(hand, ("bet", 60), "allin", "allin")
    assert BetReturned(1, 20) in events
    assert hand.is_over
    r = hand.result
    assert r.returned == {1: 20}
    # committed: 1: 42, 2: 27, 3: 42 -> main 27 * 3 = 81, side 15 * 2 = 30
    assert [(p.amount, p.eligible) for p in r.pots] == [(81, (1, 2, 3)), (30, (1, 3))]
    assert r.final_stacks[1] + r.final_stacks[2] + r.final_stacks[3] == 269


def test_section_5_raise_over_a_short_big_blind_returned_down_to_what_was_matched() -> None:
    """BB all-in for 1: button raises to 10, SB folds: 9 go back (matched only to 1)."""
    hand = new_hand([100, 1, 100])
    events = play(hand, ("raise", 10), "fold")
    assert BetReturned(3, 9) in events
    assert hand.is_over
    r = hand.result
    # pot: SB 1 (dead) + BB 1 + button 1 = 3
    assert sum(p.amount for p in r.pots) == 3


# ---------------------------------------------------------------------------------
# Section 6: side pots, showdown order, mucking, odd chips, hi-lo
# ---------------------------------------------------------------------------------
def test_section_6_three_pots_with_folded_chips_awarded_separately_and_run_out_shown() -> None:
    """Two all-ins and two folders: pots 82, 90, 20; each to its own best eligible hand."""
    hand = new_hand(
        [100, 100, 20, 50, 100],
        holes={1: "2s3d4c6h", 3: "AsAhKdKh", 4: "QsQhJdJh"},
        board="AdQd7c8s9h",
    )
    # preflop: 3 all-in 20, 4 calls 20, 5 raises to 60, 1 calls 60, 2 folds, 4 calls all-in 50
    play(hand, "allin", "call", ("raise", 60), "call", "fold", "allin")
    assert hand.street is Street.FLOP
    events = play(hand, ("bet", 40), "fold")  # seat 5 folds 60; seat 1's 40 is returned
    assert BetReturned(1, 40) in events
    # committed 1: 60, 2: 2, 3: 20, 4: 50, 5: 60 (folded)
    # main: 20+2+20+20+20 = 82 (1,3,4); side: 30+30+30 = 90 (1,4); last: 10+10 = 20 (1)
    assert [(a.amount, a.eligible) for a in awards(events)] == [
        (82, (1, 3, 4)), (90, (1, 4)), (20, (1,))]
    # run-out: every live hand shown from the first seat after the button
    assert shows(events) == [("show", 1), ("show", 3), ("show", 4)]
    first_shown = next(i for i, e in enumerate(events) if isinstance(e, HandShown))
    turn = next(i for i, e in enumerate(events) if isinstance(e, BoardDealt)
                and e.street is Street.TURN)
    assert first_shown < turn
    # seat 3 (three aces) wins the main pot, seat 4 (three queens) the side pot over
    # seat 1 (ace high: 2-3-4-6 with A-Q-7-8-9 makes no straight), seat 1 the last pot
    assert hand.result.payouts == {1: 20, 2: 0, 3: 82, 4: 90, 5: 0}
    assert hand.result.final_stacks == {1: 60, 2: 98, 3: 82, 4: 90, 5: 40}


def test_section_6_hi_lo_side_pot_quartered_with_its_own_odd_chip() -> None:
    """O8: main 16 (trips high 8, tied lows 4+4); side 27: high 14, tied lows 7 then 6."""
    hand = new_hand(
        [100, 100, 4, 100],
        variant="omaha_hilo",
        holes={1: "As3s9c9d", 2: "Ah3cTdJc", 3: "KhQdJd9s", 4: "QhQs8c8d"},
        board="2c5d7hKcKs",
    )
    play(hand, "allin", "call", "call", "call")  # seat 3 all-in to 4: main 16
    play(hand, ("bet", 9), "call", "call")  # side 27 between 1, 2, 4
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("show", 2), ("show", 3), ("show", 4)]
    assert awards(events) == [
        PotAwarded(0, 16, (1, 2, 3, 4), ((3, 8),), ((1, 4), (2, 4))),
        PotAwarded(1, 27, (1, 2, 4), ((4, 14),), ((1, 7), (2, 6))),
    ]
    assert hand.result.payouts == {1: 11, 2: 10, 3: 8, 4: 14}


def test_section_6_hi_lo_low_only_in_the_all_in_players_pot() -> None:
    """O8: only the all-in player has a low: main halved, the side pot all to its high."""
    hand = new_hand(
        [100, 100, 100, 11],
        variant="omaha_hilo",
        holes={1: "KdKhJcJd", 2: "QdQhTcTd", 3: "9s9hTsTh", 4: "Ah3h6s6d"},
        board="2c5d7hKcQs",
    )
    # preflop: seat 3 raises to 11, seat 4 calls all-in 11, seats 1 and 2 call
    play(hand, ("raise", 11), "allin", "call", "call")
    assert pots(hand) == [(44, (1, 2, 3, 4))]
    play(hand, ("bet", 20), "call", "fold")  # side pot 40 between 1 and 2
    events = check_down(hand)
    assert awards(events) == [
        PotAwarded(0, 44, (1, 2, 4), ((1, 22),), ((4, 22),)),  # seat 3 folded
        PotAwarded(1, 40, (1, 2), ((1, 40),), ()),
    ]


def test_section_6_button_among_tied_winners_gets_the_odd_chip_last() -> None:
    """Pot 5 (SB folded 1) tied by BB and button: 3 to the BB (first after the button), 2."""
    hand = new_hand(
        [100, 100, 100],
        holes={2: "QsKs4d5h", 3: "QhKh4c6d"},
        board="9cTdJh2s3c",
    )
    play(hand, "call", "fold", "check")
    events = check_down(hand)
    assert awards(events) == [PotAwarded(0, 5, (2, 3), ((2, 3), (3, 2)))]


def test_section_6_hand_beaten_in_main_pot_but_winning_side_pot_is_shown() -> None:
    """The all-in player shows the best hand; the next may still win the side pot: shown."""
    hand = new_hand(
        [20, 100, 100],
        holes={1: "AsAhKdKh", 2: "QsQh3c4d", 3: "JsJh5c6d"},
        board="AdQd7c8s2h",
    )
    play(hand, "call", "allin", "call", "call")  # seat 1 (SB) all-in 20: main 60
    play(hand, ("bet", 10), "call")  # flop: side pot 20 between 2 and 3
    play(hand, "check", "check")
    events = play(hand, "check", "check")
    # no river bet: from the first seat after the button (3): 1 (aces), 2 (queens: can
    # still win the side pot), 3 (pair of jacks: beaten in both pots, mucked)
    assert shows(events) == [("show", 1), ("show", 2), ("muck", 3)]
    assert [(a.amount, a.high) for a in awards(events)] == [(60, ((1, 60),)), (20, ((2, 20),))]
    assert hand.result.payouts == {1: 60, 2: 20, 3: 0}


def test_section_6_river_bettor_shows_first_then_clockwise_from_them() -> None:
    """Four players, seat 3 bets the river: order 3, 4, 1, 2; losers after a better hand muck."""
    hand = new_hand(
        [100] * 4,
        holes={1: "2s2h3c4d", 2: "KsKh5c6d", 3: "QsQh8c9d", 4: "JsJh4c5d"},
        board="AdQd7cJc3h",
    )
    play(hand, "call", "call", "call", "check")
    play(hand, "check", "check", "check", "check")
    play(hand, "check", "check", "check", "check")
    events = play(hand, "check", "check", ("bet", 10), "call", "call", "call")
    # seat 3 (three queens) first; then 4 (three jacks), 1 (pair of threes) and
    # 2 (pair of kings) cannot beat it: mucked
    assert shows(events) == [("show", 3), ("muck", 4), ("muck", 1), ("muck", 2)]
    assert hand.result.payouts == {1: 0, 2: 0, 3: 48, 4: 0}


def test_section_6_request_show_reveals_a_losing_hand_in_order() -> None:
    """A player who asked to show is shown at their turn even though the bot would muck."""
    hand = new_hand(
        [100] * 3,
        holes={1: "QsQh8c9d", 2: "KsKh5c6d", 3: "2s2h3c4d"},
        board="AdQd7cJc3h",
    )
    play(hand, "call", "call", "check")
    hand.request_show(3)
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("muck", 2), ("show", 3)]
    assert hand.result.mucked == (2,) and 3 in hand.result.shown


def test_section_6_hi_lo_hand_winning_only_the_side_pot_low_is_shown() -> None:
    """O8: a low worse than the all-in player's (main) but best among the side pot's players."""
    hand = new_hand(
        [20, 100, 100],
        variant="omaha_hilo",
        holes={1: "Ah2h9s9d", 2: "KsKhQcQd", 3: "4c6dJsJh"},
        board="3s5s8hKcTd",
    )
    play(hand, "call", "allin", "call", "call")  # seat 1 (SB) all-in 20: main 60
    play(hand, ("bet", 10), "call")  # side 20 between 2 and 3
    events = check_down(hand)
    # no river bet: 1 (low 8-5-3-2-A) shows first, 2 (three kings) shows; 3's high is
    # beaten and its low 8-6-5-4-3 loses the main low to seat 1 but wins the side low
    assert shows(events) == [("show", 1), ("show", 2), ("show", 3)]
    assert awards(events) == [
        PotAwarded(0, 60, (1, 2, 3), ((2, 30),), ((1, 30),)),
        PotAwarded(1, 20, (2, 3), ((2, 10),), ((3, 10),)),
    ]


# ---------------------------------------------------------------------------------
# Section 4 and 2: dealing, Courchevel, seats
# ---------------------------------------------------------------------------------
def test_section_4_hole_cards_one_at_a_time_from_the_small_blind_with_button_mid_table() -> None:
    """Button on seat 5 of 6 (seats 2..7): the deal goes 6, 7, 2, 3, 4, 5 one card at a time."""
    from bot.engine.cards import DECK, Deck
    from bot.engine.hand import Hand, SeatIn
    from tests.engine.conftest import config

    order = tuple(DECK)
    hand = Hand(config(), [SeatIn(s, 100) for s in (2, 3, 4, 5, 6, 7)], 5, Deck(order=order))
    hand.start()
    assert hand.deal_order == (6, 7, 2, 3, 4, 5)
    assert hand.small_blind_seat == 6 and hand.big_blind_seat == 7
    for k, seat in enumerate((6, 7, 2, 3, 4, 5)):
        assert hand.hole(seat) == tuple(order[k + 6 * r] for r in range(4))
    assert hand.to_act == 2  # left of the big blind


def test_section_4_courchevel_burn_then_face_up_card_then_two_flop_cards_unburned() -> None:
    """Courchevel 3 players: 15 hole cards, burn, face-up card, preflop, 2 flop cards."""
    from bot.engine.cards import DECK, Deck
    from bot.engine.hand import Hand, SeatIn
    from tests.engine.conftest import config

    order = tuple(DECK)
    hand = Hand(config("courchevel", PL), [SeatIn(s, 100) for s in (1, 2, 3)], 3,
                Deck(order=order))
    events = hand.start()
    assert hand.board == (order[16],)  # order[15] burned
    assert any(isinstance(e, CardBurned) and e.street is Street.PREFLOP for e in events)
    la = legal(hand)
    # PL preflop with the card already out: same as Omaha, pot 3 -> max 7
    assert (la.seat, la.max_raise_to) == (3, 7)
    play(hand, "call", "call", "check")
    assert hand.board == (order[16], order[17], order[18])
    play(hand, "check", "check", "check")
    assert hand.board[3] == order[20]  # burn 19
    burns = [e for e in hand.events if isinstance(e, CardBurned)]
    assert [b.street for b in burns] == [Street.PREFLOP, Street.TURN]


@pytest.mark.parametrize(("variant", "seats"), [
    ("omaha", 10), ("omaha_hilo", 10), ("omaha5", 8), ("big_o", 8), ("omaha6", 7),
    ("courchevel", 8), ("courchevel_hilo", 8)])
def test_section_2_max_seats_per_variant_are_dealt(variant: str, seats: int) -> None:
    """A full table of each variant deals every hole card and a full board from one deck."""
    hand = new_hand([100] * seats, variant=variant, structure=PL)
    check_down(hand)
    assert len(hand.board) == 5
    cards = [c for p in hand.players for c in hand.hole(p.seat)] + list(hand.board)
    assert len(set(cards)) == len(cards) == seats * hand.config.variant.hole_cards + 5


def test_section_4_heads_up_postflop_big_blind_acts_first_and_fold_ends() -> None:
    """Heads-up: button first preflop, the big blind first on the flop; a raise folded to."""
    hand = new_hand([100, 100], button=1)  # seat 1 button/SB, seat 2 BB
    assert hand.small_blind_seat == 1 and hand.to_act == 1
    play(hand, "call", "check")
    assert hand.street is Street.FLOP and hand.to_act == 2
    events = play(hand, ("bet", 6), "fold")
    assert hand.is_over and BetReturned(2, 6) in events
    assert hand.result.final_stacks == {1: 98, 2: 102}


# ---------------------------------------------------------------------------------
# More section 3, 5 and 6 corners
# ---------------------------------------------------------------------------------
def test_section_3_newcomer_first_to_act_may_check_pot_limit_counts_both_big_blinds() -> None:
    """PL, newcomer left of the BB: pot 5 (1 + 2 + 2); they may check or raise to 7; next max 9."""
    hand = new_hand([100] * 5, structure=PL, newcomers=[3])
    la = legal(hand)
    # the newcomer's 2 is live: nothing to call; max = 2 + (5 + 0) = 7
    assert (la.seat, la.can_check, la.pot, la.min_raise_to, la.max_raise_to) == (
        3, True, 5, 4, 7)
    step(hand, "check")
    la = legal(hand)
    assert (la.seat, la.to_call, la.max_raise_to) == (4, 2, 2 + 5 + 2)


def test_section_3_newcomer_short_post_does_not_lower_the_bet() -> None:
    """A newcomer all-in for 1 on their big blind: the next player still calls 2."""
    hand = new_hand([100, 100, 100, 1, 100], newcomers=[4])
    post = [e for e in hand.events if isinstance(e, BlindPosted) and e.seat == 4]
    assert post == [BlindPosted(4, 1, "newcomer", True)]
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 2, 4)


def test_section_5_both_blinds_short_all_in_button_call_capped_fold_returns_excess() -> None:
    """Blinds 2-4, SB all-in 1, BB all-in 3: the button calls 3 at most; if it folds, 2 go back."""
    hand = new_hand([1, 3, 100], blinds=(2, 4))
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (3, 3, None)
    events = step(hand, "fold")
    assert BetReturned(2, 2) in events and hand.is_over
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(2, (1, 2))]
    hand = new_hand([1, 3, 100], blinds=(2, 4))
    step(hand, "call")
    # committed 1, 3, 3: main 3 (all), side 4 (BB and button)
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(3, (1, 2, 3)), (4, (2, 3))]


def test_section_5_heads_up_short_small_blind_big_blind_excess_returned() -> None:
    """Heads-up, the button has 1 chip (SB all-in): the BB's unmatched 1 goes back, no action."""
    hand = new_hand([100, 1], button=2)
    assert hand.is_over
    assert BetReturned(1, 1) in hand.events
    assert not any(isinstance(e, PlayerActed) for e in hand.events)
    assert [p.amount for p in hand.result.pots] == [2]


def test_section_5_fixed_limit_heads_up_short_all_in_reraise_call_only() -> None:
    """HU 5-10: button raises to 10, BB all-in to 13: the button may only call 3."""
    hand = new_hand([13, 100], structure=FL, blinds=(2, 5), button=2)
    step(hand, ("raise", 10))
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to, la.max_raise_to) == (1, 5, 13, 13)
    step(hand, "allin")
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (2, 3, None)


def test_section_5_no_limit_raise_reraise_after_short_big_blind_use_full_increments() -> None:
    """BB all-in for 1 of 2: raise to 4 (increment 2), re-raise to 10 (6): next at least 16."""
    hand = new_hand([100, 1, 100, 100])
    play(hand, ("raise", 4))
    assert legal(hand).min_raise_to == 6
    play(hand, ("raise", 10))
    la = legal(hand)
    assert (la.seat, la.to_call, la.min_raise_to) == (1, 9, 16)


def test_section_6_hi_lo_three_chip_side_pot_split_high_two_low_one() -> None:
    """O8 all-in: main 40 (trips high 20, two lows 10+10), side 3: high 2, low 1 to seat 2."""
    hand = new_hand(
        [11, 11, 10, 11],
        variant="omaha_hilo",
        holes={1: "QhQs8c8d", 2: "Ah3cTdJc", 3: "KhQdJd9s", 4: "As3s9c9d"},
        board="2c5d7hKcKs",
    )
    play(hand, "allin", "allin", "allin", "call")
    assert hand.is_over
    r = hand.result
    assert [(p.amount, p.eligible) for p in r.pots] == [(40, (1, 2, 3, 4)), (3, (1, 2, 4))]
    main, side = r.pots
    assert main.high == ((3, 20),) and [x for x in main.low if x[1]] == [(2, 10), (4, 10)]
    # side 3: high half 2 (KK-QQ beats KK-99), low half 1: to seat 2, first after the button
    assert side.high == ((1, 2),) and [x for x in side.low if x[1]] == [(2, 1)]
    assert r.payouts == {1: 2, 2: 11, 3: 20, 4: 10}


def test_section_6_no_river_bet_order_skips_a_folded_first_seat() -> None:
    """No river bet, seat 1 folded: seat 2 shows first, then 3 and 4; a beaten hand mucks."""
    hand = new_hand(
        [100] * 4,
        holes={2: "2s2h3c4d", 3: "KsKh5c6d", 4: "QsQh8c9d"},
        board="AdQd7cJc3h",
    )
    play(hand, "call", "call", "fold", "check")  # 3, 4 call, 1 folds, 2 checks
    events = check_down(hand)
    # 2 (pair of threes) shows first; 3 (pair of kings) beats it: shows; 4 (three queens)
    assert shows(events) == [("show", 2), ("show", 3), ("show", 4)]
    hand = new_hand(
        [100] * 4,
        holes={2: "QsQh8c9d", 3: "KsKh5c6d", 4: "2s2h3c4d"},
        board="AdQd7cJc3h",
    )
    play(hand, "call", "call", "fold", "check")
    events = check_down(hand)
    assert shows(events) == [("show", 2), ("muck", 3), ("muck", 4)]
    assert hand.result.payouts == {1: 0, 2: 7, 3: 0, 4: 0}


def test_section_6_uncontested_winner_after_all_in_raise_folded_to() -> None:
    """All-in raise to 50 everyone folds to: 48 go back, the pot is the blinds plus 2."""
    hand = new_hand([100, 100, 50])
    events = play(hand, "allin", "fold", "fold")
    assert BetReturned(3, 48) in events
    assert not any(isinstance(e, HandShown) for e in events)
    assert hand.result.final_stacks == {1: 99, 2: 98, 3: 53}


# ---------------------------------------------------------------------------------
# Betting needs an answer: players who cannot even match the current bet
# ---------------------------------------------------------------------------------

def test_section_5_no_raise_when_the_only_other_stack_cannot_reach_the_bet() -> None:
    """Flop: all-in bet 50; the only other player left has 30: the next may call, not raise."""
    hand = new_hand([52, 200, 32, 100])
    play(hand, "call", "fold", "call", "check")  # seat 1 has 50, seat 3 has 30
    step(hand, "allin")  # seat 1 bets 50 all-in
    la = legal(hand)
    assert (la.seat, la.to_call) == (2, 50)
    # a raise to 100 could only be answered by seat 3's 30: nobody could call it
    assert la.min_raise_to is None and "nobody" in (la.no_raise_reason or "")
    with pytest.raises(IllegalAction):
        hand.check(2, Action.raise_to(100))


def test_section_5_no_raise_preflop_when_short_blinds_cannot_reach_the_all_in() -> None:
    """UTG all-in to 30; the blinds hold 10 and 20 in all: the button may only call or fold."""
    hand = new_hand([10, 20, 30, 100])
    step(hand, "allin")
    la = legal(hand)
    assert (la.seat, la.to_call) == (4, 30)
    assert la.min_raise_to is None and "nobody" in (la.no_raise_reason or "")



# ---------------------------------------------------------------------------------
# A reference model of RULES.md section 5, compared on random short-stacked hands
# ---------------------------------------------------------------------------------
class _RefBetting:
    """Betting by RULES.md section 5, written from the rule text (positions 0..n-1 from
    the first seat after the button). Mirrors the engine's documented decisions where the
    rules are silent: the call is capped when everyone else is all-in; a newcomer on the
    small blind posts a big blind; a player all-in on the ante posts no blind. A player
    counts as able to answer a raise only when their stack reaches past the current bet."""

    def __init__(self, structure, sb: int, bb: int, ante: int,  # type: ignore[no-untyped-def]
                 stacks: list[int], newcomers: set[int]) -> None:
        n = len(stacks)
        self.n, self.structure, self.bb = n, structure, bb
        self.stack = list(stacks)
        self.bet = [0] * n
        self.committed = [0] * n
        self.folded = [False] * n
        self.returned = [0] * n
        for i in range(n):
            self._put(i, min(ante, self.stack[i]), live=False)
        sbp, bbp = (1, 0) if n == 2 else (0, 1)
        self._put(sbp, min(bb if sbp in newcomers else sb, self.stack[sbp]), live=True)
        self._put(bbp, min(bb, self.stack[bbp]), live=True)
        for i in sorted(newcomers - {sbp, bbp}):
            self._put(i, min(bb, self.stack[i]), live=True)
        self.street = 0
        self.cur, self.inc, self.full_bets = bb, bb, 1
        self.faced: list[int | None] = [None] * n
        self.over = False
        self.to_act: int | None = None
        self._next((bbp + 1) % n)

    def _put(self, i: int, chips: int, *, live: bool) -> None:
        self.stack[i] -= chips
        self.committed[i] += chips
        if live:
            self.bet[i] += chips

    def _all_in(self, i: int) -> bool:
        return not self.folded[i] and self.stack[i] == 0

    def _answerers(self, i: int) -> int:
        return sum(1 for q in range(self.n) if q != i and not self.folded[q]
                   and not self._all_in(q) and self.bet[q] + self.stack[q] > self.cur)

    def _target(self, i: int) -> int:
        if self._answerers(i):
            return self.cur
        # the most any other player in the hand could have in front of them
        top = max((self.bet[q] + self.stack[q]
                   for q in range(self.n) if q != i and not self.folded[q]), default=0)
        return min(self.cur, top)

    def _needs(self, i: int) -> bool:
        if self.folded[i] or self._all_in(i):
            return False
        return self.bet[i] < self._target(i) or (self.faced[i] is None and self._answerers(i) > 0)

    def _next(self, start: int) -> None:
        if sum(not f for f in self.folded) > 1:
            for k in range(self.n):
                i = (start + k) % self.n
                if self._needs(i):
                    self.to_act = i
                    return
        self.to_act = None
        self._end_street()

    def _end_street(self) -> None:
        order = sorted(range(self.n), key=lambda q: self.bet[q], reverse=True)
        top, second = order[0], order[1]
        extra = self.bet[top] - self.bet[second]
        if extra > 0:  # the part of the bet nobody matched goes back
            self.stack[top] += extra
            self.bet[top] -= extra
            self.committed[top] -= extra
            self.returned[top] += extra
        live = [q for q in range(self.n) if not self.folded[q]]
        able = [q for q in live if not self._all_in(q)]
        if len(live) == 1 or len(able) <= 1 or self.street == 3:
            self.over = True
            return
        self.street += 1
        self.bet = [0] * self.n
        self.faced = [None] * self.n
        fixed = self.structure is FL
        self.cur, self.full_bets = 0, 0
        self.inc = 2 * self.bb if fixed and self.street >= 2 else self.bb
        self._next(0)

    def legal(self) -> tuple[bool, int, int | None, int | None]:
        i = self.to_act
        assert i is not None
        target = self._target(i)
        owed = max(0, target - self.bet[i])
        all_in_to = self.bet[i] + self.stack[i]
        can_raise = (self._answerers(i) > 0 and all_in_to > self.cur
                     and (self.faced[i] is None or self.cur - self.faced[i] >= self.inc)
                     and not (self.structure is FL and self.full_bets >= 4))
        if not can_raise:
            return owed == 0, min(owed, self.stack[i]), None, None
        lo = min(self.cur + self.inc, all_in_to)
        if self.structure is FL:
            hi = lo
        elif self.structure is PL:
            pot = sum(self.committed)
            hi = max(lo, min(self.cur + pot + (self.cur - self.bet[i]), all_in_to))
        else:
            hi = all_in_to
        return owed == 0, min(owed, self.stack[i]), lo, hi

    def act(self, kind: str, to: int = 0) -> None:
        i = self.to_act
        assert i is not None
        if kind == "fold":
            self.folded[i] = True
        elif kind == "call":
            target = self._target(i)
            self._put(i, min(max(0, target - self.bet[i]), self.stack[i]), live=True)
            self.faced[i] = self.cur
        else:  # bet or raise to ``to``
            if to - self.cur >= self.inc:
                if self.structure is not FL:
                    self.inc = to - self.cur
                self.full_bets += 1
            self._put(i, to - self.bet[i], live=True)
            self.cur = to
        if kind == "raise":
            self.faced[i] = to
        elif kind == "fold":
            self.faced[i] = self.cur
        self._next(i + 1)


@pytest.mark.parametrize("structure", [NL, PL, FL])
def test_section_5_random_short_stacked_hands_match_the_reference_model(structure) -> None:  # type: ignore[no-untyped-def]
    """Short blinds, short all-ins, antes and newcomers: every decision matches the model."""
    _compare_with_reference(structure)


def _compare_with_reference(structure) -> None:  # type: ignore[no-untyped-def]
    import random

    from bot.engine.cards import Deck
    from bot.engine.hand import Hand, SeatIn
    from tests.engine.conftest import config

    rng = random.Random({NL: 11, PL: 22, FL: 33}[structure])
    for _ in range(400):
        n = rng.randint(2, 6)
        bb = rng.choice([2, 4, 10])
        sb = bb // 2 if structure is FL else rng.randint(1, bb)
        ante = rng.choice([0, 0, 1, bb // 2])
        stacks = [rng.choice([rng.randint(1, 3 * bb), rng.randint(1, 12 * bb)])
                  for _ in range(n)]
        newcomer_flags = [rng.random() < 0.1 for _ in range(n)]
        seats = list(range(1, n + 1))
        button = rng.choice(seats)
        ins = [SeatIn(s, st, nc) for s, st, nc in zip(seats, stacks, newcomer_flags, strict=True)]
        hand = Hand(config("omaha", structure, (sb, bb), ante), ins, button,
                    Deck(rng=random.Random(rng.random())))
        hand.start()
        order = list(hand.seat_order)  # positions: first after the button .. button
        pos_stacks = [stacks[s - 1] for s in order]
        bbp = 0 if n == 2 else 1
        newcomers = {k for k, s in enumerate(order) if newcomer_flags[s - 1] and k != bbp}
        ref = _RefBetting(structure, sb, bb, ante, pos_stacks, newcomers)
        while not hand.is_over:
            assert ref.to_act is not None and order[ref.to_act] == hand.to_act
            la = legal(hand)
            assert (la.can_check, la.to_call, la.min_raise_to, la.max_raise_to) == ref.legal()
            r = rng.random()
            if la.min_raise_to is not None and la.max_raise_to is not None and r < 0.45:
                to = rng.choice([la.min_raise_to, la.max_raise_to, la.all_in_to,
                                 rng.randint(la.min_raise_to, la.max_raise_to)])
                to = min(max(to, la.min_raise_to), la.max_raise_to)
                step(hand, ("raise", to))
                ref.act("raise", to)
            elif r < 0.9 or la.can_check:
                step(hand, "call")
                ref.act("call")
            else:
                step(hand, "fold")
                ref.act("fold")
        assert ref.over
        committed = {s: p.committed for s, p in zip(order, hand.players, strict=True)}
        assert committed == {s: ref.committed[k] for k, s in enumerate(order)}
        assert hand.result.returned == {s: ref.returned[k] for k, s in enumerate(order)
                                        if ref.returned[k]}


# ---------------------------------------------------------------------------------
# A reference model of RULES.md section 6 (pots, showdown order, mucking, splits)
# ---------------------------------------------------------------------------------
def _ref_showdown(hand, hi_lo: bool, requested: frozenset[int] = frozenset()):  # type: ignore[no-untyped-def]
    """Expected (show/muck sequence, awards) of a finished hand, from RULES.md section 6.

    Uses only the hand's public record: seats in order from the first after the button,
    each seat's chips put in, who folded, the cards, and who bet or raised on the river.
    Awards are (amount, eligible seats, high (seat, chips), low (seat, chips)) without
    zero-chip entries.
    """
    from bot.engine.evaluate import high_value, low_value

    order = list(hand.seat_order)
    n = len(order)
    r = hand.result
    ps = {p.seat: p for p in hand.players}
    put = {s: ps[s].committed for s in order}
    live = [s for s in order if not ps[s].folded]
    all_in = {s for s in live if put[s] == r.starting_stacks[s]}
    board = r.board
    # pots: cut at the all-in amounts of the live players, then the top live amount
    caps = sorted({put[s] for s in all_in} | {max(put[s] for s in live)})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for cap in caps:
        amount = sum(min(put[s], cap) - min(put[s], prev) for s in order)
        if amount:
            pots.append((amount, [s for s in live if put[s] >= cap]))
        prev = cap
    leftover = sum(put.values()) - sum(a for a, _ in pots)
    if leftover:  # folded chips above every live player's: into the last pot
        pots[-1] = (pots[-1][0] + leftover, pots[-1][1])
    hi = {s: high_value(hand.hole(s), board, HandRule.OMAHA) for s in live}
    lo = {s: low_value(hand.hole(s), board) if hi_lo else None for s in live}
    # showdown order
    river_aggr = [e.seat for e in hand.events if isinstance(e, PlayerActed)
                  and e.street is Street.RIVER and e.kind in (ActionKind.BET, ActionKind.RAISE)]
    able = [s for s in live if s not in all_in]
    runout = len(able) <= 1
    first = river_aggr[-1] if river_aggr else live[0]
    k0 = order.index(first)
    sd = [order[(k0 + k) % n] for k in range(n) if order[(k0 + k) % n] in live]
    seq: list[tuple[str, int]] = []
    shown: list[int] = []
    for s in sd:
        mine = [eligible for _, eligible in pots if s in eligible]
        can = runout or s in requested
        for eligible in mine:
            rivals = [t for t in shown if t in eligible]
            if not rivals or hi[s] >= max(hi[t] for t in rivals):
                can = True
            lows = [lo[t] for t in rivals if lo[t] is not None]
            if lo[s] is not None and (not lows or lo[s] >= max(lows)):  # type: ignore[operator]
                can = True
        seq.append(("show" if can else "muck", s))
        if can:
            shown.append(s)

    def split(amount: int, winners: list[int]) -> tuple[tuple[int, int], ...]:
        winners = sorted(winners, key=order.index)  # clockwise from the first after the button
        share, odd = divmod(amount, len(winners))
        return tuple((w, share + (1 if k < odd else 0)) for k, w in enumerate(winners)
                     if share + (1 if k < odd else 0))

    out = []
    for amount, eligible in pots:
        contenders = [s for s in eligible if s in shown]
        top = max(hi[s] for s in contenders)
        high_w = [s for s in contenders if hi[s] == top]
        lows = [s for s in contenders if lo[s] is not None]
        if lows:
            best = max(lo[s] for s in lows)  # type: ignore[type-var]
            low_w = [s for s in lows if lo[s] == best]
            low_half = amount // 2
            out.append((amount, tuple(eligible), split(amount - low_half, high_w),
                        split(low_half, low_w)))
        else:
            out.append((amount, tuple(eligible), split(amount, high_w), ()))
    return seq, out


@pytest.mark.parametrize("variant", ["omaha", "omaha_hilo", "big_o", "courchevel_hilo"])
def test_section_6_random_showdowns_match_the_reference_model(variant: str) -> None:
    """Random multiway hands, short stacks, show requests: show order, mucks, every pot."""
    import random

    from bot.engine.cards import Deck
    from bot.engine.hand import VARIANTS, Hand, SeatIn
    from tests.engine.conftest import config

    rng = random.Random(hash(variant) % 1000)
    hi_lo = VARIANTS[variant].hi_lo
    compared = mucks = 0
    for _ in range(250):
        n = rng.randint(2, VARIANTS[variant].max_seats)
        structure = rng.choice([NL, PL, FL])
        bb = rng.choice([2, 4])
        ante = rng.choice([0, 1])
        stacks = [rng.choice([rng.randint(1, 6 * bb), rng.randint(20, 200)]) for _ in range(n)]
        seats = rng.sample(range(1, 11), n)
        hand = Hand(config(variant, structure, (bb // 2, bb), ante),
                    [SeatIn(s, st) for s, st in zip(seats, stacks, strict=True)],
                    rng.choice(seats), Deck(rng=random.Random(rng.random())))
        hand.start()
        requested: set[int] = set()
        while not hand.is_over:
            la = legal(hand)
            r = rng.random()
            if rng.random() < 0.03:  # the owner asks to show whatever happens
                hand.request_show(la.seat)
                requested.add(la.seat)
            if la.min_raise_to is not None and la.max_raise_to is not None and r < 0.2:
                step(hand, ("raise", rng.choice([la.min_raise_to, la.max_raise_to])))
            elif r < 0.93 or la.can_check:
                step(hand, "call")
            else:
                step(hand, "fold")
        if any(p.uncontested for p in hand.result.pots):
            continue
        seq, want = _ref_showdown(hand, hi_lo, frozenset(requested))
        assert shows(hand.events) == seq
        got = [(a.amount, a.eligible, tuple(x for x in a.high if x[1]),
                tuple(x for x in a.low if x[1])) for a in awards(hand.events)]
        assert got == want
        # a mucked hand is never revealed: none of its cards in any public event
        for kind, seat in seq:
            if kind == "muck":
                mucks += 1
                secret = set(hand.hole(seat))
                for e in hand.events:
                    if not e.is_private:
                        assert not secret & set(getattr(e, "cards", ()))
        compared += 1
    assert compared > 150 and mucks > 20


@pytest.mark.parametrize("variant", ["omaha", "omaha5", "omaha6", "courchevel", "big_o"])
def test_section_4_random_deals_take_cards_from_the_deck_in_rule_order(variant: str) -> None:
    """Hole cards one at a time from the SB (heads-up the button), then burn-flop-burn-turn-
    burn-river; Courchevel: burn, face-up card, two flop cards: the same deck positions."""
    import random

    from bot.engine.cards import DECK, Deck
    from bot.engine.hand import VARIANTS, Hand, SeatIn
    from tests.engine.conftest import config

    rng = random.Random(len(variant))
    v = VARIANTS[variant]
    for _ in range(40):
        n = rng.randint(2, v.max_seats)
        seats = sorted(rng.sample(range(1, 11), n))
        button = rng.choice(seats)
        order = list(DECK)
        rng.shuffle(order)
        hand = Hand(config(variant, PL), [SeatIn(s, 100) for s in seats], button,
                    Deck(order=order))
        hand.start()
        after = seats[seats.index(button) + 1:] + seats[:seats.index(button) + 1]
        deal = [after[-1], after[0]] if n == 2 else after  # from the small blind
        h = v.hole_cards
        for k, seat in enumerate(deal):
            assert hand.hole(seat) == tuple(order[k + n * r] for r in range(h))
        base = n * h
        if v.courchevel:
            assert hand.board == (order[base + 1],)
        check_down(hand)
        assert hand.board == tuple(order[base + i] for i in (1, 2, 3, 5, 7))


def test_section_5_fixed_limit_reopening_short_all_ins_do_not_count_toward_the_cap() -> None:
    """5-10 flop: bet 5, all-in 7, all-in 10 (neither a full raise): raises to 15, 20, 25 follow."""
    hand = new_hand([100, 12, 15, 100, 100], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "call", "call", "check")  # seat 2 keeps 7, seat 3 keeps 10
    play(hand, ("bet", 5), "allin", "allin")  # bet 1; the all-ins count for nothing
    play(hand, ("raise", 15), ("raise", 20), ("raise", 25))  # seats 4, 5, 1: bets 2, 3, 4
    la = legal(hand)
    assert la.seat == 4 and la.to_call == 10 and la.min_raise_to is None
    assert "capped" in (la.no_raise_reason or "")
