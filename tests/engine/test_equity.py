"""Tests for bot.engine.equity: exact shares on hand-computed cases, hi-lo splits,
agreement with a direct enumeration, and the Monte Carlo estimate and its stderr."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.equity import MIN_SAMPLES, Equity, equity
from bot.engine.evaluate import best_high, best_low, high_value, low_value
from bot.engine.variants import VARIANTS, HandRule

OMAHA = VARIANTS["omaha"]
HILO = VARIANTS["omaha_hilo"]


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def board_shares(
    holes: Sequence[Sequence[Card]], full: Sequence[Card], hi_lo: bool, exact_hands: bool
) -> list[float]:
    """Each player's share of the pot on one complete board, by RULES.md section 6."""
    if exact_hands:
        highs = [best_high(h, full, HandRule.OMAHA).value for h in holes]
        made = [best_low(h, full) for h in holes] if hi_lo else []
        lows = [0 if m is None else m.value for m in made] or [0] * len(holes)
    else:
        highs = [high_value(h, full, HandRule.OMAHA) for h in holes]
        lows = [low_value(h, full) or 0 for h in holes] if hi_lo else [0] * len(holes)
    shares = [0.0] * len(holes)
    top = max(highs)
    winners = [i for i, v in enumerate(highs) if v == top]
    best_low_value = max(lows)
    pot_for_high = 0.5 if best_low_value else 1.0
    for i in winners:
        shares[i] += pot_for_high / len(winners)
    if best_low_value:
        low_winners = [i for i, v in enumerate(lows) if v == best_low_value]
        for i in low_winners:
            shares[i] += 0.5 / len(low_winners)
    return shares


def every_board(
    holes: Sequence[Sequence[Card]], board: Sequence[Card], hi_lo: bool, exact_hands: bool = False
) -> list[list[float]]:
    """The share vector of every completion of the board."""
    used = set(board) | {x for h in holes for x in h}
    rest = [x for x in DECK if x not in used]
    return [
        board_shares(holes, tuple(board) + extra, hi_lo, exact_hands)
        for extra in combinations(rest, 5 - len(board))
    ]


def reference(
    holes: Sequence[Sequence[Card]], board: Sequence[Card], hi_lo: bool, exact_hands: bool = False
) -> list[float]:
    """Enumerate every completion of the board and average each player's share."""
    boards = every_board(holes, board, hi_lo, exact_hands)
    return [sum(b[i] for b in boards) / len(boards) for i in range(len(holes))]


def test_section_6_river_nuts_take_the_whole_pot() -> None:
    """On a complete board the nut hand has equity 1, the other 0."""
    result = equity([c("AsKs2c3d"), c("QhQd7c8d")], c("QsJsTs4h5h"), variant=OMAHA)
    assert result == Equity((1.0, 0.0), True, None, 1, (1.0, 0.0), (0.0, 0.0))


def test_section_6_tied_hands_split_equally() -> None:
    """Same ranks, one card of each suit each (no flush possible): always a chop, 0.5/0.5."""
    result = equity([c("AcKdQhJs"), c("AsKhQdJc")], c("2c7d9h"), variant=OMAHA)
    assert result.exact
    assert result.shares == (0.5, 0.5)
    assert result.samples == 41 * 40 // 2


def test_section_6_suit_symmetric_hands_have_equal_equity() -> None:
    """Hands that swap spades<->hearts into each other, on a board the swap fixes, are 50/50."""
    result = equity([c("AsKsQhJh"), c("AhKhQsJs")], c("2s2h9d"), variant=OMAHA)
    assert result.exact and result.samples == 820
    assert result.shares[0] == pytest.approx(0.5, abs=1e-12)
    assert result.shares[1] == pytest.approx(0.5, abs=1e-12)
    # not a trivial chop: the suits decide some boards
    one_board = equity([c("AsKsQhJh"), c("AhKhQsJs")], c("2s2h9d5s7s"), variant=OMAHA)
    assert one_board.shares == (1.0, 0.0)


def test_section_6_hi_lo_guaranteed_low_and_guaranteed_high_split_half_and_half() -> None:
    """One player always has the only low, the other always the best high: 0.5 each."""
    # low A-8 with the board's 2-3-7 is certain; the kings' trips or better are never beaten
    result = equity([c("Ac8dJdJs"), c("KcKsQdQc")], c("2d3c7hKh"), variant=HILO)
    assert result.exact and result.samples == 52 - 12
    assert result.shares == (0.5, 0.5)
    assert result.scoop == (0.0, 0.0) and result.split == (1.0, 1.0)


def test_section_6_hi_lo_without_a_low_the_high_takes_all() -> None:
    """With no qualifying low the high (a king-high straight) scoops the whole pot."""
    result = equity([c("AhAs3c4d"), c("KdQc5h6s")], c("Kh9s9dTcJh"), variant=HILO)
    assert result.shares == (0.0, 1.0)


def test_section_6_hi_lo_quartered_pot() -> None:
    """Two wheels tie for the low and the high goes to quads: 1/4, 1/4, 1/2."""
    holes = [c("4s5hQcJd"), c("4c5dTh9s"), c("KdKh8s8c")]
    result = equity(holes, c("Ah2c3dKcKs"), variant=HILO)
    assert result.shares == (0.25, 0.25, 0.5)


def test_section_6_hi_lo_scoop_needs_both_halves() -> None:
    """A hand with the best high and the only low takes the whole pot."""
    result = equity([c("Ac2c9h9d"), c("KsQsJhTh")], c("3c4c5c8d2s"), variant=HILO)
    assert result.shares == (1.0, 0.0)
    assert result.scoop == (1.0, 0.0) and result.split == (0.0, 0.0)


@pytest.mark.parametrize("hi_lo", [False, True])
def test_exact_equity_matches_a_direct_enumeration_on_random_turns_and_flops(
    hi_lo: bool,
) -> None:
    """Rank-key caching and flush handling give exactly the shares of a plain enumeration."""
    rng = random.Random(11 if hi_lo else 12)
    for _ in range(12):
        players = rng.randint(2, 6)
        hole_size = rng.choice([4, 5, 6])
        board_size = rng.choice([3, 4, 4])
        if players * hole_size + board_size > 44:
            players = 2
        cards = rng.sample(DECK, players * hole_size + board_size)
        holes = [tuple(cards[i * hole_size : (i + 1) * hole_size]) for i in range(players)]
        board = tuple(cards[players * hole_size :])
        result = equity(holes, board, variant=HILO if hi_lo else OMAHA)
        expected = reference(holes, board, hi_lo)
        assert result.exact and result.stderr is None
        assert list(result.shares) == pytest.approx(expected, abs=1e-12)
        assert sum(result.shares) == pytest.approx(1.0, abs=1e-12)
        boards = every_board(holes, board, hi_lo)
        for i in range(players):
            scoops = sum(b[i] == 1 for b in boards) / len(boards)
            splits = sum(0 < b[i] < 1 for b in boards) / len(boards)
            assert (result.scoop[i], result.split[i]) == pytest.approx((scoops, splits))


def test_exact_equity_matches_the_made_hand_evaluator_on_a_turn() -> None:
    """Against best_high/best_low (every 2 + 3 combination) on a hi-lo turn with a flush draw."""
    holes = [c("AhKh2c3d"), c("QsQd4h5h"), c("7c8c9dTd")]
    board = c("6h7hJc2s")
    result = equity(holes, board, variant=HILO)
    assert list(result.shares) == pytest.approx(
        reference(holes, board, True, exact_hands=True), abs=1e-12
    )


def test_dead_cards_are_not_dealt() -> None:
    """Known dead cards change the run-outs: the only out is dead, so the underdog has 0."""
    holes = [c("AsAd2c3c"), c("KsKd4c5c")]
    board = c("AhKh9d7s")  # aces full needs nothing; kings need the last king, quads
    live = equity(holes, board, variant=OMAHA)
    assert live.shares[1] > 0
    dead = equity(holes, board, dead=c("Kc"), variant=OMAHA)
    assert dead.shares == (1.0, 0.0)
    assert dead.samples == live.samples - 1


def test_monte_carlo_estimate_is_within_a_few_stderr_of_the_exact_flop_value() -> None:
    """The estimate on a flop lands within 4 standard errors of the enumeration."""
    holes = [c("AsKsQhJh"), c("9c9d8h7h"), c("Ac2d3s4c")]
    board = c("Th6h2s")
    for hi_lo in (False, True):
        exact = equity(holes, board, variant=HILO if hi_lo else OMAHA)
        estimate = equity(
            holes, board, variant=HILO if hi_lo else OMAHA, monte_carlo=True, rng=random.Random(7),
            target_stderr=0.01,
        )
        assert not estimate.exact and estimate.stderr is not None
        assert estimate.stderr <= 0.01
        for e, m in zip(exact.shares, estimate.shares, strict=True):
            assert abs(e - m) <= 4 * estimate.stderr
        assert sum(estimate.shares) == pytest.approx(1.0, abs=1e-9)


def test_preflop_monte_carlo_reaches_the_target_stderr() -> None:
    """Preflop the estimate stops once its largest per-player standard error is under target."""
    holes = [c("AsAhKsKh"), c("7c8c9dTd")]
    result = equity(holes, rng=random.Random(3), variant=OMAHA)
    assert not result.exact
    assert result.stderr is not None and result.stderr <= 0.005
    assert result.samples >= MIN_SAMPLES
    assert sum(result.shares) == pytest.approx(1.0, abs=1e-9)
    # double-suited aces and kings are a favourite against a rundown, not a lock
    assert 0.55 < result.shares[0] < 0.75
    # the same seed gives the same estimate
    assert equity(holes, rng=random.Random(3), variant=OMAHA) == result


def test_six_players_hi_lo_preflop_estimate() -> None:
    """Six 4-card hands preflop, hi-lo: shares sum to 1, stderr meets the target."""
    cards = random.Random(8).sample(DECK, 24)
    holes = [cards[i * 4 : i * 4 + 4] for i in range(6)]
    result = equity(holes, variant=HILO, rng=random.Random(8), target_stderr=0.01)
    assert len(result.shares) == 6 and all(s >= 0 for s in result.shares)
    assert sum(result.shares) == pytest.approx(1.0, abs=1e-9)
    assert result.stderr is not None and result.stderr <= 0.01


def test_preflop_symmetric_hands_estimate_near_half() -> None:
    """Suit-swapped hands preflop: the estimate of each is 0.5 within 4 standard errors."""
    result = equity([c("AsKsQhJh"), c("AhKhQsJs")], rng=random.Random(5), target_stderr=0.01,
                    variant=OMAHA)
    assert result.stderr is not None
    assert abs(result.shares[0] - 0.5) <= 4 * result.stderr


def test_max_samples_caps_the_estimate() -> None:
    """An unreachable target stops at max_samples and reports the stderr reached."""
    result = equity(
        [c("AsAhKsKh"), c("7c8c9dTd")], target_stderr=1e-6, max_samples=2_000, rng=random.Random(1),
        variant=OMAHA,
    )
    assert result.samples == 2_000
    assert result.stderr is not None and result.stderr > 1e-6


def test_bad_input_is_refused() -> None:
    """One player, wrong hole sizes, a long board or a repeated card raise ValueError."""
    with pytest.raises(ValueError, match="two players"):
        equity([c("AsAhKsKh")], variant=OMAHA)
    with pytest.raises(ValueError, match="4, 5 or 6"):
        equity([c("AsAhKs"), c("7c8c9dTd")], variant=OMAHA)
    with pytest.raises(ValueError, match="at most 5"):
        equity([c("AsAhKsKh"), c("7c8c9dTd")], c("2c3c4c5c6c7d"), variant=OMAHA)
    with pytest.raises(ValueError, match="max_samples"):
        equity([c("AsAhKsKh"), c("7c8c9dTd")], max_samples=10, variant=OMAHA)
    with pytest.raises(ValueError, match="twice") as info:
        equity([c("AsAhKsKh"), c("As8c9dTd")], variant=OMAHA)
    assert "As" not in str(info.value)
