"""Texas Hold'em all-in equity: the counted classes equal a plain deal of every board."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.equity import equity
from bot.engine.evaluate import high_value
from bot.engine.variants import VARIANTS, HandRule

HOLDEM = VARIANTS["holdem"]


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def every_board(holes: Sequence[Sequence[Card]], board: Sequence[Card],
                dead: Sequence[Card] = ()) -> list[list[float]]:
    """Each player's share on every completion of the board, dealt one by one."""
    used = set(board) | set(dead) | {x for h in holes for x in h}
    rest = [x for x in DECK if x not in used]
    out = []
    for extra in combinations(rest, 5 - len(board)):
        full = (*board, *extra)
        values = [high_value(h, full, HandRule.HOLDEM) for h in holes]
        winners = [i for i, v in enumerate(values) if v == max(values)]
        out.append([1 / len(winners) if i in winners else 0.0 for i in range(len(holes))])
    return out


def check_against_every_board(holes: Sequence[Sequence[Card]], board: Sequence[Card],
                              dead: Sequence[Card] = ()) -> None:
    result = equity(holes, board, variant=HOLDEM, dead=dead)
    boards = every_board(holes, board, dead)
    assert result.exact and result.stderr is None and result.samples == len(boards)
    for i in range(len(holes)):
        assert result.shares[i] == pytest.approx(sum(b[i] for b in boards) / len(boards),
                                                 abs=1e-12)
        assert result.scoop[i] == pytest.approx(sum(b[i] == 1 for b in boards) / len(boards))
        assert result.split[i] == pytest.approx(sum(0 < b[i] < 1 for b in boards) / len(boards))


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_random_flops_turns_and_rivers(board_size: int) -> None:
    """2 to 9 players on random boards: exactly the shares of a plain enumeration."""
    rng = random.Random(board_size)
    for _ in range(25):
        players = rng.randint(2, 9)
        cards = rng.sample(DECK, 2 * players + board_size)
        holes = [cards[2 * i: 2 * i + 2] for i in range(players)]
        check_against_every_board(holes, cards[2 * players:])


def test_preflop_with_suited_hands_and_dead_cards() -> None:
    """Preflop (five cards to come: the flush classes of every suit), 28 cards left to
    deal from so that the plain enumeration stays short (98,280 boards a case)."""
    rng = random.Random(4)
    cases: list[list[Sequence[Card]]] = [[c("AsKs"), c("QhJh"), c("7h7d")],
                                         [c("AsAh"), c("KsKh")]]
    for _ in range(3):
        players = rng.randint(2, 6)
        cards = rng.sample(DECK, 2 * players)
        cases.append([cards[2 * i: 2 * i + 2] for i in range(players)])
    for holes in cases:
        live = {x for h in holes for x in h}
        dead = rng.sample([x for x in DECK if x not in live], 52 - len(live) - 28)
        check_against_every_board(holes, (), dead)


def test_flop_with_flush_draws_for_several_players() -> None:
    """Three to a suit on the flop: two players draw to flushes of one suit, one is made."""
    check_against_every_board([c("AhKd"), c("QhJh"), c("9h8h"), c("AcAd")], c("2h5h9c"))
    check_against_every_board([c("AhKh"), c("QhJh")], c("2h5h9h"))


def test_section_9_a_board_that_plays_splits() -> None:
    """On a royal board every hand splits; with one card to come the tie is likely."""
    river = equity([c("2c3d"), c("4h5s")], c("AsKsQsJsTs"), variant=HOLDEM)
    assert river.shares == (0.5, 0.5) and river.split == (1.0, 1.0)
    turn = equity([c("2c3d"), c("2d3c")], c("AsKdQhJc"), variant=HOLDEM)
    assert turn.shares == (0.5, 0.5)


def test_heads_up_preflop_is_exact_over_all_boards() -> None:
    """Aces against kings: all C(48, 5) boards, shares summing to one, aces about 4 to 1."""
    result = equity([c("AsAh"), c("KdKc")], variant=HOLDEM)
    assert result.exact and result.samples == 1_712_304
    assert sum(result.shares) == pytest.approx(1.0, abs=1e-12)
    assert 0.80 < result.shares[0] < 0.83


def test_holdem_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="2 hole cards"):
        equity([c("AsAhKs"), c("7c8c")], variant=HOLDEM)
    with pytest.raises(ValueError, match="always exact"):
        equity([c("AsAh"), c("7c8c")], variant=HOLDEM, monte_carlo=True)
    with pytest.raises(ValueError, match="twice"):
        equity([c("AsAh"), c("As8c")], variant=HOLDEM)
