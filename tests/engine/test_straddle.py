"""The straddle (RULES.md 10, bot/engine/straddle.py): RULES.md's examples, scripted.

Seats default to 1..n with the button on the last one: seat 1 the small blind,
seat 2 the big blind, seat 3 under the gun.
"""

from __future__ import annotations

import pytest

from bot.engine import phh
from bot.engine.events import BetReturned, BlindPosted, Street
from bot.engine.hand import Action, Hand, IllegalAction, SeatIn
from bot.engine.straddle import straddle_amount, straddler
from tests.engine.conftest import FL, NL, PL, check_down, config, new_hand, play


def posted(hand: Hand) -> list[tuple[int, int, str]]:
    return [(e.seat, e.amount, e.blind) for e in hand.events if isinstance(e, BlindPosted)]


def test_the_player_under_the_gun_posts_twice_the_big_blind_live() -> None:
    hand = new_hand([200] * 5, straddlers=[3])
    assert posted(hand) == [(1, 1, "small"), (2, 2, "big"), (3, 4, "straddle")]
    assert hand.straddle_seat == 3
    assert hand.player(3).bet == 4 and hand.pot_total == 7
    assert hand.to_act == 4  # left of the straddler
    legal = hand.legal_actions()
    assert legal is not None and (legal.current_bet, legal.to_call) == (4, 4)


def test_no_limit_minimum_raise_is_to_8() -> None:
    """Blinds 1-2, straddle 4: the minimum raise is to 8; a raise to 7 is refused."""
    hand = new_hand([200] * 4, straddlers=[3])
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (8, 200)
    with pytest.raises(IllegalAction, match="minimum raise is to 8"):
        hand.check(4, Action.raise_to(7))
    play(hand, ("raise", 8))
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == 12  # the raise was 4 more


def test_pot_limit_maximum_is_to_15() -> None:
    """Pot limit: pot 7, call 4 makes 11, the maximum is a raise to 15."""
    hand = new_hand([200] * 4, structure=PL, straddlers=[3])
    legal = hand.legal_actions()
    assert legal is not None and (legal.pot, legal.min_raise_to, legal.max_raise_to) == (7, 8, 15)
    play(hand, ("raise", 15))
    assert hand.to_act == 1


def test_the_straddler_acts_last_and_may_raise_when_nobody_raised() -> None:
    hand = new_hand([200] * 4, straddlers=[3])
    play(hand, "call", "call", "call")  # seat 4, the small blind, the big blind
    assert hand.to_act == 3 and hand.street is Street.PREFLOP
    legal = hand.legal_actions()
    assert legal is not None and legal.can_check and legal.min_raise_to == 8
    play(hand, ("raise", 8))
    assert hand.to_act == 4  # everyone answers the straddler's raise
    play(hand, "call", "call", "call")
    assert hand.street is Street.FLOP and hand.to_act == 1  # after the flop: as usual
    assert hand.pot_total == 32


def test_the_straddler_checks_the_option_and_the_flop_comes() -> None:
    hand = new_hand([200] * 3, straddlers=[3])  # 3 players: the button straddles
    assert hand.straddle_seat == 3 and hand.to_act == 1
    play(hand, "call", "call", "check")
    assert hand.street is Street.FLOP and hand.pot_total == 12


def test_a_straddle_nobody_calls_comes_back_in_the_part_unmatched() -> None:
    hand = new_hand([200] * 4, straddlers=[3])
    play(hand, "fold", "fold", "fold")
    assert hand.is_over
    back = [(e.seat, e.amount) for e in hand.events if isinstance(e, BetReturned)]
    assert back == [(3, 2)]
    assert hand.result.final_stacks[3] == 203


def test_a_short_stack_cannot_straddle() -> None:
    """Under the gun with 3 chips (or 4 with an ante of 1): no straddle; 4 covers it."""
    assert new_hand([200, 200, 3, 200], straddlers=[3]).straddle_seat is None
    assert new_hand([200, 200, 4, 200], straddlers=[3], ante=1).straddle_seat is None
    covered = new_hand([200, 200, 4, 200], straddlers=[3])
    assert covered.straddle_seat == 3 and covered.player(3).all_in
    short = new_hand([200, 200, 3, 200], straddlers=[3])
    assert posted(short) == [(1, 1, "small"), (2, 2, "big")] and short.to_act == 3


@pytest.mark.parametrize("players", [2, 3])
def test_heads_up_has_no_straddle(players: int) -> None:
    """Two players dealt in: no straddle, whoever chose one; three: the button straddles."""
    hand = new_hand([200] * players, straddlers=range(1, players + 1))
    assert (hand.straddle_seat is not None) == (players == 3)
    assert all(blind != "straddle" for _, _, blind in posted(hand)) == (players == 2)


def test_only_the_seat_under_the_gun_straddles() -> None:
    hand = new_hand([200] * 5, straddlers=[1, 2, 4, 5])
    assert hand.straddle_seat is None
    assert [b for _, _, b in posted(hand)] == ["small", "big"]


def test_fixed_limit_has_no_straddle() -> None:
    hand = new_hand([200] * 4, structure=FL, straddlers=[3])
    assert hand.straddle_seat is None and hand.to_act == 3


def test_a_newcomer_under_the_gun_posts_the_big_blind_owed_not_a_straddle() -> None:
    """Not a blind owed: entering players still pay a big blind (RULES.md 3)."""
    hand = new_hand([200] * 4, straddlers=[3], newcomers=[3])
    assert posted(hand) == [(1, 1, "small"), (2, 2, "big"), (3, 2, "newcomer")]
    assert hand.straddle_seat is None


def test_a_newcomer_after_the_straddle_still_pays_a_big_blind_and_calls_the_rest() -> None:
    hand = new_hand([200] * 5, straddlers=[3], newcomers=[4])
    assert posted(hand) == [(1, 1, "small"), (2, 2, "big"), (3, 4, "straddle"),
                            (4, 2, "newcomer")]
    assert hand.to_act == 4
    legal = hand.legal_actions()
    assert legal is not None and (legal.to_call, legal.min_raise_to) == (2, 8)


def test_the_straddle_comes_after_the_ante() -> None:
    hand = new_hand([200] * 4, straddlers=[3], ante=1)
    assert hand.player(3).committed == 5 and hand.player(3).bet == 4
    legal = hand.legal_actions()
    assert legal is not None and legal.pot == 11


def test_straddler_reads_the_seats_as_dealt() -> None:
    cfg = config(structure=NL)
    assert straddle_amount(cfg) == 4
    seats = [SeatIn(1, 9), SeatIn(2, 9), SeatIn(3, 4, straddle=True)]
    assert straddler(cfg, seats) == 2
    assert straddler(config(structure=FL), seats) is None


def test_phh_records_the_straddle_and_replays_it() -> None:
    hand = new_hand([200] * 4, structure=PL, straddlers=[3])
    play(hand, ("raise", 15), "fold", "call", "call")
    check_down(hand)
    hh = phh.history_of(hand.events)
    assert hh.blinds_or_straddles == (1, 2, 4, 0)
    again = phh.replay(phh.loads(phh.dumps(hh)))
    assert again.finishing_stacks == hh.finishing_stacks
    assert again.hand.straddle_seat == 3


def test_phh_refuses_a_straddle_the_rules_do_not_allow() -> None:
    hand = new_hand([200] * 4, straddlers=[3])
    check_down(hand)
    text = phh.dumps(phh.history_of(hand.events))
    short = text.replace("starting_stacks = [200, 200, 200", "starting_stacks = [200, 200, 3")
    with pytest.raises(phh.HandError, match="covers it"):
        phh.setup_of(phh.loads(short))
    with pytest.raises(phh.HandError, match="twice the big blind"):
        phh.setup_of(phh.loads(text.replace("[1, 2, 4, 0]", "[1, 2, 6, 0]")))
