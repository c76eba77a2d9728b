"""Variants, dealing, burns and streets (RULES.md sections 2 and 4)."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import Deck, parse_cards
from bot.engine.events import BoardDealt, CardBurned, HoleCardsDealt, PlayerActed, Street
from bot.engine.hand import (
    VARIANTS,
    GameConfig,
    Hand,
    SeatIn,
    Structure,
    deck_order_for,
)
from bot.engine.variants import HandRule
from tests.engine.conftest import PL, check_down, new_hand, play


def test_section_2_and_9_variants_table() -> None:
    """Hole cards, split, Courchevel flag and hand rule of every variant."""
    table = {k: (v.hole_cards, v.hi_lo, v.courchevel, v.rule) for k, v in VARIANTS.items()}
    omaha, holdem = HandRule.OMAHA, HandRule.HOLDEM
    assert table == {
        "omaha": (4, False, False, omaha),
        "omaha_hilo": (4, True, False, omaha),
        "omaha5": (5, False, False, omaha),
        "big_o": (5, True, False, omaha),
        "omaha6": (6, False, False, omaha),
        "courchevel": (5, False, True, omaha),
        "courchevel_hilo": (5, True, True, omaha),
        "holdem": (2, False, False, holdem),
    }
    assert VARIANTS["holdem"].name == "Texas Hold'em"


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_section_2_one_player_more_than_the_deck_allows_is_refused(key: str) -> None:
    """A hand with max_seats + 1 players is refused; max_seats players deal without running out."""
    v = VARIANTS[key]
    cfg = GameConfig(v, PL, 1, 2)
    assert v.max_seats * v.hole_cards + 5 + 3 <= 52
    assert v.max_seats == 10 or (v.max_seats + 1) * v.hole_cards + 8 > 52
    with pytest.raises(ValueError, match="at most"):
        Hand(cfg, [SeatIn(s, 9) for s in range(v.max_seats + 1)], 0, Deck(rng=random.Random(1)))
    hand = Hand(cfg, [SeatIn(s, 9) for s in range(v.max_seats)], 0, Deck(rng=random.Random(1)))
    hand.start()
    play(hand, ("raise", 7))  # the pot-limit maximum
    check_down(hand)
    assert len(hand.board) == 5


def test_section_2_max_seats_from_the_deck() -> None:
    """players x hole + 5 + 3 <= 52: 10 with 4 cards, 8 with 5, 7 with 6."""
    assert VARIANTS["omaha"].max_seats == 10
    assert VARIANTS["big_o"].max_seats == 8 == VARIANTS["courchevel"].max_seats
    assert VARIANTS["omaha6"].max_seats == 7
    cfg = GameConfig(VARIANTS["omaha6"], PL, 1, 2)
    with pytest.raises(ValueError, match="at most 7"):
        Hand(cfg, [SeatIn(s, 100) for s in range(8)], 0, Deck(rng=random.Random(1)))
    hand = Hand(cfg, [SeatIn(s, 100) for s in range(7)], 0, Deck(rng=random.Random(1)))
    hand.start()
    check_down(hand)
    assert hand.is_over and not hand.invariant_violations()


@pytest.mark.parametrize("key", sorted(VARIANTS))
@pytest.mark.parametrize("structure", list(Structure))
def test_section_2_every_variant_plays_in_every_structure(key: str, structure: Structure) -> None:
    """Every variant can be played pot limit, no limit or fixed limit, at full table."""
    v = VARIANTS[key]
    cfg = GameConfig(v, structure, 1, 2)
    seats = [SeatIn(s, 50) for s in range(v.max_seats)]
    hand = Hand(cfg, seats, 0, Deck(rng=random.Random(3)))
    hand.start()
    assert all(len(hand.hole(s.seat)) == v.hole_cards for s in seats)
    play(hand, ("raise", 4))
    check_down(hand)
    assert len(hand.board) == 5 and sum(hand.result.final_stacks.values()) == 50 * len(seats)


def test_section_2_courchevel_first_flop_card_face_up_before_preflop_betting() -> None:
    """Courchevel: one board card before the preflop betting, two more at the flop."""
    hand = new_hand([100] * 3, variant="courchevel", structure=PL)
    boards = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert len(boards) == 1 and boards[0].street is Street.PREFLOP and len(boards[0].cards) == 1
    assert len(hand.board) == 1 and hand.street is Street.PREFLOP and hand.to_act == 3
    play(hand, "call", "call", "check")
    boards = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert boards[-1].street is Street.FLOP and len(boards[-1].cards) == 2
    assert len(hand.board) == 3
    check_down(hand)
    burns = [e for e in hand.events if isinstance(e, CardBurned)]
    assert [b.street for b in burns] == [Street.PREFLOP, Street.TURN, Street.RIVER]


def test_section_4_hole_cards_dealt_one_at_a_time_from_the_small_blind() -> None:
    """Card k of the deal goes to player k mod n, clockwise from the small blind."""
    deck = Deck(rng=random.Random(11))
    order = deck.order
    cfg = GameConfig(VARIANTS["omaha"], PL, 1, 2)
    hand = Hand(cfg, [SeatIn(s, 100) for s in (3, 6, 8)], 6, deck)
    events = hand.start()
    assert hand.deal_order == (8, 3, 6)
    for k, seat in enumerate(hand.deal_order):
        assert hand.hole(seat) == tuple(order[k + 3 * r] for r in range(4))
    dealt = [e.seat for e in events if isinstance(e, HoleCardsDealt)]
    assert dealt == [8, 3, 6]
    assert all(e.private_to == e.seat for e in events if isinstance(e, HoleCardsDealt))


def test_section_4_heads_up_deal_starts_with_the_button() -> None:
    """Heads-up the small blind is the button, and the deal starts there."""
    deck = Deck(rng=random.Random(2))
    order = deck.order
    cfg = GameConfig(VARIANTS["omaha"], PL, 1, 2)
    hand = Hand(cfg, [SeatIn(1, 100), SeatIn(2, 100)], 1, deck)
    hand.start()
    assert hand.deal_order == (1, 2)
    assert hand.hole(1) == order[0:8:2] and hand.hole(2) == order[1:8:2]


def test_section_4_one_burn_before_flop_turn_and_river() -> None:
    """Board cards come after one burn each: flop, turn and river."""
    deck = Deck(rng=random.Random(4))
    order = deck.order
    cfg = GameConfig(VARIANTS["omaha"], PL, 1, 2)
    hand = Hand(cfg, [SeatIn(s, 100) for s in (1, 2, 3)], 3, deck)
    hand.start()
    check_down(hand)
    base = 12
    assert tuple(hand.board) == (order[base + 1], order[base + 2], order[base + 3],
                                 order[base + 5], order[base + 7])
    burns = [e.street for e in hand.events if isinstance(e, CardBurned)]
    assert burns == [Street.FLOP, Street.TURN, Street.RIVER]


def test_section_4_deck_order_for_rebuilds_a_known_deal() -> None:
    """deck_order_for places given hole and board cards where the hand deals them."""
    holes = [parse_cards("AsKsQsJs"), parse_cards("2c3c4c5c")]
    board = parse_cards("7h8h9hTdJd")
    order = deck_order_for(VARIANTS["omaha"], holes, board)
    cfg = GameConfig(VARIANTS["omaha"], PL, 1, 2)
    hand = Hand(cfg, [SeatIn(1, 100), SeatIn(2, 100)], 1, Deck(order=order))
    hand.start()
    assert hand.hole(1) == holes[0] and hand.hole(2) == holes[1]
    check_down(hand)
    assert tuple(hand.board) == board


def test_section_4_preflop_starts_left_of_big_blind_later_streets_left_of_button() -> None:
    """Preflop: the player after the big blind; later: the first active player after the button."""
    hand = new_hand([100] * 4)
    assert hand.to_act == 3
    play(hand, "call", "call", "fold", "check")  # small blind folds
    assert hand.street is Street.FLOP and hand.to_act == 2  # first active after the button
    acted = [e.seat for e in hand.events if isinstance(e, PlayerActed)]
    assert acted == [3, 4, 1, 2]


def test_section_4_round_ends_when_all_matched_or_one_left() -> None:
    """The round ends once every able player acted and matched; one player left ends the hand."""
    hand = new_hand([100] * 3)
    play(hand, ("raise", 6), "call")
    assert hand.street is Street.PREFLOP and hand.to_act == 2
    play(hand, "call")
    assert hand.street is Street.FLOP
    play(hand, ("bet", 4), "fold")
    assert not hand.is_over and hand.to_act == 3
    play(hand, "fold")
    assert hand.is_over and hand.result.final_stacks == {1: 112, 2: 94, 3: 94}
