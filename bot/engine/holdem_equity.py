"""Texas Hold'em all-in equity, exact: every run-out counted, none dealt one by one.

:func:`holdem_equity` gives each player's expected share of the pot over every
way the rest of the board can come (the best high hand takes the pot, tied
hands split it: RULES.md sections 6 and 9), exactly, from any street: heads-up
preflop that is all C(48, 5) = 1,712,304 boards, in well under half a second.

How: a board's outcome depends only on its ranks unless some player makes a
flush, so the boards are counted in classes instead of dealt:

1. Every multiset of ranks the missing board cards can have (at most 6,175 for
   five cards) is settled once on ranks alone, weighted by the number of boards
   with those ranks: the product over its ranks of C(cards of that rank left,
   times the rank is used).
2. Then the boards where someone makes a flush are counted again, suit by suit.
   A flush in suit s needs the board to hold at least three cards of s, so only
   one suit can make one on a given board, and the classes of different suits
   never overlap. For each number j of the missing cards that are of suit s
   (enough for a player holding some s to reach five suited cards), each set of
   j cards of s left in the deck and each multiset of ranks of the other cards
   (from the three other suits, weighted as in 1) is one class: every player
   with five suited cards there has the flush their suited ranks make, every
   other player the value of step 1, and the class's boards move from the
   outcome of step 1 to this one.

With at most seven cards a flush beats anything else the cards could make
(:mod:`bot.engine.holdem_eval`), so a flush value needs only the suited ranks.
Outcomes are interned share vectors tallied with their board counts
(:mod:`bot.engine.equity_result`). ``tests/engine/test_holdem_equity.py`` compares
the result with a plain deal of every board (flops, turns, rivers, preflops with
dead cards); ``bench/bench_holdem.py`` with phevaluator dealing all 1,712,304.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from bot.engine import eval_tables
from bot.engine.equity_result import Equity, exact_equity
from bot.engine.holdem_eval import RANK_KEY, flush_value, ranks_value

__all__ = ["holdem_equity"]

_C_RANK = eval_tables.C_RANK
_C_SUIT = eval_tables.C_SUIT


class _Tally:
    """Boards per outcome; an outcome is the tuple of the winners, interned."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.ids: dict[tuple[int, ...], int] = {}
        self.shares: list[tuple[float, ...]] = []
        self.counts: list[int] = []
        #: the outcome "player i alone wins"
        self.alone = [self.intern((i,)) for i in range(players)]

    def intern(self, winners: tuple[int, ...]) -> int:
        oid = self.ids.get(winners)
        if oid is None:
            oid = self.ids[winners] = len(self.shares)
            share = 1.0 / len(winners)
            self.shares.append(tuple(share if i in winners else 0.0 for i in range(self.players)))
            self.counts.append(0)
        return oid

    def settle(self, values: list[int]) -> int:
        best = max(values)
        if values.count(best) == 1:
            return self.alone[values.index(best)]
        return self.intern(tuple(i for i, v in enumerate(values) if v == best))


def _multisets(counts: Sequence[int], size: int) -> list[tuple[int, int]]:
    """``(rank key, boards)`` for every multiset of ``size`` ranks with at most
    ``counts[rank]`` cards of each rank: the boards are the ways to pick those cards."""
    by_size: list[list[tuple[int, int]]] = [[(0, 1)]] + [[] for _ in range(size)]
    for rank in range(2, 15):
        left = counts[rank]
        if not left:
            continue
        grown = [list(found) for found in by_size]
        for k in range(size):
            for key, ways in by_size[k]:
                for used in range(1, min(left, size - k) + 1):
                    grown[k + used].append((key + used * RANK_KEY[rank], ways * comb(left, used)))
        by_size = grown
    return by_size[size]


def holdem_equity(holes: Sequence[Sequence[int]], board: Sequence[int],
                  deck: Sequence[int]) -> Equity:
    """The exact equity of two-card ``holes`` (card indexes) on ``board`` with the
    missing board cards from ``deck`` (every card not known to be out of play)."""
    need = 5 - len(board)
    tally = _Tally(len(holes))
    board_key = sum(RANK_KEY[_C_RANK[c]] for c in board)
    bases = [board_key + RANK_KEY[_C_RANK[a]] + RANK_KEY[_C_RANK[b]] for a, b in holes]
    left = [0] * 15
    for c in deck:
        left[_C_RANK[c]] += 1
    by_ranks: dict[int, tuple[int, list[int]]] = {}
    for key, ways in _multisets(left, need):
        values = [ranks_value(base + key) for base in bases]
        oid = tally.settle(values)
        tally.counts[oid] += ways
        by_ranks[key] = (oid, values)
    for suit in range(4):
        _count_flushes(tally, by_ranks, holes, board, deck, suit, left)
    return exact_equity(tally.shares, tally.counts, tally.players)


def _count_flushes(
    tally: _Tally,
    by_ranks: dict[int, tuple[int, list[int]]],
    holes: Sequence[Sequence[int]],
    board: Sequence[int],
    deck: Sequence[int],
    suit: int,
    left: Sequence[int],
) -> None:
    """Move the boards where someone makes a flush in ``suit`` to their outcome (step 2)."""
    need = 5 - len(board)
    board_bits = sum(1 << _C_RANK[c] for c in board if _C_SUIT[c] == suit)
    on_board = bin(board_bits).count("1")
    hole_bits = [sum(1 << _C_RANK[c] for c in hole if _C_SUIT[c] == suit) for hole in holes]
    held = [bin(bits).count("1") for bits in hole_bits]
    suited_left = [_C_RANK[c] for c in deck if _C_SUIT[c] == suit]
    others = list(left)
    for rank in suited_left:
        others[rank] -= 1
    counts = tally.counts
    settle = tally.settle
    for j in range(max(0, 5 - on_board - max(held)), min(need, len(suited_left)) + 1):
        off_suit = _multisets(others, need - j)
        flushers = [i for i in range(len(holes)) if held[i] + on_board + j >= 5]
        for suited in combinations(suited_left, j):
            bits = board_bits + sum(1 << rank for rank in suited)
            key = sum(RANK_KEY[rank] for rank in suited)
            flushes = [(i, flush_value(bits | hole_bits[i])) for i in flushers]
            for off_key, ways in off_suit:
                before, values = by_ranks[key + off_key]
                values = values.copy()
                for i, value in flushes:
                    values[i] = value
                after = settle(values)
                if after != before:
                    counts[after] += ways
                    counts[before] -= ways
