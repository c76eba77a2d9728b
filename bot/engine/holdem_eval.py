"""Texas Hold'em hand evaluation: the best five of the hole and board cards (RULES.md 9).

A player's hand is the best five cards among their two hole cards and the
board (3 to 5 cards), using both hole cards, one or none. Values are those of
:mod:`bot.engine.evaluate` (``category << 20`` plus the deciding ranks, higher
is better), all derived from :func:`~bot.engine.eval_tables.rank_value`, the
single definition of hand order.

How it is fast (pure Python)
----------------------------
Every card adds one integer to a key, ``CARD_KEY[card.index]``: its rank's
``1 << 3 * (rank - 2)`` (13 three-bit counters, bits 0..38) plus its suit's
``1 << 40 + 4 * suit`` (four four-bit counters). Seven additions give the key
of the whole hand.

* A flush: adding ``0x3333`` to the suit counters sets bit 3 of a counter
  exactly when it holds 5 or more cards. With at most seven cards a flush beats
  every hand the other cards could make (quads or a full house beside five
  suited cards would take eight), so the flush's suited ranks alone decide:
  ``FLUSHES[rank bits]``, the best flush or straight flush among them (at most
  C(7, 5) = 21 five-card sets, computed once per rank set).
* Otherwise the rank counters, ``key & RANK_BITS``, are the rank multiset, and
  ``RANKS[multiset]`` its best non-flush value: one dictionary lookup. The
  6,175 five-card multisets are filled at import from ``eval_tables.RANK5``; a
  six- or seven-card multiset is the best of the multisets one card smaller,
  filled on first use (all 18,395 + 49,205 of them by :func:`warm`, about 0.1 s).

Only the card counts are checked (the cards come from one deck), as in
:func:`bot.engine.evaluate.high_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from math import prod

from bot.engine import eval_tables
from bot.engine.cards import DECK, Card

__all__ = [
    "CARD_KEY",
    "FLUSHES",
    "FLUSH_ADD",
    "FLUSH_TEST",
    "RANKS",
    "RANK_BITS",
    "RANK_KEY",
    "SUIT_KEY",
    "flush_value",
    "holdem_value",
    "ranks_value",
    "warm",
]

#: RANK_KEY[rank] for rank 2..14 (indexes 0 and 1 unused): a three-bit counter per rank.
RANK_KEY = (0, 0, *(1 << 3 * (r - 2) for r in range(2, 15)))
RANK_BITS = (1 << 39) - 1
_SUIT_SHIFT = 40
#: SUIT_KEY[suit character]: a four-bit counter per suit above the rank counters.
SUIT_KEY = {s: 1 << (_SUIT_SHIFT + 4 * i) for i, s in enumerate("cdhs")}
#: ``(key + FLUSH_ADD) & FLUSH_TEST`` is non-zero when a suit holds five cards or more.
FLUSH_ADD = 0x3333 << _SUIT_SHIFT
FLUSH_TEST = 0x8888 << _SUIT_SHIFT
#: CARD_KEY[card.index]: the card's rank and suit counters together.
CARD_KEY = tuple(RANK_KEY[c.rank] + SUIT_KEY[c.suit] for c in DECK)

#: Rank multiset key -> best non-flush value of those 5, 6 or 7 cards.
RANKS: dict[int, int] = {
    sum(RANK_KEY[r] for r in five): eval_tables.RANK5[prod(eval_tables.PRIME[r] for r in five)]
    for five in combinations_with_replacement(range(2, 15), 5)
    if five[0] != five[4]
}
#: Rank bits (bit r for rank r) of five to seven suited cards -> their best value.
FLUSHES: dict[int, int] = {}


def ranks_value(key: int) -> int:
    """The best non-flush value of a rank multiset key (5 to 7 cards), kept in ``RANKS``."""
    value = RANKS.get(key)
    if value is None:
        value = 0
        for r in range(2, 15):
            if key >> 3 * (r - 2) & 7:
                smaller = ranks_value(key - RANK_KEY[r])
                if smaller > value:
                    value = smaller
        RANKS[key] = value
    return value


def flush_value(bits: int) -> int:
    """The best flush or straight flush among 5 to 7 suited ranks (bit r for rank r)."""
    value = FLUSHES.get(bits)
    if value is None:
        ranks = [1 << r for r in range(2, 15) if bits >> r & 1]
        value = max(eval_tables.FLUSH5[sum(five)] for five in combinations(ranks, 5))
        FLUSHES[bits] = value
    return value


def _flush(cards: Sequence[Card], key: int) -> int:
    """The value of cards whose key says some suit holds five of them or more."""
    suit = "cdhs"[(((key + FLUSH_ADD) & FLUSH_TEST).bit_length() - _SUIT_SHIFT - 4) // 4]
    bits = 0
    for c in cards:
        if c.suit == suit:
            bits |= 1 << c.rank
    return flush_value(bits)


def holdem_value(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of the best five of two hole cards and 3 to 5 board cards; higher is better.

    The cards must be distinct (they come from one deck); only the counts are checked.
    """
    key_of = CARD_KEY
    if len(board) == 5 and len(hole) == 2:
        h0, h1 = hole
        b0, b1, b2, b3, b4 = board
        key = (
            key_of[h0.index] + key_of[h1.index] + key_of[b0.index] + key_of[b1.index]
            + key_of[b2.index] + key_of[b3.index] + key_of[b4.index]
        )  # fmt: skip
    else:
        if len(hole) != 2:
            raise ValueError(f"a Texas Hold'em hand has 2 hole cards, not {len(hole)}")
        if not 3 <= len(board) <= 5:
            raise ValueError(f"a hand is evaluated with 3, 4 or 5 board cards, not {len(board)}")
        key = 0
        for c in (*hole, *board):
            key += key_of[c.index]
    if (key + FLUSH_ADD) & FLUSH_TEST:
        return _flush((*hole, *board), key)
    try:
        return RANKS[key & RANK_BITS]
    except KeyError:
        return ranks_value(key & RANK_BITS)


def warm() -> None:
    """Fill every six- and seven-card rank multiset now (about 0.1 s) instead of on first use."""
    for n in (6, 7):
        for ranks in combinations_with_replacement(range(2, 15), n):
            if all(ranks[i] != ranks[i + 4] for i in range(n - 4)):
                ranks_value(sum(RANK_KEY[r] for r in ranks))
