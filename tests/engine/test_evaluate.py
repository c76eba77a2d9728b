"""Tests for bot.engine.evaluate: the Omaha rule, hand order, lows, descriptions,
and a cross-check against PokerKit's Omaha evaluators."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

import pytest
from pokerkit import Card as PKCard
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.evaluate import (
    MadeHand,
    best_high,
    best_low,
    describe_high,
    describe_low,
    hand_label,
    high_value,
    low_value,
    warm_tables,
)
from bot.engine.variants import VARIANTS, HandRule


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def desc(hole: str, board: str) -> str:
    return describe_high(high_value(c(hole), c(board), HandRule.OMAHA))


def low_desc(hole: str, board: str) -> str | None:
    value = low_value(c(hole), c(board))
    return None if value is None else describe_low(value)


# ---------------------------------------------------------------------------
# RULES.md section 1: the Omaha rule (exactly two hole cards, three board cards)


def test_section_1_four_suited_board_cards_and_one_hole_card_are_no_flush() -> None:
    """Four hearts on the board plus one heart in hand is not a flush."""
    made = best_high(c("Ah2c7d9s"), c("Kh8h5h3hJc"), HandRule.OMAHA)
    assert made.description == "High card, ace"
    assert made.value >> 20 == 0


def test_section_1_two_suited_hole_cards_and_three_board_cards_are_a_flush() -> None:
    """Two hearts in hand with three on the board make the flush."""
    assert desc("Ah2h7d9s", "Kh8h5hJcQd") == "Flush, ace high"


def test_section_1_four_board_cards_to_a_straight_and_one_hole_card_are_no_straight() -> None:
    """A 5-6-7-8 board with one nine in hand is not a straight."""
    assert desc("9cKdKs2h", "5s6d7h8cJc") == "Pair of kings"
    assert desc("9c4dKs2h", "5s6d7h8cJc") == "High card, king"


def test_section_1_board_straight_is_not_played() -> None:
    """A straight on the board cannot be played: two hole cards must be used."""
    assert desc("2c2d3h3s", "9sTdJhQcKc") == "Pair of threes"


def test_section_1_board_flush_is_not_played() -> None:
    """A five-card flush on the board with no suited hole cards is no flush."""
    assert desc("AcAd5c3d", "Kh9h7h4h2h") == "Pair of aces"


def test_section_1_board_pair_with_one_king_in_hand_is_trips() -> None:
    """K-K-7 on the board with one king in hand is three kings."""
    assert desc("KcQd9s2h", "KhKs7d") == "Three of a kind, kings"


def test_section_1_board_pair_with_no_king_in_hand_is_not_trips() -> None:
    """K-K-7 on the board, no king in hand: the best is a pair of kings, kickers 2 + 3."""
    made = best_high(c("AcQd9s2h"), c("KhKs7d"), HandRule.OMAHA)
    assert made.description == "Pair of kings"
    # kickers: A and Q from the hand, the 7 from the board
    assert [x.rank for x in made.cards] == [13, 13, 14, 12, 7]
    assert set(made.hole_used) == set(c("AcQd"))


def test_section_1_two_board_pairs_and_a_hole_pair_make_a_full_house_not_two_pair() -> None:
    """Board K-K-7-7-2: one seven in hand is only trips; a hole pair of twos is a full house."""
    # one seven in hand: 7 + another hole card + 7-7-K from the board
    assert desc("7cAd3s4h", "KhKs7d7h2c") == "Three of a kind, sevens"
    # a hole pair of twos plays 2-2-2 full of kings
    assert desc("2d2hQs4c", "KhKs7d7h2c") == "Full house, twos full of kings"


def test_section_1_quads_need_two_hole_cards() -> None:
    """Four aces on the board are not quads: the hand plays three aces and two hole cards."""
    assert desc("KcKdQs2h", "AcAdAhAs3c") == "Full house, aces full of kings"
    assert desc("AhKd2s3c", "AcAdQh8s7c") == "Three of a kind, aces"
    assert desc("AhAsQd3c", "AcAdQh8s7c") == "Four of a kind, aces"


def test_section_1_wheel_is_the_lowest_straight() -> None:
    """A-2-3-4-5 is a straight, five high, lower than 2-3-4-5-6."""
    wheel = high_value(c("Ac2dKsKh"), c("3h4s5cJd"), HandRule.OMAHA)
    six_high = high_value(c("6c2dKsKh"), c("3h4s5cJd"), HandRule.OMAHA)
    assert describe_high(wheel) == "Straight, five high"
    assert describe_high(six_high) == "Straight, six high"
    assert wheel < six_high


def test_section_1_ace_plays_high_in_a_straight() -> None:
    """T-J-Q-K-A is the highest straight; K-A-2-3-4 is no straight."""
    assert desc("AcKd2s2h", "QhJsTc") == "Straight, ace high"
    assert desc("Ac2d8s8h", "KhQs3c4d") == "Pair of eights"


def test_section_1_five_high_straight_flush() -> None:
    """A-2-3-4-5 suited is a straight flush, five high; it beats four of a kind."""
    made = best_high(c("Ah2hKsKc"), c("3h4h5hKd"), HandRule.OMAHA)
    assert made.description == "Straight flush, five high"
    assert [str(x) for x in made.cards] == ["5h", "4h", "3h", "2h", "Ah"]
    quads = high_value(c("KsKcAd2d"), c("3h4h5hKdKh"), HandRule.OMAHA)
    assert made.value > quads


def test_section_1_royal_flush_beats_straight_flush() -> None:
    """Royal flush is the ace-high straight flush and the best hand."""
    royal = high_value(c("AsKs2c3c"), c("QsJsTs"), HandRule.OMAHA)
    king_high = high_value(c("KsQs2c3c"), c("JsTs9s"), HandRule.OMAHA)
    assert describe_high(royal) == "Royal flush"
    assert describe_high(king_high) == "Straight flush, king high"
    assert royal > king_high


def test_section_1_category_order() -> None:
    """Straight flush > quads > full house > flush > straight > trips > two pair > pair > high."""
    board = "9h8h7hKdKs"
    hands = [
        "6h5hAcQc",  # straight flush, nine high
        "KhKc2c3d",  # four kings
        "9s9d2c3c",  # nines full of kings
        "AhQh2c3d",  # flush
        "TcJd2c3d",  # straight, jack high
        "2s2d4c3c",  # twos with the board's kings
    ]
    values = [high_value(c(h), c(board), HandRule.OMAHA) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [describe_high(v) for v in values] == [
        "Straight flush, nine high",
        "Four of a kind, kings",
        "Full house, nines full of kings",
        "Flush, ace high",
        "Straight, jack high",
        "Two pair, kings and twos",
    ]
    trips = high_value(c("KhKc3d4s"), c("Kd9s5cJcQh"), HandRule.OMAHA)
    two_pair = high_value(c("JsQc2d3c"), c("Kd9s5cJcQh"), HandRule.OMAHA)
    pair = high_value(c("2s2d3h4h"), c("Kd9s5cJcTh"), HandRule.OMAHA)
    high = high_value(c("Ac3d4h7s"), c("Kd9s5cJcTh"), HandRule.OMAHA)
    assert values[-2] > trips > two_pair > pair > high
    assert [describe_high(v) for v in (trips, two_pair, pair, high)] == [
        "Three of a kind, kings",
        "Two pair, queens and jacks",
        "Pair of twos",
        "High card, ace",
    ]


def test_section_1_suits_never_break_ties() -> None:
    """The same ranks in different suits tie."""
    a = high_value(c("AsKd2c3h"), c("Qs9hJd4c8c"), HandRule.OMAHA)
    b = high_value(c("AhKc2d3s"), c("Qs9hJd4c8c"), HandRule.OMAHA)
    assert a == b


def test_section_1_kickers_break_ties() -> None:
    """Same pair, the higher kicker wins; kickers come only from the 2 + 3 cards played."""
    board = "Ks7d4c3h2s"
    a = high_value(c("KcQd9s8h"), c(board), HandRule.OMAHA)
    b = high_value(c("KdJd9h8c"), c(board), HandRule.OMAHA)
    assert describe_high(a) == describe_high(b) == "Pair of kings"
    assert a > b


# ---------------------------------------------------------------------------
# RULES.md section 1: the 8-or-better low


def test_section_1_low_needs_five_distinct_ranks_eight_or_lower() -> None:
    """A low needs two distinct low hole cards and three distinct low board cards."""
    assert low_desc("Ac2dKsKh", "3h4s5cJdQd") == "Low 5-4-3-2-A"
    assert low_desc("AcAdKsKh", "3h4s5c6d7d") is None  # one low rank in hand
    assert low_desc("Ac2dKsKh", "3h4s9cJdQd") is None  # two low cards on the board
    assert low_desc("Ac3dKsKh", "3h4s9c5dQd") is None  # 3 in hand pairs the board's 3
    assert low_desc("Ac9dKsKh", "3h4s5c6d7d") is None  # a nine does not qualify


def test_section_1_low_compares_from_the_highest_card_down() -> None:
    """8-6-5-4-3 beats 8-7-3-2-A."""
    a = low_value(c("3c6dKsKh"), c("8h4s5cJdQd"))
    b = low_value(c("Ac2dKsKh"), c("8h7s3cJdQd"))
    assert a is not None and b is not None
    assert describe_low(a) == "Low 8-6-5-4-3"
    assert describe_low(b) == "Low 8-7-3-2-A"
    assert a > b


def test_section_1_wheel_is_the_best_low_and_eight_seven_the_worst() -> None:
    """A-2-3-4-5 is the best low, 4-5-6-7-8 the worst qualifying one."""
    best = low_value(c("Ac2dKsKh"), c("3h4s5c"))
    worst = low_value(c("4c5dKsKh"), c("6h7s8c"))
    assert best is not None and worst is not None
    assert describe_low(best) == "Low 5-4-3-2-A"
    assert describe_low(worst) == "Low 8-7-6-5-4"
    every = [low_value(h, b) for h, b in _random_deals(random.Random(5), 4, 5, 2000)]
    qualifying = [v for v in every if v is not None]
    assert qualifying and max(qualifying) <= best and min(qualifying) >= worst


def test_section_1_straights_and_flushes_do_not_count_against_a_low() -> None:
    """A suited wheel is both a straight flush high and the best low."""
    hole, board = c("Ah2hKsKc"), c("3h4h5h")
    assert describe_high(high_value(hole, board, HandRule.OMAHA)) == "Straight flush, five high"
    assert low_desc("Ah2hKsKc", "3h4h5h") == "Low 5-4-3-2-A"


def test_section_1_different_hole_pairs_for_high_and_low() -> None:
    """High plays K-K, low plays A-2 from the same hand."""
    hole, board = c("KcKdAs2h"), c("Kh3c4d8sQs")
    high, low = best_high(hole, board, HandRule.OMAHA), best_low(hole, board)
    assert low is not None
    assert high.description == "Three of a kind, kings"
    assert set(high.hole_used) == set(c("KcKd"))
    assert low.description == "Low 8-4-3-2-A"
    assert set(low.hole_used) == set(c("As2h"))


def test_section_1_low_with_a_paired_hand_uses_distinct_ranks() -> None:
    """A-A-2-3 in hand: only one ace can play in a low."""
    assert low_desc("AcAd2s3h", "4c5d8h") == "Low 8-5-4-2-A"
    assert low_desc("AcAd2s2h", "4c5d7h") == "Low 7-5-4-2-A"


# ---------------------------------------------------------------------------
# Descriptions, made hands, labels


@pytest.mark.parametrize(
    ("hole", "board", "text"),
    [
        ("AsKs2c3c", "QsJsTs", "Royal flush"),
        ("6s5s2c3c", "9s8s7s", "Straight flush, nine high"),
        ("AsAd2c3c", "AcAh7s", "Four of a kind, aces"),
        ("Ks7h2c3c", "KcKh7s", "Full house, kings full of sevens"),
        ("AsTs2c3c", "Qs9s4s", "Flush, ace high"),
        ("9c8d2c3c", "Th7h6s", "Straight, ten high"),
        ("QsQd2c3c", "Qc8h4s", "Three of a kind, queens"),
        ("Ks7d2c3c", "Kc7h4s", "Two pair, kings and sevens"),
        ("9s9d2c3c", "Kc7h4s", "Pair of nines"),
        ("As9d2c3c", "Kc7h4s", "High card, ace"),
        ("Ks6d2c2h", "KcKh6s", "Full house, kings full of sixes"),
    ],
)
def test_section_1_descriptions(hole: str, board: str, text: str) -> None:
    """Each category has its readable description."""
    assert best_high(c(hole), c(board), HandRule.OMAHA).description == text
    assert desc(hole, board) == text


def test_section_1_hand_label_joins_high_and_low() -> None:
    """The hi-lo label shows the high then the low, or 'no low'."""
    hilo = VARIANTS["omaha_hilo"]
    assert hand_label(c("AhTh2c7d"), c("Qh4h5h7sKc"), hilo) == "Flush, ace high; Low 7-5-4-2-A"
    assert hand_label(c("AhTh9c9d"), c("Qh9h4hKsKc"), hilo) == (
        "Full house, nines full of kings; no low"
    )
    assert hand_label(c("AhTh2c7d"), c("Qh9h4h5sKc"), VARIANTS["omaha"]) == "Flush, ace high"


def test_made_hand_lists_the_five_cards_best_first() -> None:
    """A full house lists the trips first, then the pair; hole_used are in the hand."""
    made = best_high(c("Ks7h2c3c"), c("KcKh7s"), HandRule.OMAHA)
    assert isinstance(made, MadeHand)
    assert [x.rank for x in made.cards] == [13, 13, 13, 7, 7]
    assert set(made.hole_used) == set(c("Ks7h"))
    assert made.value == high_value(c("Ks7h2c3c"), c("KcKh7s"), HandRule.OMAHA)
    low = best_low(c("As2d9c9h"), c("7h5s4dKd"))
    assert low is not None
    assert [str(x) for x in low.cards] == ["7h", "5s", "4d", "2d", "As"]


def test_section_1_values_ignore_suit_names_and_card_order() -> None:
    """Renaming the suits consistently, or reordering the cards, changes no value."""
    rng = random.Random(21)
    by_text = {str(x): x for x in DECK}
    for hole, board in _random_deals(rng, 5, 5, 300):
        perm = dict(zip("cdhs", rng.sample("cdhs", 4), strict=True))

        def rename(cards: Sequence[Card], perm: dict[str, str] = perm) -> tuple[Card, ...]:
            return tuple(by_text[x.rank_char + perm[x.suit]] for x in cards)

        shuffled_hole = rng.sample(rename(hole), len(hole))
        shuffled_board = rng.sample(rename(board), len(board))
        assert (high_value(shuffled_hole, shuffled_board, HandRule.OMAHA)
                == high_value(hole, board, HandRule.OMAHA))
        assert low_value(shuffled_hole, shuffled_board) == low_value(hole, board)


def test_made_hand_repr_hides_the_cards() -> None:
    """A MadeHand's repr (what a log line would show) names no card."""
    made = best_high(c("AsKs2c3c"), c("QsJsTs"), HandRule.OMAHA)
    text = repr(made)
    assert not any(str(x) in text for x in made.cards)
    assert "cards hidden" in text


def test_warm_tables_gives_the_same_values() -> None:
    """Building every table up front changes no value."""
    deals = _random_deals(random.Random(9), 4, 5, 300)
    before = [high_value(h, b, HandRule.OMAHA) for h, b in deals]
    warm_tables()
    assert [high_value(h, b, HandRule.OMAHA) for h, b in deals] == before
    assert before == [best_high(h, b, HandRule.OMAHA).value for h, b in deals]


def test_bad_input_is_refused_with_a_clear_message() -> None:
    """Wrong card counts and repeated cards raise ValueError without naming the cards."""
    with pytest.raises(ValueError, match="4, 5 or 6 hole cards"):
        high_value(c("AsKs2c"), c("QsJsTs"), HandRule.OMAHA)
    with pytest.raises(ValueError, match="3, 4 or 5 board cards"):
        low_value(c("AsKs2c3c"), c("QsJs"))
    with pytest.raises(ValueError, match="twice") as info:
        best_high(c("AsKs2c3c"), c("AsJsTs"), HandRule.OMAHA)
    assert "As" not in str(info.value)


# ---------------------------------------------------------------------------
# Cross-checks


def _random_deals(
    rng: random.Random, n_hole: int, n_board: int, count: int
) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    out = []
    for _ in range(count):
        cards = rng.sample(DECK, n_hole + n_board)
        out.append((tuple(cards[:n_hole]), tuple(cards[n_hole:])))
    return out


def _pk(cards: Sequence[Card]) -> list[PKCard]:
    return list(PKCard.parse("".join(map(str, cards))))


def _check_same_order(ours: list[int | None], theirs: list[object | None]) -> None:
    """Sorting by our values, PokerKit must agree on every adjacent pair (so on all pairs)."""
    order = sorted(range(len(ours)), key=lambda i: (ours[i] is not None, ours[i] or 0))
    for i, j in pairwise(order):
        a, b = ours[i], ours[j]
        x, y = theirs[i], theirs[j]
        assert (a is None) == (x is None) and (b is None) == (y is None)
        if a is None or b is None:
            continue
        assert x is not None and y is not None
        if a == b:
            assert x == y, (i, j)
        else:
            assert a < b
            assert x < y, (i, j)  # type: ignore[operator]


@pytest.mark.parametrize("n_hole", [4, 5, 6])
@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_section_1_high_order_matches_pokerkit(n_hole: int, n_board: int) -> None:
    """Our high values order random hands exactly as PokerKit's OmahaHoldemHand does."""
    rng = random.Random(1000 * n_hole + n_board)
    deals = _random_deals(rng, n_hole, n_board, 400 if n_hole == 4 else 200)
    ours: list[int | None] = [high_value(h, b, HandRule.OMAHA) for h, b in deals]
    theirs: list[object | None] = [OmahaHoldemHand.from_game(_pk(h), _pk(b)) for h, b in deals]
    _check_same_order(ours, theirs)


@pytest.mark.parametrize("n_hole", [4, 5, 6])
@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_section_1_low_order_matches_pokerkit(n_hole: int, n_board: int) -> None:
    """Our low values order random hands (and 'no low') exactly as PokerKit's O8 low does."""
    rng = random.Random(2000 * n_hole + n_board)
    # keep only deals with at least three low board ranks, where lows are possible
    deals = [
        (h, b)
        for h, b in _random_deals(rng, n_hole, n_board, 800)
        if len({x.rank for x in b if x.rank <= 8 or x.rank == 14}) >= 3
    ][:200]
    ours: list[int | None] = [low_value(h, b) for h, b in deals]
    theirs: list[object | None] = [
        OmahaEightOrBetterLowHand.from_game_or_none(_pk(h), _pk(b)) for h, b in deals
    ]
    assert any(v is not None for v in ours) and any(v is None for v in ours)
    _check_same_order(ours, theirs)


@pytest.mark.parametrize("n_hole", [4, 5, 6])
@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_fast_values_equal_the_made_hands(n_hole: int, n_board: int) -> None:
    """high_value/low_value equal best_high/best_low (every 2 + 3 combination tried)."""
    rng = random.Random(3000 * n_hole + n_board)
    for hole, board in _random_deals(rng, n_hole, n_board, 400):
        high = best_high(hole, board, HandRule.OMAHA)
        assert high_value(hole, board, HandRule.OMAHA) == high.value
        low = best_low(hole, board)
        assert low_value(hole, board) == (None if low is None else low.value)


def test_kickers_are_named_only_when_they_decide() -> None:
    """RULES.md 1: ties are broken by kickers. The same pair: the first kicker that
    differs is named (and those before it); an exact tie or another description: none."""
    from bot.engine.eval_tables import rank_value
    from bot.engine.evaluate import deciding_kickers, describe_against

    kings_ace = rank_value([13, 13, 14, 8, 4])
    kings_queen = rank_value([13, 13, 12, 8, 4])
    kings_ace_nine = rank_value([13, 13, 14, 9, 4])
    assert deciding_kickers(kings_ace, [kings_queen]) == (14,)
    assert describe_against(kings_ace, [kings_queen]) == "Pair of kings, kicker ace"
    assert describe_against(kings_queen, [kings_ace]) == "Pair of kings, kicker queen"
    assert describe_against(kings_ace_nine, [kings_ace]) == "Pair of kings, kickers ace-nine"
    assert describe_against(kings_ace, [kings_ace]) == "Pair of kings"  # a split
    assert describe_against(kings_ace, [rank_value([12, 12, 14, 8, 4])]) == "Pair of kings"
    flush = rank_value([14, 11, 8, 5, 2], flush=True)
    assert describe_against(flush, [rank_value([14, 10, 8, 5, 2], flush=True)]) == (
        "Flush, ace high, kicker jack")
    two_pair = rank_value([14, 14, 5, 5, 12])
    assert describe_against(two_pair, [rank_value([14, 14, 5, 5, 9])]) == (
        "Two pair, aces and fives, kicker queen")
    straight = rank_value([9, 8, 7, 6, 5])
    assert describe_against(straight, [straight, rank_value([8, 7, 6, 5, 4])]) == (
        "Straight, nine high")
