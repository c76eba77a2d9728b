"""Betting structures, incomplete raises, answers and uncalled bets (RULES.md section 5)."""

from __future__ import annotations

import pytest

from bot.engine.events import BetReturned, PlayerActed, Street
from bot.engine.hand import Action, ActionKind, IllegalAction
from tests.engine.conftest import FL, PL, check_down, new_hand, play, step


def legal(hand):  # type: ignore[no-untyped-def]
    la = hand.legal_actions()
    assert la is not None
    return la


# -- no limit -----------------------------------------------------------------------
def test_section_5_no_limit_minimum_reraise_2_8_14_seed_example() -> None:
    """Blinds 1-2, raise to 8: the next raise is to at least 14 (seed 001)."""
    hand = new_hand([200] * 4)
    assert legal(hand).min_raise_to == 4
    step(hand, ("raise", 8))
    la = legal(hand)
    assert la.min_raise_to == 14 and la.max_raise_to == 200
    with pytest.raises(IllegalAction, match="the minimum raise is to 14"):
        hand.check(hand.to_act, Action.raise_to(13))
    hand.check(hand.to_act, Action.raise_to(14))


def test_section_5_no_limit_minimum_bet_is_the_big_blind() -> None:
    """Postflop the smallest bet is one big blind; the largest is the stack."""
    hand = new_hand([100, 100, 100], blinds=(5, 10))
    play(hand, "call", "call", "check")
    la = legal(hand)
    assert la.is_bet and la.min_raise_to == 10 and la.max_raise_to == 90
    with pytest.raises(IllegalAction, match="the minimum bet is 10"):
        hand.check(hand.to_act, Action.bet(9))
    with pytest.raises(IllegalAction, match="the most you can bet is 90"):
        hand.check(hand.to_act, Action.bet(91))


def test_section_5_after_all_in_bet_of_1_minimum_raise_is_to_3() -> None:
    """Blinds 1-2: an all-in bet of 1 is incomplete; the next player may raise to 3."""
    hand = new_hand([50, 50, 3], seats=[1, 2, 3])
    play(hand, "call", "call", "check")  # seat 3 has 1 chip left
    assert hand.street is Street.FLOP
    step(hand, "check")   # seat 1
    step(hand, "check")   # seat 2
    assert hand.to_act == 3
    la = legal(hand)
    assert la.is_bet and la.min_raise_to == 1 == la.max_raise_to == la.all_in_to
    step(hand, "allin")
    # seats 1 and 2 checked: the incomplete bet does not reopen for them
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 1 and la.min_raise_to is None


def test_section_5_all_in_bet_of_1_lets_unacted_players_raise_to_3() -> None:
    """Blinds 1-2: after an all-in bet of 1 a player who has not acted may raise to 3."""
    hand = new_hand([3, 50, 50], seats=[1, 2, 3])
    play(hand, "call", "call", "check")  # seat 1 has 1 chip left
    assert hand.to_act == 1
    events = step(hand, "allin")
    assert events[0] == PlayerActed(1, Street.FLOP, ActionKind.BET, 1, 1, True)
    la = legal(hand)
    assert la.seat == 2 and la.min_raise_to == 3 and la.to_call == 1


def test_section_5_all_in_for_less_is_always_allowed() -> None:
    """A player may go all-in for less than the minimum bet or raise."""
    hand = new_hand([100, 100, 3])
    la = legal(hand)
    assert la.seat == 3 and la.min_raise_to == 3 == la.max_raise_to
    events = step(hand, ("raise", 3))
    assert events[0].kind is ActionKind.RAISE and events[0].all_in


# -- pot limit ----------------------------------------------------------------------
def test_section_5_pot_limit_first_to_act_may_raise_to_7_with_blinds_1_2() -> None:
    """Pot 3, call 2 makes 5, so the pot raise is to 7."""
    hand = new_hand([100] * 3, structure=PL)
    la = legal(hand)
    assert la.min_raise_to == 4 and la.max_raise_to == 7
    with pytest.raises(IllegalAction, match="the most you can raise to is 7"):
        hand.check(hand.to_act, Action.raise_to(8))


def test_section_5_pot_limit_pot_20_facing_5_max_raise_to_30() -> None:
    """Pot 20 facing a bet of 5 (pot includes it): the maximum is a raise to 30 (seed 003)."""
    hand = new_hand([100] * 3, structure=PL)
    play(hand, ("raise", 5), "call", "call")  # pot 15
    assert hand.street is Street.FLOP and hand.pot_total == 15
    step(hand, ("bet", 5))
    la = legal(hand)
    assert la.pot == 20 and la.to_call == 5 and la.max_raise_to == 30 and la.min_raise_to == 10


def test_section_5_pot_limit_max_capped_by_stack() -> None:
    """The pot-limit maximum never exceeds what the player has."""
    hand = new_hand([100, 100, 6], structure=PL)
    la = legal(hand)
    assert la.max_raise_to == 6 == la.all_in_to


def test_section_5_pot_limit_antes_count_in_the_pot() -> None:
    """Antes count in the pot-limit maximum: blinds 1-2, ante 1, three players: pot 6, max 10."""
    hand = new_hand([100] * 3, structure=PL, ante=1)
    la = legal(hand)
    assert la.pot == 6 and la.to_call == 2 and la.max_raise_to == 2 + 6 + 2


# -- fixed limit ---------------------------------------------------------------------
def test_section_5_fixed_limit_5_10_capped_at_20_preflop_and_flop_40_turn_river() -> None:
    """5-10: bets of 5 up to 20 preflop and on the flop, of 10 up to 40 on turn and river."""
    hand = new_hand([500] * 4, structure=FL, blinds=(2, 5))
    la = legal(hand)
    assert la.min_raise_to == la.max_raise_to == 10  # the big blind is the first bet
    with pytest.raises(IllegalAction, match="the minimum raise is to 10"):
        hand.check(hand.to_act, Action.raise_to(9))
    with pytest.raises(IllegalAction, match="the most you can raise to is 10"):
        hand.check(hand.to_act, Action.raise_to(15))
    play(hand, ("raise", 10), ("raise", 15), ("raise", 20))
    la = legal(hand)
    assert la.min_raise_to is None and "capped" in (la.no_raise_reason or "")
    play(hand, "call", "call", "call")
    assert hand.street is Street.FLOP
    play(hand, ("bet", 5), ("raise", 10), ("raise", 15), ("raise", 20))
    assert legal(hand).min_raise_to is None
    play(hand, "call", "call", "call")
    assert hand.street is Street.TURN
    assert legal(hand).min_raise_to == 10
    play(hand, ("bet", 10), ("raise", 20), ("raise", 30), ("raise", 40))
    assert legal(hand).min_raise_to is None
    play(hand, "call", "call", "call")
    assert hand.street is Street.RIVER
    play(hand, ("bet", 10), ("raise", 20), ("raise", 30), ("raise", 40))
    assert legal(hand).min_raise_to is None
    play(hand, "call", "call", "call")
    assert hand.is_over


def test_section_5_fixed_limit_cap_holds_heads_up() -> None:
    """Heads-up the cap is also 4 bets, the big blind counting as the first."""
    hand = new_hand([500, 500], structure=FL, blinds=(2, 5))
    assert hand.to_act == 2  # the button, small blind
    play(hand, ("raise", 10), ("raise", 15), ("raise", 20))
    la = legal(hand)
    assert la.seat == 1 and la.min_raise_to is None and la.to_call == 5
    play(hand, "call")
    assert hand.street is Street.FLOP
    play(hand, "check", ("bet", 5), ("raise", 10), ("raise", 15), ("raise", 20))
    assert legal(hand).min_raise_to is None


def test_section_5_fixed_limit_short_all_in_does_not_count_next_raise_full_bet_above() -> None:
    """Bet 5, all-in to 7: the next raise is to 12 and the short all-in does not count."""
    hand = new_hand([100, 100, 100, 12], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "call", "check")  # seat 4 has 7 left
    assert hand.street is Street.FLOP
    play(hand, ("bet", 5), "call", "call")
    assert hand.to_act == 4
    la = legal(hand)
    assert la.min_raise_to == la.max_raise_to == 7
    step(hand, "allin")
    la = legal(hand)
    # seat 1 bet 5 and faces 7: incomplete, cannot raise
    assert la.seat == 1 and la.to_call == 2 and la.min_raise_to is None
    hand2 = new_hand([100, 100, 100, 8], structure=FL, blinds=(2, 5))
    play(hand2, "call", "call", "call", "check")
    play(hand2, "check", "check", "check", "allin")  # seat 4 bets 3 all-in: incomplete bet
    la = legal(hand2)
    assert la.seat == 1 and la.to_call == 3 and la.min_raise_to is None  # checked: not reopened
    with pytest.raises(IllegalAction, match="did not reopen"):
        hand2.check(1, Action.raise_to(8))
    hand3 = new_hand([100, 100, 100, 100, 12], structure=FL, blinds=(2, 5))
    play(hand3, "call", "call", "call", "call", "check")
    play(hand3, "check", "check", "check", ("bet", 5), "allin")  # 4 bets 5, 5 all-in to 7
    # the checkers faced a full bet since they acted: they may raise, to 7 + 5
    la = legal(hand3)
    assert la.seat == 1 and la.to_call == 7 and la.min_raise_to == la.max_raise_to == 12
    play(hand3, "call", "call", "call")
    la = legal(hand3)
    assert la.seat == 4 and la.to_call == 2 and la.min_raise_to is None  # the bettor may not


def test_section_5_fixed_limit_short_all_in_next_raise_to_12_for_unacted_player() -> None:
    """Bet 5, all-in to 7: a player yet to act raises to exactly 12."""
    hand = new_hand([100, 100, 12, 100], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "call", "check")  # seat 3 has 7 left
    play(hand, ("bet", 5), "call", "allin")
    la = legal(hand)
    assert la.seat == 4 and la.min_raise_to == la.max_raise_to == 12
    play(hand, ("raise", 12), ("raise", 17), ("raise", 22))  # bets: 5, 12, 17, 22 = 4
    la = legal(hand)
    assert la.min_raise_to is None and la.to_call == 22 - 12


# -- incomplete raises --------------------------------------------------------------
def test_section_5_short_all_in_raise_does_not_reopen_seed_example() -> None:
    """Bet 10, call, all-in to 15: the bettor and the caller may only call or fold."""
    hand = new_hand([100, 100, 100, 17], blinds=(1, 2))
    play(hand, "call", "call", "call", "check")  # seat 4 has 15 left
    play(hand, ("bet", 10), "call", "fold", "allin")
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 5 and la.min_raise_to is None
    with pytest.raises(IllegalAction, match="did not reopen"):
        hand.check(1, Action.raise_to(25))
    with pytest.raises(IllegalAction, match="did not reopen"):
        hand.check(1, Action.all_in())
    play(hand, "call")
    assert legal(hand).min_raise_to is None
    play(hand, "call")
    assert hand.street is Street.TURN


def test_section_5_short_all_ins_adding_up_to_full_raise_reopen() -> None:
    """Bet 10, all-in to 15, all-in to 20: the first bettor may raise again."""
    hand = new_hand([100, 17, 22, 100], blinds=(1, 2))
    play(hand, "call", "call", "call", "check")
    play(hand, ("bet", 10), "allin", "allin")  # seats 2 (to 15), 3 (to 20)
    la = legal(hand)
    assert la.seat == 4 and la.min_raise_to == 30  # not acted yet: raises as usual
    play(hand, "call")
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 10 and la.min_raise_to == 30


def test_section_5_check_is_an_action_incomplete_bet_does_not_reopen() -> None:
    """Blinds 2-4: after a check, an all-in bet of 3 lets only the unacted raise (to 7)."""
    hand = new_hand([100, 7, 100], blinds=(2, 4))
    play(hand, "call", "call", "check")  # seat 2 has 3 left
    play(hand, "check", "allin")  # seat 1 checks, seat 2 bets 3 all-in: incomplete
    la = legal(hand)
    assert la.seat == 3 and la.to_call == 3 and la.min_raise_to == 7
    play(hand, "call")
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 3 and la.min_raise_to is None
    with pytest.raises(IllegalAction, match="you cannot raise"):
        hand.check(1, Action.raise_to(7))


def test_section_5_short_big_blind_all_in_does_not_lower_the_bet() -> None:
    """A big blind all-in for 1 of 2: others call 2 and the minimum raise is to 4."""
    hand = new_hand([100, 1, 100], blinds=(1, 2))
    la = legal(hand)
    assert la.seat == 3 and la.to_call == 2 and la.min_raise_to == 4 and la.current_bet == 2


# -- betting needs an answer ------------------------------------------------------
def test_section_5_no_raise_when_nobody_could_answer() -> None:
    """When every other player is all-in the last one may only call or fold."""
    hand = new_hand([100, 100, 30], blinds=(1, 2))
    play(hand, "allin", "fold")  # seat 3 all-in 30, seat 1 folds
    la = legal(hand)
    assert la.seat == 2 and la.to_call == 28 and la.min_raise_to is None
    assert "nobody" in (la.no_raise_reason or "")
    with pytest.raises(IllegalAction, match="nobody left"):
        hand.check(2, Action.raise_to(60))


def test_section_5_player_with_nothing_to_call_and_no_answer_does_not_act() -> None:
    """The big blind, with nothing to call and everyone else all-in, does not act."""
    hand = new_hand([2, 100, 2], blinds=(1, 2))
    play(hand, "allin", "allin")  # seat 3 calls all-in 2, seat 1 all-in for 2
    assert hand.is_over
    assert not any(isinstance(e, PlayerActed) and e.seat == 2 for e in hand.events)


def test_section_5_call_capped_by_all_in_opponents() -> None:
    """Heads-up against a big blind all-in for less, the button only needs to match it."""
    hand = new_hand([3, 100], blinds=(2, 4), button=2)  # seat 1 big blind all-in for 3
    la = legal(hand)
    assert la.seat == 2 and la.to_call == 1 and la.min_raise_to is None
    events = step(hand, "call")
    assert hand.is_over and not any(isinstance(e, BetReturned) for e in events)


def test_section_5_fold_when_check_is_possible_is_allowed() -> None:
    """A player may fold even when checking costs nothing."""
    hand = new_hand([100] * 3)
    play(hand, "call", "call")
    la = legal(hand)
    assert la.seat == 2 and la.can_check
    events = step(hand, "fold")
    assert events[0].kind is ActionKind.FOLD and hand.street is Street.FLOP


def test_section_5_uncalled_bet_is_returned() -> None:
    """The part of a bet nobody matched goes back to its owner."""
    hand = new_hand([100, 30, 100])
    events = play(hand, ("raise", 90), "fold", "allin")  # BB all-in for 30 in total
    returned = [e for e in events if isinstance(e, BetReturned)]
    assert returned == [BetReturned(3, 60)]
    assert hand.is_over
    r = hand.result
    assert r.returned == {3: 60}
    assert sum(r.final_stacks.values()) == 230


def test_section_5_uncalled_bet_returned_when_all_fold() -> None:
    """A raise everyone folds to: the unmatched part returns, the winner takes the blinds."""
    hand = new_hand([100] * 3)
    events = play(hand, ("raise", 10), "fold", "fold")
    assert BetReturned(3, 8) in events
    assert hand.result.final_stacks == {1: 99, 2: 98, 3: 103}


# -- illegal actions ---------------------------------------------------------------
def test_section_5_illegal_actions_have_readable_reasons_and_change_nothing() -> None:
    """Wrong seat, check facing a bet, out-of-range amounts: refused with a reason."""
    hand = new_hand([100, 100, 42])
    before = hand.events
    with pytest.raises(IllegalAction, match="it is not your turn"):
        hand.check(1, Action.call())
    with pytest.raises(IllegalAction, match="you cannot check: 2 to call"):
        hand.act(3, Action.check())
    with pytest.raises(IllegalAction, match="the most you can raise to is 42"):
        hand.act(3, Action.raise_to(43))
    with pytest.raises(IllegalAction, match="you are not in this hand"):
        hand.act(9, Action.fold())
    with pytest.raises(IllegalAction, match="whole number"):
        hand.act(3, Action(ActionKind.RAISE, None))
    assert hand.events == before and hand.to_act == 3
    check_down(hand)
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.act(3, Action.fold())


def test_section_5_no_limit_largest_increment_sets_the_minimum() -> None:
    """Raise to 8 (increment 6), re-raise to 20 (12): the next raise is to at least 32."""
    hand = new_hand([500] * 4)
    play(hand, ("raise", 8), ("raise", 20))
    la = legal(hand)
    assert la.min_raise_to == 32
    play(hand, "allin")  # seat 1 all-in to 500
    la = legal(hand)
    assert la.seat == 2 and la.min_raise_to is None and la.to_call == 498


def test_section_5_fixed_limit_turn_short_all_in_next_raise_one_big_bet_above() -> None:
    """Turn, 5-10 game: bet 10, all-in to 14, the next raise is to 24."""
    hand = new_hand([100, 100, 19], structure=FL, blinds=(2, 5))
    play(hand, "call", "call", "check")
    play(hand, "check", "check", "check")
    assert hand.street is Street.TURN
    play(hand, ("bet", 10))
    la = legal(hand)
    assert la.seat == 2 and la.min_raise_to == la.max_raise_to == 20
    play(hand, "call", "allin")  # seat 3 all-in to 14
    la = legal(hand)
    assert la.seat == 1 and la.to_call == 4 and la.min_raise_to is None  # bettor: not reopened
    hand2 = new_hand([100, 19, 100], structure=FL, blinds=(2, 5))
    play(hand2, "call", "call", "check", "check", "check", "check")
    play(hand2, ("bet", 10), "allin")
    la = legal(hand2)
    assert la.seat == 3 and la.to_call == 14 and la.min_raise_to == la.max_raise_to == 24


def test_section_5_pot_limit_reraise_maximum_counts_the_callers_own_bet() -> None:
    """Blinds 1-2, raise to 7: the big blind (2 in) may re-raise to 7 + (10 + 5) = 22."""
    hand = new_hand([100] * 3, structure=PL)
    play(hand, ("raise", 7), "fold")
    la = legal(hand)
    assert la.seat == 2 and la.pot == 10 and la.to_call == 5
    assert la.min_raise_to == 12 and la.max_raise_to == 22


def test_section_5_heads_up_no_limit_preflop_ranges() -> None:
    """Heads-up blinds 1-2: the button calls 1 or raises to 4..stack."""
    hand = new_hand([80, 60], button=2)
    la = legal(hand)
    assert la.seat == 2 and la.to_call == 1 and la.min_raise_to == 4 and la.max_raise_to == 60


def test_section_5_can_raise_to_answers_without_acting() -> None:
    """can_raise_to is the yes/no form of the raise check and changes nothing."""
    hand = new_hand([100, 100, 30], structure=PL)
    assert hand.can_raise_to(3, 7) and hand.can_raise_to(3, 4)
    assert not hand.can_raise_to(3, 8) and not hand.can_raise_to(3, 3)
    assert not hand.can_raise_to(1, 4)  # not their turn
    assert hand.to_act == 3 and len(hand.actions) == 0
    la = legal(hand)
    assert la.can_call and la.can_raise and not la.call_is_all_in


def test_section_5_short_call_is_an_all_in_call() -> None:
    """Facing more than their stack, a player calls all-in for less and cannot raise."""
    hand = new_hand([100, 100, 30])
    play(hand, "call", ("raise", 50))
    play(hand, "call")
    la = legal(hand)
    assert la.seat == 3 and la.to_call == 28 and la.call_is_all_in and la.min_raise_to is None
    assert la.no_raise_reason == "you do not have enough chips to raise"
    events = step(hand, "allin")
    assert events[0] == PlayerActed(3, Street.PREFLOP, ActionKind.CALL, 28, 30, True)
