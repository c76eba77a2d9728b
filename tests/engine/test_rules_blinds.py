"""Seats, button, blinds and antes (RULES.md section 3)."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import Deck
from bot.engine.events import AntePosted, BlindPosted, PlayerActed, Street
from bot.engine.hand import (
    VARIANTS,
    Action,
    GameConfig,
    Hand,
    IllegalAction,
    SeatIn,
    Structure,
    next_button,
)
from tests.engine.conftest import FL, NL, PL, check_down, new_hand, play


def test_section_3_blinds_are_the_next_two_seats_after_the_button() -> None:
    """Small blind first seat after the button, big blind the next; seat numbers wrap."""
    hand = new_hand([100, 100, 100, 100], seats=[2, 5, 9, 12], button=9)
    assert hand.small_blind_seat == 12 and hand.big_blind_seat == 2
    posts = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert [(e.seat, e.amount, e.blind) for e in posts] == [(12, 1, "small"), (2, 2, "big")]
    assert hand.to_act == 5  # left of the big blind
    assert hand.seat_order == (12, 2, 5, 9)


def test_section_3_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    """Heads-up the button posts the small blind, acts first preflop and last afterwards."""
    hand = new_hand([100, 100], seats=[3, 7], button=7)
    assert hand.small_blind_seat == 7 and hand.big_blind_seat == 3
    assert hand.to_act == 7
    play(hand, "call")
    assert hand.to_act == 3  # the big blind's option
    play(hand, "check")
    assert hand.street is Street.FLOP and hand.to_act == 3
    play(hand, "check")
    assert hand.to_act == 7
    play(hand, "check")
    assert hand.street is Street.TURN and hand.to_act == 3


def test_section_3_fixed_limit_blinds_5_10_game_are_2_and_5() -> None:
    """Fixed limit: big blind = small bet, small blind = half of it rounded down."""
    cfg = GameConfig.fixed_limit(VARIANTS["omaha_hilo"], 5)
    assert (cfg.small_blind, cfg.big_blind, cfg.small_bet, cfg.big_bet) == (2, 5, 5, 10)
    with pytest.raises(ValueError, match="half the small bet"):
        GameConfig(VARIANTS["omaha"], Structure.FIXED_LIMIT, 3, 5)
    hand = new_hand([100] * 3, structure=FL, blinds=(2, 5))
    posts = [(e.seat, e.amount) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, 2), (2, 5)]


def test_section_3_config_refuses_bad_blinds() -> None:
    """A small blind above the big blind, or no blind at all, is refused."""
    with pytest.raises(ValueError):
        GameConfig(VARIANTS["omaha"], NL, 3, 2)
    with pytest.raises(ValueError):
        GameConfig(VARIANTS["omaha"], NL, 0, 0)
    with pytest.raises(ValueError):
        GameConfig(VARIANTS["omaha"], NL, 1, 2, -1)


def test_section_3_antes_are_dead_and_do_not_count_toward_calling() -> None:
    """Antes go in the pot but the first player still calls the full big blind."""
    hand = new_hand([100] * 3, ante=1, structure=PL)
    antes = [e for e in hand.events if isinstance(e, AntePosted)]
    assert [(e.seat, e.amount) for e in antes] == [(1, 1), (2, 1), (3, 1)]
    assert hand.pot_total == 6
    la = hand.legal_actions()
    assert la is not None and la.to_call == 2 and la.current_bet == 2
    play(hand, "call", "call")
    la = hand.legal_actions()
    assert la is not None and la.seat == 2 and la.can_check  # ante was not a bet
    play(hand, "check")
    assert hand.pot_total == 9 and hand.street is Street.FLOP


def test_section_3_short_stack_posts_ante_first_then_blind_all_in() -> None:
    """A player who cannot cover posts the ante first, then what is left as the blind."""
    hand = new_hand([100, 3, 100], ante=2, blinds=(1, 2))
    posts = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted)]
    bb = [e for e in posts if e.seat == 2]
    assert bb == [AntePosted(2, 2, False), BlindPosted(2, 1, "big", True)]
    assert hand.player(2).all_in and hand.player(2).bet == 1
    hand = new_hand([100, 1, 100], ante=2, blinds=(1, 2))
    bb2 = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted) and e.seat == 2]
    assert bb2 == [AntePosted(2, 1, True)]  # all-in on the ante: no blind
    la = hand.legal_actions()
    assert la is not None and la.to_call == 2 and la.min_raise_to == 4


def test_section_3_short_big_blind_does_not_lower_the_bet_min_raise_two_big_blinds() -> None:
    """Big blind all-in for 1 of 2: callers pay 2, the minimum raise is to 4."""
    hand = new_hand([100, 1, 100, 100])
    la = hand.legal_actions()
    assert la is not None and la.seat == 3 and la.to_call == 2 and la.min_raise_to == 4
    play(hand, "call", "call", "call")  # seat 1, small blind, completes to 2
    assert hand.street is Street.FLOP
    assert [p.committed for p in hand.players] == [2, 1, 2, 2]
    pots = hand.pots
    assert [(p.amount, p.eligible) for p in pots] == [(4, (1, 2, 3, 4)), (3, (1, 3, 4))]


def test_section_3_blinds_are_live_small_blind_completes_big_blind_has_option() -> None:
    """The small blind only adds the difference; the big blind may raise when nobody did."""
    hand = new_hand([100] * 3)
    events = play(hand, "call", "call")
    assert events[-1] == PlayerActed(1, Street.PREFLOP, Action.call().kind, 1, 2, False)
    la = hand.legal_actions()
    assert la is not None and la.seat == 2 and la.can_check and la.min_raise_to == 4
    play(hand, ("raise", 6))
    assert hand.to_act == 3 and hand.street is Street.PREFLOP


def test_section_3_newcomer_posts_live_big_blind_out_of_position() -> None:
    """A newcomer's big blind is live: they act in turn and have the option when unraised."""
    hand = new_hand([100] * 5, newcomers=[4])
    posts = [(e.seat, e.amount, e.blind) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, 1, "small"), (2, 2, "big"), (4, 2, "newcomer")]
    assert hand.to_act == 3
    play(hand, "call")
    la = hand.legal_actions()
    assert la is not None and la.seat == 4 and la.can_check and la.min_raise_to == 4
    play(hand, "check", "call", "call")
    la = hand.legal_actions()
    assert la is not None and la.seat == 2 and la.can_check  # big blind option remains
    play(hand, "check")
    assert hand.street is Street.FLOP and hand.pot_total == 10


def test_section_3_newcomer_flag_on_big_blind_is_ignored() -> None:
    """A newcomer who is the big blind posts just the big blind."""
    hand = new_hand([100] * 3, newcomers=[2])
    posts = [(e.seat, e.amount, e.blind) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, 1, "small"), (2, 2, "big")]


def test_section_3_seat_limits_and_button_on_a_dealt_in_seat() -> None:
    """2 to max seats players; the button sits on a dealt-in seat; stacks are positive."""
    cfg = GameConfig(VARIANTS["omaha"], PL, 1, 2)
    with pytest.raises(ValueError):
        Hand(cfg, [SeatIn(1, 10)], 1, Deck(rng=random.Random(1)))
    with pytest.raises(ValueError):
        Hand(cfg, [SeatIn(1, 10), SeatIn(2, 10)], 3, Deck(rng=random.Random(1)))
    with pytest.raises(ValueError):
        Hand(cfg, [SeatIn(1, 10), SeatIn(2, 0)], 1, Deck(rng=random.Random(1)))
    with pytest.raises(ValueError):
        Hand(cfg, [SeatIn(1, 10), SeatIn(1, 10)], 1, Deck(rng=random.Random(1)))
    hand = Hand(cfg, [SeatIn(1, 10), SeatIn(2, 10)], 1, Deck(rng=random.Random(1)))
    with pytest.raises(IllegalAction, match="not started"):
        hand.act(1, Action.call())
    hand.start()
    with pytest.raises(IllegalAction, match="already started"):
        hand.start()
    check_down(hand)
    assert hand.is_over


def test_section_3_blinds_all_in_run_the_hand_to_the_end_at_start() -> None:
    """When the blinds put everyone all-in, start() deals the hand to its end."""
    hand = new_hand([1, 2], blinds=(1, 2))
    assert hand.is_over and hand.to_act is None and len(hand.board) == 5
    assert sum(hand.result.final_stacks.values()) == 3


def test_section_3_button_moves_to_the_next_dealt_in_seat_clockwise() -> None:
    """After a hand the button goes to the next seat dealt in, wrapping past the top."""
    assert next_button([1, 4, 7], 1) == 4
    assert next_button([1, 4, 7], 7) == 1
    assert next_button([1, 4, 7], 5) == 7  # the old button left the table
    assert next_button([2, 9], 9) == 2
    with pytest.raises(ValueError):
        next_button([], 3)
