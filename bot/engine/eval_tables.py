"""Lookup tables behind the fast Omaha evaluator (shared by evaluate.py and equity.py).

Layout (all built from :func:`rank_value`, the single definition of hand order):

* ``RANK5``: the prime product of five ranks (a rank multiset) -> the non-flush
  value of those five cards. Built at import (6,175 entries, a few ms).
* ``board_table(key, ranks)``: for a board rank multiset (3, 4 or 5 cards, keyed
  by its prime product), a tuple indexed by ``a * 13 + b`` for the ranks a, b
  (2..14) of two hole cards, giving the best non-flush value of those two hole
  cards with any three board cards. Built on first use of each board multiset
  and kept (at most 455 + 1,820 + 6,175 tables, about 15 MB if all are built).
  An Omaha hand is then one lookup per hole pair.
* Flushes are handled apart: a flush needs three board cards and two hole
  cards of one suit. Suit counts are summed in 4-bit fields (``NIBBLE``) and
  ``(sum + 0x5555) & 0x8888`` is non-zero exactly when some field is >= 3, so
  the common case costs one addition and one test. ``flush_best`` caches the
  best flush (or straight flush) for a (board suit ranks, hole pair) mask.
* Lows: ``LOW`` indexed by ``board_low_mask << 8 | hole_low_mask`` (ranks A..8
  as bits 0..7) gives the best low value (``256 - mask``) or 0 for no low,
  filled on first use of each entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from operator import itemgetter

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

#: PRIME[rank] for rank 2..14 (indexes 0, 1 unused).
PRIME = (0, 0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: The suit count field of each suit character.
NIBBLE = {"c": 1, "d": 1 << 4, "h": 1 << 8, "s": 1 << 12}
#: The low-rank bit of each rank (ace = bit 0, two = bit 1, ..., eight = bit 7), 0 above 8.
LOWBIT = (0, 0, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 1)

#: Per card index (0..51, ``(rank - 2) * 4 + "cdhs".index(suit)``).
C_RANK = tuple(i // 4 + 2 for i in range(52))
C_SUIT = tuple(i % 4 for i in range(52))
C_PRIME = tuple(PRIME[r] for r in C_RANK)
C_NIBBLE = tuple(1 << (4 * s) for s in C_SUIT)
C_LOWBIT = tuple(LOWBIT[r] for r in C_RANK)
C_RBIT = tuple(1 << r for r in C_RANK)

TABLE_SIZE = 14 * 13 + 14 + 1  # index a * 13 + b for ranks 2..14


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def rank_value(ranks: Sequence[int], flush: bool = False) -> int:
    """The value of five cards given their ranks (2..14) and whether they are suited."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # groups ordered by (count, rank), biggest first
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    if len(order) != 5 and (flush or shape[0] > 4):
        raise ValueError("impossible five cards")
    if shape[0] == 1:
        top = 0
        if order[0] - order[4] == 4:
            top = order[0]
        elif order == [14, 5, 4, 3, 2]:
            top = 5  # the wheel
        if top:
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [top])
        return _pack(FLUSH if flush else HIGH_CARD, order)
    if shape[0] == 4:
        return _pack(QUADS, order)
    if shape[0] == 3:
        return _pack(FULL_HOUSE if shape[1] == 2 else TRIPS, order)
    if shape[1] == 2:
        return _pack(TWO_PAIR, order)
    return _pack(PAIR, order)


def _prime_product(ranks: Sequence[int]) -> int:
    key = 1
    for r in ranks:
        key *= PRIME[r]
    return key


RANK5: dict[int, int] = {
    _prime_product(five): rank_value(five)
    for five in combinations_with_replacement(range(2, 15), 5)
    if five[0] != five[4]
}

#: FLUSH5[mask] for a mask of five distinct rank bits (bit r for rank r).
FLUSH5: dict[int, int] = {
    sum(1 << r for r in five): rank_value(five, flush=True)
    for five in combinations(range(2, 15), 5)
}

#: The 91 unordered hole rank pairs (a <= b); a triple's row lists their values, plus a 0.
PAIRS91 = tuple((a, b) for a in range(2, 15) for b in range(a, 15))
#: Table position a * 13 + b -> position of the pair in PAIRS91 (91: the padding 0).
_SCATTER = [91] * TABLE_SIZE
for _i, (_a, _b) in enumerate(PAIRS91):
    _SCATTER[_a * 13 + _b] = _SCATTER[_b * 13 + _a] = _i
_spread = itemgetter(*_SCATTER)
_TRIPLE_ROWS: dict[int, list[int]] = {}
BOARDS: dict[int, tuple[int, ...]] = {}


def triple_row(key3: int) -> list[int]:
    """The values of a board triple (rank key) with each of the 91 hole rank pairs."""
    row = _TRIPLE_ROWS.get(key3)
    if row is None:
        get = RANK5.get
        row = [get(key3 * PRIME[a] * PRIME[b], 0) for a, b in PAIRS91]
        row.append(0)
        _TRIPLE_ROWS[key3] = row
    return row


def board_table(key: int, ranks: Sequence[int]) -> tuple[int, ...]:
    """The hole-pair table of a board rank multiset (``key`` is its prime product):
    ``table[a * 13 + b]`` is the best non-flush value of hole ranks a, b with three
    of the board's cards."""
    table = BOARDS.get(key)
    if table is None:
        primes = [PRIME[r] for r in ranks]
        rows = [triple_row(k) for k in {a * b * c for a, b, c in combinations(primes, 3)}]
        table = _spread(rows[0] if len(rows) == 1 else list(map(max, *rows)))
        BOARDS[key] = table
    return table


def warm() -> None:
    """Build every board table now (about 0.3 s) instead of on first use."""
    for n in (3, 4, 5):
        for ranks in combinations_with_replacement(range(2, 15), n):
            if n < 5 or ranks[0] != ranks[4]:
                board_table(_prime_product(ranks), ranks)


_FLUSH_BEST: dict[int, int] = {}


def flush_best(board_mask: int, pair_mask: int) -> int:
    """Best flush of two suited hole ranks (``pair_mask``) with three of the board's
    suited ranks (``board_mask``, at least three bits)."""
    key = board_mask << 15 | pair_mask
    best = _FLUSH_BEST.get(key)
    if best is None:
        bits = [1 << r for r in range(2, 15) if board_mask >> r & 1]
        best = max(FLUSH5[pair_mask | a | b | c] for a, b, c in combinations(bits, 3))
        _FLUSH_BEST[key] = best
    return best


def flush_value(board_mask: int, hole_bits: Sequence[int]) -> int:
    """Best flush with two of the suited hole rank bits and three board suited ranks."""
    best = 0
    for i in range(len(hole_bits) - 1):
        a = hole_bits[i]
        for b in hole_bits[i + 1 :]:
            v = flush_best(board_mask, a | b)
            if v > best:
                best = v
    return best


# ---------------------------------------------------------------------------
# Lows

#: LOW[board_mask << 8 | hole_mask]: best low value, 0 for none, -1 not yet computed.
LOW = [-1] * (1 << 16)
_LOWEST3 = [0] * 256
for _m in range(256):
    _bits = [1 << b for b in range(8) if _m >> b & 1]
    _LOWEST3[_m] = sum(_bits[:3]) if len(_bits) >= 3 else 0


def low_fill(index: int) -> int:
    """Compute and store ``LOW[index]``."""
    board, hole = index >> 8, index & 255
    hole_bits = [1 << b for b in range(8) if hole >> b & 1]
    best_mask = 256  # no low
    for a, b in combinations(hole_bits, 2):
        rest = _LOWEST3[board & ~(a | b)]
        if rest:
            mask = a | b | rest
            if mask < best_mask:
                best_mask = mask
    value = 256 - best_mask
    LOW[index] = value
    return value
