"""Hand evaluation: high hands and the 8-or-better low.

How a hand is made is the variant's :class:`~bot.engine.variants.HandRule`,
which :func:`high_value`, :func:`best_high` and :func:`hand_label` take:

* the Omaha rule (RULES.md section 1): every hand is made of exactly two hole
  cards and exactly three board cards, for the high and for the low. Hole
  hands have 4, 5 or 6 cards; the board has 3, 4 or 5 cards. The low
  (:func:`low_value`, :func:`best_low`) is an Omaha hi-lo hand's only;
* the Texas Hold'em rule (RULES.md section 9): the best five of the two hole
  cards and the board, using two, one or no hole cards
  (:mod:`bot.engine.holdem_eval`). High only.

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

Speed
-----
:func:`high_value` and :func:`low_value` are table driven (see
``bot/engine/eval_tables.py``): per board rank multiset, one table gives the
best non-flush value of every pair of hole ranks, so a 4-card hand is six
lookups; flushes (three board and two hole cards of one suit) are detected with
a few integer operations and evaluated apart; a low is one lookup indexed by the
board's and the hand's low-rank masks. Tables are built on first use (all of
them at once: :func:`warm_tables`, about 0.2-0.4 s, 15 MB). These two check
card counts but, for speed, not that the cards are distinct (cards come from
one deck); the made-hand functions check.

:func:`best_high` and :func:`best_low` (which say which five cards play) try
every 2 + 3 combination; they are meant for showdowns, not for simulation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.engine import eval_tables, holdem_eval
from bot.engine.cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS, Card
from bot.engine.eval_tables import (
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    rank_value,
)
from bot.engine.variants import HandRule, Variant

__all__ = [
    "MadeHand",
    "best_high",
    "best_low",
    "deciding_kickers",
    "describe_against",
    "describe_high",
    "describe_low",
    "hand_label",
    "high_value",
    "low_value",
    "warm_tables",
]

HOLE_SIZES = (4, 5, 6)
BOARD_SIZES = (3, 4, 5)
_HOLDEM = HandRule.HOLDEM


@dataclass(frozen=True)
class MadeHand:
    """The five cards a hand plays: two hole cards and three board cards (Omaha), or
    two, one or no hole cards and the rest from the board (Texas Hold'em).

    ``cards`` are the five cards used, best first (for a low: highest low card
    first, as in the description ``Low 7-5-4-2-A``); ``hole_used`` the hole cards
    among them.
    """

    value: int
    cards: tuple[Card, ...]
    hole_used: tuple[Card, ...]
    description: str

    def __repr__(self) -> str:  # hole cards never appear in a repr (logs)
        return f"<MadeHand value={self.value:#x}, cards hidden>"


# ---------------------------------------------------------------------------
# Five-card values (rank_value in eval_tables is the single definition of hand order)


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


#: The ranks of a value that count, by category (a pair: itself and three kickers); the
#: description names the first (two for two pair), the rest are kickers.
_COUNTED = {QUADS: 2, TRIPS: 3, TWO_PAIR: 3, PAIR: 4, FLUSH: 5, 0: 5}
_NAMED = {TWO_PAIR: 2}


def _ranks(value: int) -> list[int]:
    return [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]


def deciding_kickers(value: int, rivals: Iterable[int]) -> tuple[int, ...]:
    """The kickers of ``value`` (ranks, most important first) that tell it apart from a
    rival of the same description ("Pair of kings" against "Pair of kings"): up to the
    first one where the closest such rival differs (RULES.md 1: ties are broken by
    kickers). None when no rival has the same description, or a rival ties it exactly."""
    category = value >> 20
    counted = _COUNTED.get(category)
    if counted is None:
        return ()
    named = _NAMED.get(category, 1)
    mine = _ranks(value)
    depth = named
    for other in rivals:
        theirs = _ranks(other)
        if other == value or other >> 20 != category or theirs[:named] != mine[:named]:
            continue
        depth = max(depth, next(i for i in range(named, counted) if theirs[i] != mine[i]) + 1)
    return tuple(mine[named:depth])


def describe_against(value: int, rivals: Iterable[int] = ()) -> str:
    """:func:`describe_high`, naming the kickers that decide against ``rivals`` (the other
    hands shown): ``"Pair of kings, kicker ace"``, ``"Flush, ace high, kickers king-nine"``."""
    kickers = deciding_kickers(value, rivals)
    text = describe_high(value)
    if not kickers:
        return text
    word = "kicker" if len(kickers) == 1 else "kickers"
    return f"{text}, {word} {'-'.join(_name(r) for r in kickers)}"


def _low_rank_char(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANK_CHARS[low_rank - 2]


def describe_low(value: int) -> str:
    """``"Low 7-5-4-2-A"`` for a :func:`low_value` value (highest card first)."""
    mask = 256 - value
    ranks = [bit + 1 for bit in range(7, -1, -1) if mask >> bit & 1]
    return "Low " + "-".join(_low_rank_char(r) for r in ranks)


def warm_tables() -> None:
    """Build every lookup table now (for instance at start-up) instead of on first use."""
    eval_tables.warm()
    holdem_eval.warm()


# ---------------------------------------------------------------------------
# Input checks


def _check(hole: Sequence[Card], board: Sequence[Card], rule: HandRule = HandRule.OMAHA) -> None:
    if rule is _HOLDEM and len(hole) != 2:
        raise ValueError(f"a Texas Hold'em hand has 2 hole cards, not {len(hole)}")
    if rule is not _HOLDEM and len(hole) not in HOLE_SIZES:
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


def best_high(hole: Sequence[Card], board: Sequence[Card], rule: HandRule) -> MadeHand:
    """The best high hand: exactly two hole cards and three board cards (Omaha), or the
    best five of them all (Texas Hold'em: :func:`_best_of_all`)."""
    if rule is _HOLDEM:
        return _best_of_all(hole, board)
    _check(hole, board)
    best: tuple[int, tuple[Card, ...], tuple[Card, ...]] | None = None
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five: tuple[Card, ...] = pair + triple
            value = five_value(five)
            if best is None or value > best[0]:
                best = (value, pair, five)
    assert best is not None
    value, used, cards = best
    return MadeHand(value, _order_high(cards, value), used, describe_high(value))


def _best_of_all(hole: Sequence[Card], board: Sequence[Card]) -> MadeHand:
    """The best five of two hole cards and the board. Among equal fives, the one with the
    fewest hole cards plays (a board that plays is shown as the board), then the first
    in board order."""
    _check(hole, board, _HOLDEM)
    mine = set(hole)
    best: tuple[tuple[int, int], tuple[Card, ...]] | None = None
    for five in combinations((*board, *hole), 5):
        score = (five_value(five), -len(mine.intersection(five)))
        if best is None or score > best[0]:
            best = (score, five)
    assert best is not None
    (value, _), cards = best
    used = tuple(c for c in hole if c in cards)
    return MadeHand(value, _order_high(cards, value), used, describe_high(value))


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


def hand_label(hole: Sequence[Card], board: Sequence[Card], variant: Variant,
               rivals: Iterable[int] = ()) -> str:
    """What a player holds: ``"Flush, ace high"`` (with the kickers that decide against the
    ``rivals``' high values: :func:`describe_against`); hi-lo adds ``"; Low 7-5-4-2-A"`` or
    ``"; no low"``."""
    high = describe_against(high_value(hole, board, variant.rule), rivals)
    if not variant.hi_lo:
        return high
    low = low_value(hole, board)
    return f"{high}; {'no low' if low is None else describe_low(low)}"


# ---------------------------------------------------------------------------
# Values (the fast path: see eval_tables for the tables)

_PRIME = eval_tables.PRIME
_NIBBLE = eval_tables.NIBBLE
_BOARDS = eval_tables.BOARDS
_LOWBIT = eval_tables.LOWBIT
_LOW = eval_tables.LOW
_SUIT_CHARS = "cdhs"
_HOLDEM_VALUE = holdem_eval.holdem_value


def _flush_high(hole: Sequence[Card], board: Sequence[Card], flush_bits: int) -> int:
    """Best flush when a suit has three board and two hole cards (``flush_bits`` has bit
    ``4 * s + 3`` set for each such suit s; only one suit can have three of five board cards)."""
    suit = _SUIT_CHARS[(flush_bits.bit_length() - 4) // 4]
    hole_bits = [1 << c.rank for c in hole if c.suit == suit]
    board_mask = 0
    for c in board:
        if c.suit == suit:
            board_mask |= 1 << c.rank
    return eval_tables.flush_value(board_mask, hole_bits)


def high_value(hole: Sequence[Card], board: Sequence[Card], rule: HandRule) -> int:
    """The best high value under ``rule``; higher is better. Omaha: exactly 2 hole + 3 board
    cards (below); Texas Hold'em: :func:`~bot.engine.holdem_eval.holdem_value`.

    The cards must be distinct (they come from one deck); only the counts are checked.
    """
    if rule is _HOLDEM:
        return _HOLDEM_VALUE(hole, board)
    prime = _PRIME
    nibble = _NIBBLE
    if len(board) == 5:
        b0, b1, b2, b3, b4 = board
        key = prime[b0.rank] * prime[b1.rank] * prime[b2.rank] * prime[b3.rank] * prime[b4.rank]
        flush_bits = (
            nibble[b0.suit] + nibble[b1.suit] + nibble[b2.suit] + nibble[b3.suit]
            + nibble[b4.suit] + 0x5555
        ) & 0x8888  # fmt: skip
    else:
        if len(board) not in BOARD_SIZES:
            _check(hole, board)
        key = 1
        nibbles = 0x5555
        for c in board:
            key *= prime[c.rank]
            nibbles += nibble[c.suit]
        flush_bits = nibbles & 0x8888
    try:
        table = _BOARDS[key]
    except KeyError:
        table = eval_tables.board_table(key, [c.rank for c in board])
    if len(hole) == 4:
        h0, h1, h2, h3 = hole
        ra = h0.rank
        rb = h1.rank
        rc = h2.rank
        rd = h3.rank
        a13 = ra * 13
        b13 = rb * 13
        c13 = rc * 13
        best = max(
            table[a13 + rb], table[a13 + rc], table[a13 + rd],
            table[b13 + rc], table[b13 + rd], table[c13 + rd],
        )  # fmt: skip
        if flush_bits:
            flush_bits &= (
                nibble[h0.suit] + nibble[h1.suit] + nibble[h2.suit] + nibble[h3.suit] + 0x6666
            )
    elif len(hole) == 5:
        best, flush_bits = _best_of_five(hole, table, flush_bits)
    elif len(hole) == 6:
        best, flush_bits = _best_of_six(hole, table, flush_bits)
    else:
        _check(hole, board)
        raise AssertionError  # _check raised
    if flush_bits:
        flush = _flush_high(hole, board, flush_bits)
        if flush > best:
            return flush
    return best


# Five and six hole cards: the same as the four-card case in high_value, with 10
# and 15 pairs. Kept unrolled (this is the hot path); ``flush_bits`` comes back
# masked with the hole cards' suits, as in high_value.


def _best_of_five(hole: Sequence[Card], table: Sequence[int], flush_bits: int) -> tuple[int, int]:
    nibble = _NIBBLE
    h0, h1, h2, h3, h4 = hole
    rb = h1.rank
    rc = h2.rank
    rd = h3.rank
    re = h4.rank
    a13 = h0.rank * 13
    b13 = rb * 13
    c13 = rc * 13
    d13 = rd * 13
    best = max(
        table[a13 + rb], table[a13 + rc], table[a13 + rd], table[a13 + re],
        table[b13 + rc], table[b13 + rd], table[b13 + re],
        table[c13 + rd], table[c13 + re], table[d13 + re],
    )  # fmt: skip
    if flush_bits:
        flush_bits &= (
            nibble[h0.suit] + nibble[h1.suit] + nibble[h2.suit] + nibble[h3.suit]
            + nibble[h4.suit] + 0x6666
        )  # fmt: skip
    return best, flush_bits


def _best_of_six(hole: Sequence[Card], table: Sequence[int], flush_bits: int) -> tuple[int, int]:
    nibble = _NIBBLE
    h0, h1, h2, h3, h4, h5 = hole
    rb = h1.rank
    rc = h2.rank
    rd = h3.rank
    re = h4.rank
    rf = h5.rank
    a13 = h0.rank * 13
    b13 = rb * 13
    c13 = rc * 13
    d13 = rd * 13
    e13 = re * 13
    best = max(
        table[a13 + rb], table[a13 + rc], table[a13 + rd], table[a13 + re], table[a13 + rf],
        table[b13 + rc], table[b13 + rd], table[b13 + re], table[b13 + rf],
        table[c13 + rd], table[c13 + re], table[c13 + rf],
        table[d13 + re], table[d13 + rf], table[e13 + rf],
    )  # fmt: skip
    if flush_bits:
        flush_bits &= (
            nibble[h0.suit] + nibble[h1.suit] + nibble[h2.suit] + nibble[h3.suit]
            + nibble[h4.suit] + nibble[h5.suit] + 0x6666
        )  # fmt: skip
    return best, flush_bits


def low_value(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """The best 8-or-better low value (higher is better), or None without a low.

    The cards must be distinct (they come from one deck); only the counts are checked.
    """
    if len(hole) not in HOLE_SIZES or len(board) not in BOARD_SIZES:
        _check(hole, board)
    board_mask = 0
    for c in board:
        board_mask |= _LOWBIT[c.rank]
    hole_mask = 0
    for c in hole:
        hole_mask |= _LOWBIT[c.rank]
    index = board_mask << 8 | hole_mask
    value = _LOW[index]
    if value < 0:
        value = eval_tables.low_fill(index)
    return value or None
