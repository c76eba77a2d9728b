"""Texas Hold'em evaluation (RULES.md 9): the best five of the hole and board cards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.engine import holdem_eval
from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.evaluate import best_high, five_value, hand_label, high_value
from bot.engine.variants import VARIANTS, HandRule

HOLDEM = HandRule.HOLDEM


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def brute(cards: tuple[Card, ...]) -> int:
    """The best of every five of the cards, by the one five-card definition."""
    return max(five_value(five) for five in combinations(cards, 5))


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_values_equal_the_best_of_every_five(board_size: int) -> None:
    """Random hands on a flop, a turn and a river: the table value is the best five."""
    rng = random.Random(board_size)
    for _ in range(3000):
        cards = tuple(rng.sample(DECK, 2 + board_size))
        assert high_value(cards[:2], cards[2:], HOLDEM) == brute(cards)


def test_flushes_and_straight_flushes_with_seven_cards() -> None:
    """Seven suited cards, six, five; a straight flush beside a higher plain straight."""
    deals = [c("AhKh QhJh9h8h7h"), c("2s3s 4s5s9d9h9c"), c("6d7d 8d9dTdJcQc"),
             c("Ac2c 3c4c5c6d7d"), c("AsKs QsJs2s2h2d"), c("9c9d 9h9sKcQcJc")]
    for cards in deals:
        assert high_value(cards[:2], cards[2:], HOLDEM) == brute(cards)
    assert best_high(c("6d7d"), c("8d9dTdJcQc"), HOLDEM).description == (
        "Straight flush, ten high")
    assert best_high(c("9c9d"), c("9h9sKcQcJc"), HOLDEM).description == "Four of a kind, nines"


def test_section_9_the_board_plays_and_splits() -> None:
    """Board A-K-Q-J-T: every player still in has Broadway; nobody uses a hole card."""
    board = c("AsKdQhJcTs")
    hands = [best_high(hole, board, HOLDEM) for hole in (c("2c3d"), c("Th9h"), c("AhAd"))]
    assert {h.value for h in hands} == {hands[0].value}
    assert hands[0].description == "Straight, ace high"
    assert [h.hole_used for h in hands] == [(), (), ()]  # the board's own five play
    assert set(hands[0].cards) == set(board)


def test_section_9_one_hole_card_or_two() -> None:
    """Four suited board cards and one suited hole card are a flush (not in Omaha)."""
    board = c("2h7hJhKh4c")
    made = best_high(c("Ah3s"), board, HOLDEM)
    assert made.description == "Flush, ace high" and made.hole_used == c("Ah")
    omaha = high_value(c("Ah3s4d5d"), board, HandRule.OMAHA)
    assert omaha >> 20 != 5  # the Omaha rule: one suited hole card makes no flush
    two = best_high(c("KsKc"), c("Kd7s7c2d3h"), HOLDEM)
    assert two.description == "Full house, kings full of sevens"
    assert set(two.hole_used) == set(c("KsKc"))


def test_kickers_decide_and_the_label_names_them() -> None:
    """Pair of aces with a king against the same pair with a queen: the king plays."""
    board = c("As9d7c4h2s")
    ace_king, ace_queen = c("AhKc"), c("AdQc")
    assert high_value(ace_king, board, HOLDEM) > high_value(ace_queen, board, HOLDEM)
    rival = high_value(ace_queen, board, HOLDEM)
    assert hand_label(ace_king, board, VARIANTS["holdem"], [rival]) == (
        "Pair of aces, kicker king")
    # a kicker below the board's own fifth card does not play: a tie
    assert high_value(c("Ah3c"), c("AsKdQc9h8s"), HOLDEM) == high_value(
        c("Ad2c"), c("AsKdQc9h8s"), HOLDEM)


def test_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="2 hole cards"):
        high_value(c("AhKhQh"), c("2c3c4c5c6c"), HOLDEM)
    with pytest.raises(ValueError, match="3, 4 or 5 board cards"):
        high_value(c("AhKh"), c("2c3c"), HOLDEM)
    with pytest.raises(ValueError, match="twice"):
        best_high(c("AhKh"), c("Ah3c4c"), HOLDEM)


def test_warm_fills_every_multiset_with_the_same_values() -> None:
    """warm() fills the six- and seven-card rank multisets: 6,175 + 18,395 + 49,205."""
    holdem_eval.warm()
    assert len(holdem_eval.RANKS) == 6_175 + 18_395 + 49_205
    rng = random.Random(9)
    for _ in range(500):
        cards = tuple(rng.sample(DECK, 7))
        assert holdem_eval.holdem_value(cards[:2], cards[2:]) == brute(cards)
