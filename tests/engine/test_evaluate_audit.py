"""Audit of the evaluator against RULES.md section 1 with an independent reference.

The reference below is written from the rule text only (exactly two hole and
three board cards; categories; kickers; the wheel; 8-or-better lows compared
from the highest card down) and shares no code with ``bot.engine.evaluate``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.evaluate import best_high, best_low, hand_label, high_value, low_value
from bot.engine.variants import VARIANTS, HandRule


def _ref_five(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """(category 0..8, tie-break ranks) of five cards, by the book."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return 8, (straight_top,)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape == [4, 1]:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, tuple(ranks)
    if straight_top:
        return 4, (straight_top,)
    if shape == [3, 1, 1]:
        return 3, order
    if shape == [2, 2, 1]:
        return 2, order
    if shape == [2, 1, 1, 1]:
        return 1, order
    return 0, tuple(ranks)


def ref_high(hole: tuple[Card, ...], board: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    return max(_ref_five(h + b) for h in combinations(hole, 2) for b in combinations(board, 3))


def ref_low(hole: tuple[Card, ...], board: tuple[Card, ...]) -> tuple[int, ...] | None:
    """The best low as its ranks highest first (ace = 1); smaller tuple is better."""
    best: tuple[int, ...] | None = None
    for h in combinations(hole, 2):
        for b in combinations(board, 3):
            ranks = [1 if c.rank == 14 else c.rank for c in h + b]
            if len(set(ranks)) == 5 and max(ranks) <= 8:
                key = tuple(sorted(ranks, reverse=True))
                if best is None or key < best:
                    best = key
    return best


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize(("n_hole", "n_board"), [(4, 5), (5, 5), (6, 5), (4, 3), (5, 4)])
def test_section_1_high_and_low_order_match_an_independent_reference(n_hole: int,
                                                                     n_board: int) -> None:
    """On random deals, the engine orders every pair of hands as the rule-text reference does."""
    rng = random.Random(1000 * n_hole + n_board)
    for _ in range(150):
        cards = rng.sample(DECK, 2 * n_hole + n_board)
        a, b = tuple(cards[:n_hole]), tuple(cards[n_hole:2 * n_hole])
        board = tuple(cards[2 * n_hole:])
        ra, rb = ref_high(a, board), ref_high(b, board)
        want = (ra > rb) - (ra < rb)
        difference = high_value(a, board, HandRule.OMAHA) - high_value(b, board, HandRule.OMAHA)
        assert _sign(difference) == want
        la, lb = ref_low(a, board), ref_low(b, board)
        assert (low_value(a, board) is None) == (la is None)
        assert (low_value(b, board) is None) == (lb is None)
        if la is not None and lb is not None:
            want_lo = (la < lb) - (la > lb)  # higher engine value is the better (smaller) low
            va, vb = low_value(a, board), low_value(b, board)
            assert va is not None and vb is not None
            assert _sign(va - vb) == want_lo


@pytest.mark.parametrize(("hole", "board", "text"), [
    # four of a kind on the board: only three of them play, with two hole cards
    ("2c2d9h9s", "KsKhKdKc7s", "Full house, kings full of nines"),
    ("AsQd3h4s", "KsKhKdKc7s", "Three of a kind, kings"),
    # three aces on the board and the fourth in hand: quads
    ("Ah5c9h9s", "AsAdAc5h5s", "Four of a kind, aces"),
    # the board's second pair cannot join a hole pair plus a board trip in 2+3
    ("6c7dJhJs", "6h6s9d9c2s", "Three of a kind, sixes"),
    ("6c6dJhJs", "6h6s9d9c2s", "Four of a kind, sixes"),
    # a wheel with two hole cards, and the steel wheel
    ("4c5d9h9s", "Ah2s3dKcQs", "Straight, five high"),
    ("2h3h9c9s", "Ah4h5hKcQs", "Straight flush, five high"),
    # five suited cards on the board and one suited in hand: not a flush
    ("Ah2c9d9s", "KhQhJhTh3h", "Pair of nines"),
    # A-K-Q-J in hand and one T on the board: no straight (only two hole cards play)
    ("AcKdQhJs", "Ts5c2d7h9s", "High card, ace"),
    ("AcKd8h3s", "QsJcTd7h2s", "Straight, ace high"),
    ("AcKd8h3s", "Qs5c2d7hJs", "High card, ace"),
    ("6c6d8h3s", "Qs5c2d7hJs", "Pair of sixes"),
])
def test_section_1_two_plus_three_edge_hands_and_descriptions(hole: str, board: str,
                                                            text: str) -> None:
    """Boards with quads, trips, a flush and straights, and the description of what plays."""
    h, b = parse_cards(hole), parse_cards(board)
    made = best_high(h, b, HandRule.OMAHA)
    assert made.description == text
    assert made.value == high_value(h, b, HandRule.OMAHA)
    assert sum(c in h for c in made.cards) == 2 and sum(c in b for c in made.cards) == 3
    assert _ref_five(made.cards) == ref_high(h, b)


@pytest.mark.parametrize(("hole", "board", "text"), [
    ("4c5d9h9s", "Ah2s3dKcQs", "Low 5-4-3-2-A"),
    # counterfeited: A-3 with A-2-8 pairs the ace; the next best uses 3-4
    ("Ac3d4hKs", "Ah2s8dKcQs", "Low 8-4-3-2-A"),
    # the worst qualifying low
    ("4c5dKhKs", "6h7s8dKcQs", "Low 8-7-6-5-4"),
    # 8-6-5-4-3 beats 8-7-3-2-A (compared from the top down)
    ("6c4dKhKs", "8h5s3dKcQs", "Low 8-6-5-4-3"),
])
def test_section_1_low_descriptions_and_counterfeits(hole: str, board: str, text: str) -> None:
    """Lows name their five cards highest first, with exactly two hole cards."""
    h, b = parse_cards(hole), parse_cards(board)
    made = best_low(h, b)
    assert made is not None and made.description == text
    assert sum(c in h for c in made.cards) == 2
    assert hand_label(h, b, VARIANTS["omaha_hilo"]).endswith("; " + text)


def test_section_1_low_needs_two_distinct_low_hole_cards_and_three_low_board_cards() -> None:
    """A-A in hand counts once; two low board cards are not enough; 9 never qualifies."""
    assert low_value(parse_cards("AcAdKhKs"), parse_cards("2h3s4dKcQs")) is None
    assert low_value(parse_cards("AcAd2hKs"), parse_cards("3h4s5dKcQs")) is not None
    assert low_value(parse_cards("Ac2d3h4s"), parse_cards("5h6sKdKcQs")) is None
    assert low_value(parse_cards("Ac2d3h4s"), parse_cards("9h5s6dKcQs")) is None
    hilo = VARIANTS["omaha_hilo"]
    assert hand_label(parse_cards("AcAdKhKs"), parse_cards("2h3s4dKcQs"), hilo).endswith(
        "; no low")
    a = low_value(parse_cards("6c4dKhKs"), parse_cards("8h5s3dKcQs"))  # 8-6-5-4-3
    b = low_value(parse_cards("7c2dKhKs"), parse_cards("8hAs3dKcQs"))  # 8-7-3-2-A
    assert a is not None and b is not None and a > b
