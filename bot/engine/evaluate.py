"""Omaha hand evaluation: high hands and the 8-or-better low.

The Omaha rule (RULES.md section 1): every hand is made of exactly two hole
cards and exactly three board cards, for the high and for the low. Hole hands
have 4, 5 or 6 cards; the board has 3, 4 or 5 cards.

Values
------
:func:`high_value` returns an ``int``; a higher value is a better hand and
equal values tie. The value is ``category << 20`` plus up to five 4-bit rank
fields (the ranks that decide ties, most important first; ace = 14, and 5 for
the top of the wheel A-2-3-4-5). Categories, low to high: 0 high card, 1 pair,
2 two pair, 3 three of a kind, 4 straight, 5 flush, 6 full house, 7 four of a
kind, 8 straight flush.

:func:`low_value` returns an ``int`` where, as for the high, HIGHER IS BETTER,
or ``None`` when no 8-or-better low can be made. A low is five distinct ranks
of 8 or lower (ace low); straights and flushes do not count against it. With
``mask`` the set of its ranks as bits (ace = bit 0, two = bit 1, ..., eight =
bit 7), comparing two lows from the highest card down is comparing their masks
as integers (smaller is better), so the value is ``256 - mask``: the wheel
5-4-3-2-A is 225, the worst low 8-7-6-5-4 is 8.

:func:`best_high` and :func:`best_low` (which say which five cards play) try
every 2 + 3 combination; they are meant for showdowns, not for simulation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.engine.cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS, Card

__all__ = [
    "MadeHand",
    "best_high",
    "best_low",
    "describe_high",
    "describe_low",
    "hand_label",
    "high_value",
    "low_value",
]

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

HOLE_SIZES = (4, 5, 6)
BOARD_SIZES = (3, 4, 5)


@dataclass(frozen=True)
class MadeHand:
    """A hand made of two hole cards and three board cards.

    ``cards`` are the five cards used, best first (for a low: highest low card
    first, as in the description ``Low 7-5-4-2-A``).
    """

    value: int
    cards: tuple[Card, ...]
    hole_used: tuple[Card, Card]
    description: str

    def __repr__(self) -> str:
        return f"MadeHand({self.description!r}, {' '.join(map(str, self.cards))})"


# ---------------------------------------------------------------------------
# Five-card values from ranks (the single source of truth for hand order)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(distinct_desc: Sequence[int]) -> int:
    """The top rank of a straight made by five distinct ranks, or 0."""
    if len(distinct_desc) != 5:
        return 0
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if list(distinct_desc) == [14, 5, 4, 3, 2]:
        return 5
    return 0


def rank_value(ranks: Sequence[int], flush: bool = False) -> int:
    """The value of five cards given their ranks (2..14) and whether they are suited."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # groups ordered by (count, rank), biggest first
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    if shape[0] == 1:
        top = _straight_top(order)
        if top:
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [top])
        return _pack(FLUSH if flush else HIGH_CARD, order)
    if flush:
        raise ValueError("a flush cannot hold two cards of the same rank")
    if shape[0] == 4:
        return _pack(QUADS, order)
    if shape[0] == 3:
        return _pack(FULL_HOUSE if shape[1] == 2 else TRIPS, order)
    if shape[1] == 2:
        return _pack(TWO_PAIR, order)
    return _pack(PAIR, order)


def five_value(cards: Sequence[Card]) -> int:
    """The high value of exactly five cards."""
    suit = cards[0].suit
    flush = all(c.suit == suit for c in cards)
    return rank_value([c.rank for c in cards], flush)


# ---------------------------------------------------------------------------
# Descriptions


def _name(rank: int) -> str:
    return RANK_NAMES[rank]


def describe_high(value: int) -> str:
    """``"Full house, kings full of sevens"`` for a :func:`high_value` value."""
    category = value >> 20
    r = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    if category == STRAIGHT_FLUSH:
        if r[0] == 14:
            return "Royal flush"
        return f"Straight flush, {_name(r[0])} high"
    if category == QUADS:
        return f"Four of a kind, {RANK_PLURALS[r[0]]}"
    if category == FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    if category == FLUSH:
        return f"Flush, {_name(r[0])} high"
    if category == STRAIGHT:
        return f"Straight, {_name(r[0])} high"
    if category == TRIPS:
        return f"Three of a kind, {RANK_PLURALS[r[0]]}"
    if category == TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    if category == PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}"
    return f"High card, {_name(r[0])}"


def _low_rank_char(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANK_CHARS[low_rank - 2]


def describe_low(value: int) -> str:
    """``"Low 7-5-4-2-A"`` for a :func:`low_value` value (highest card first)."""
    mask = 256 - value
    ranks = [bit + 1 for bit in range(7, -1, -1) if mask >> bit & 1]
    return "Low " + "-".join(_low_rank_char(r) for r in ranks)


# ---------------------------------------------------------------------------
# Input checks


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if len(hole) not in HOLE_SIZES:
        raise ValueError(f"an Omaha hand has 4, 5 or 6 hole cards, not {len(hole)}")
    if len(board) not in BOARD_SIZES:
        raise ValueError(f"a hand is evaluated with 3, 4 or 5 board cards, not {len(board)}")
    if len({id(c) for c in hole} | {id(c) for c in board}) != len(hole) + len(board):
        raise ValueError("the same card appears twice")


# ---------------------------------------------------------------------------
# Showdown helpers: which cards play


def _order_high(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
    """Order five cards best first: by group size then rank; straights from the top."""
    category = value >> 20
    if category in (STRAIGHT, STRAIGHT_FLUSH) and (value >> 16) & 15 == 5:
        # the wheel: 5-4-3-2-A
        return tuple(sorted(cards, key=lambda c: (c.rank % 14, c.index), reverse=True))
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    return tuple(sorted(cards, key=lambda c: (counts[c.rank], c.rank, c.index), reverse=True))


def best_high(hole: Sequence[Card], board: Sequence[Card]) -> MadeHand:
    """The best high hand with exactly two hole cards and three board cards."""
    _check(hole, board)
    best: tuple[int, tuple[Card, Card], tuple[Card, ...]] | None = None
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five: tuple[Card, ...] = pair + triple
            value = five_value(five)
            if best is None or value > best[0]:
                best = (value, pair, five)
    assert best is not None
    value, pair, five = best
    return MadeHand(value, _order_high(five, value), (pair[0], pair[1]), describe_high(value))


def _low_rank(c: Card) -> int:
    return 1 if c.rank == 14 else c.rank


def _low_mask(cards: Sequence[Card]) -> int | None:
    """The low-rank mask of five cards, or None if they are not an 8-or-better low."""
    mask = 0
    for c in cards:
        r = _low_rank(c)
        if r > 8 or mask >> (r - 1) & 1:
            return None
        mask |= 1 << (r - 1)
    return mask


def best_low(hole: Sequence[Card], board: Sequence[Card]) -> MadeHand | None:
    """The best 8-or-better low with exactly two hole and three board cards, or None."""
    _check(hole, board)
    best: tuple[int, tuple[Card, Card], tuple[Card, ...]] | None = None
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five: tuple[Card, ...] = pair + triple
            mask = _low_mask(five)
            if mask is None:
                continue
            value = 256 - mask
            if best is None or value > best[0]:
                best = (value, pair, five)
    if best is None:
        return None
    value, pair, five = best
    ordered = tuple(sorted(five, key=lambda c: (_low_rank(c), c.index), reverse=True))
    return MadeHand(value, ordered, (pair[0], pair[1]), describe_low(value))


def hand_label(hole: Sequence[Card], board: Sequence[Card], hi_lo: bool) -> str:
    """What a player holds: ``"Flush, ace high"``; hi-lo adds ``"; Low 7-5-4-2-A"`` or
    ``"; no low"``."""
    high = describe_high(high_value(hole, board))
    if not hi_lo:
        return high
    low = low_value(hole, board)
    return f"{high}; {'no low' if low is None else describe_low(low)}"


# ---------------------------------------------------------------------------
# Values (straightforward reference implementation)


def high_value(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The best Omaha high value: exactly 2 hole + 3 board cards; higher is better."""
    _check(hole, board)
    return max(
        five_value(pair + triple)
        for pair in combinations(tuple(hole), 2)
        for triple in combinations(tuple(board), 3)
    )


def low_value(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """The best 8-or-better low value (higher is better), or None without a low."""
    _check(hole, board)
    best = 0
    for pair in combinations(tuple(hole), 2):
        for triple in combinations(tuple(board), 3):
            mask = _low_mask(pair + triple)
            if mask is not None and 256 - mask > best:
                best = 256 - mask
    return best or None
