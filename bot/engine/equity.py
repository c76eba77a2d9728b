"""All-in equity: each player's expected share of the pot.

:func:`equity` takes the players' hole cards and the board so far, deals the
rest of the board every possible way (or at random) and averages each player's
share of the pot. Texas Hold'em is counted exactly from any street by
:mod:`bot.engine.holdem_equity`; the rest of this docstring is about Omaha:

* high only: the best high hand takes the pot, tied hands split it equally;
* hi-lo (8 or better): the pot is halved between the best high and the best
  qualifying low, each half split equally among its tied winners (a quartered
  pot gives 1/4); when no hand makes a low, the high takes the whole pot
  (RULES.md section 6). Odd chips are ignored: shares are exact fractions.

Exact or estimated
------------------
With three or four board cards out every remaining board is enumerated (at most
C(45, 2) = 990 run-outs) and the result is exact; with five it is trivially
exact. With fewer than three (preflop, or a Courchevel board of one card) the
shares are a Monte Carlo estimate over random boards drawn from the unseen
cards. Sampling stops once the *standard error* is at most ``target_stderr``
(default 0.005, i.e. half a percentage point of the pot): ``stderr`` is the
largest, over the players, of the standard error of that player's share
estimate, sqrt(sample variance of the per-board share / samples). An estimate
is within about 2 standard errors of the exact value 95% of the time. At least
1,000 boards are drawn, at most ``max_samples`` (then ``stderr`` may be above
the target; it is always the figure actually reached).

The generator: ``rng`` is for tests (a seeded ``random.Random``); by default a
``random.Random`` seeded from :mod:`secrets` is used. Equity is information, it
deals no real cards.

How it is fast
--------------
A board's non-flush outcome depends only on its ranks, so each distinct board
rank multiset is evaluated once per call (a few hundred at most on the flop,
at most 6,175 preflop) and every board is reduced to its prime-product rank key
and its suit counts. Boards where a flush is possible for some player (three
board cards and two of that player's hole cards in one suit) are evaluated in
full. Outcomes (share vectors) are interned and tallied, so the per-board work
is a few multiplications and a dictionary lookup.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import Any

from bot.engine import eval_tables
from bot.engine.cards import Card
from bot.engine.equity_result import Equity, average, chances, exact_equity
from bot.engine.holdem_equity import holdem_equity
from bot.engine.variants import HandRule, Variant

__all__ = ["Equity", "equity"]

_HOLE_SIZES = (4, 5, 6)
MIN_SAMPLES = 1_000
DEFAULT_MAX_SAMPLES = 2_000_000
_BATCH = 500

_C_RANK = eval_tables.C_RANK
_C_SUIT = eval_tables.C_SUIT
_C_PRIME = eval_tables.C_PRIME
_C_NIBBLE = eval_tables.C_NIBBLE
_C_LOWBIT = eval_tables.C_LOWBIT
_C_RBIT = eval_tables.C_RBIT
_PAIR91 = {pair: i for i, pair in enumerate(eval_tables.PAIRS91)}


class _Player:
    """One player's hole cards prepared for fast evaluation."""

    __slots__ = ("by_row", "by_table", "by_triple", "low_mask", "nibbles", "suited_pairs")

    def __init__(self, hole: Sequence[int]) -> None:
        ranks = [_C_RANK[c] for c in hole]
        pairs = list(combinations(range(len(hole)), 2))
        #: reads this player's pair values out of a board table
        self.by_table: Any = itemgetter(*[ranks[i] * 13 + ranks[j] for i, j in pairs])
        #: reads them out of a triple row (PAIRS91 layout)
        self.by_row: Any = itemgetter(
            *[_PAIR91[(min(ranks[i], ranks[j]), max(ranks[i], ranks[j]))] for i, j in pairs]
        )
        #: board triple rank key -> best non-flush value with it (filled by prepare_triples)
        self.by_triple: dict[int, int] = {}
        self.low_mask = 0
        for c in hole:
            self.low_mask |= _C_LOWBIT[c]
        self.nibbles = sum(_C_NIBBLE[c] for c in hole)
        #: for each suit, the rank masks of the pairs of hole cards of that suit
        self.suited_pairs = [
            [
                _C_RBIT[hole[i]] | _C_RBIT[hole[j]]
                for i, j in pairs
                if _C_SUIT[hole[i]] == s and _C_SUIT[hole[j]] == s
            ]
            for s in range(4)
        ]

    def prepare_triples(self) -> None:
        """Fill ``by_triple`` for all 455 triple rank multisets (random boards)."""
        by_row = self.by_row
        for key3 in _TRIPLE_KEYS:
            self.by_triple[key3] = max(by_row(eval_tables.triple_row(key3)))


_TRIPLE_KEYS = tuple(
    eval_tables.PRIME[a] * eval_tables.PRIME[b] * eval_tables.PRIME[c]
    for a, b, c in combinations_with_replacement(range(2, 15), 3)
)


class _Outcomes:
    """Settles boards into share vectors, interned as small integers."""

    def __init__(self, players: list[_Player], hi_lo: bool) -> None:
        self.players = players
        self.hi_lo = hi_lo
        self.ids: dict[tuple[float, ...], int] = {}
        self.shares: list[tuple[float, ...]] = []
        # rank key -> (outcome id without flushes, high values, low values)
        self.by_key: dict[int, tuple[int, list[int], list[int]]] = {}
        two = 0
        for p in players:
            two |= p.nibbles + 0x6666
        #: bit 4*s+3 set when some player holds two cards of suit s
        self.two_suited = two & 0x8888
        n = len(players)
        #: the outcome "player i alone wins the high" (and there is no low)
        self.alone = [self.intern(tuple(float(i == j) for j in range(n))) for i in range(n)]
        self.triples_ready = False

    def intern(self, shares: tuple[float, ...]) -> int:
        oid = self.ids.get(shares)
        if oid is None:
            oid = self.ids[shares] = len(self.shares)
            self.shares.append(shares)
        return oid

    def settle(self, highs: list[int], lows: list[int]) -> int:
        best = max(highs)
        best_low = max(lows) if self.hi_lo else 0
        if not best_low and highs.count(best) == 1:
            return self.alone[highs.index(best)]
        n = len(highs)
        out = [0.0] * n
        winners = [i for i in range(n) if highs[i] == best]
        if best_low:
            for i in winners:
                out[i] += 0.5 / len(winners)
            low_winners = [i for i in range(n) if lows[i] == best_low]
            for i in low_winners:
                out[i] += 0.5 / len(low_winners)
        else:
            for i in winners:
                out[i] = 1.0 / len(winners)
        return self.intern(tuple(out))

    def prepare_triples(self) -> None:
        """Switch to per-player triple dictionaries (worth it for many random boards)."""
        if not self.triples_ready:
            for p in self.players:
                p.prepare_triples()
            self.triples_ready = True

    def by_ranks(self, key: int, board: Sequence[int]) -> tuple[int, list[int], list[int]]:
        """The non-flush outcome of a board (any board with this rank key)."""
        found = self.by_key.get(key)
        if found is not None:
            return found
        players = self.players
        table = eval_tables.BOARDS.get(key)
        if table is not None:
            highs = [max(p.by_table(table)) for p in players]
        elif self.triples_ready and len(board) == 5:
            p0, p1, p2, p3, p4 = [_C_PRIME[c] for c in board]
            p01 = p0 * p1
            p02 = p0 * p2
            p12 = p1 * p2
            keys = (
                p01 * p2, p01 * p3, p01 * p4, p02 * p3, p02 * p4,
                p0 * p3 * p4, p12 * p3, p12 * p4, p1 * p3 * p4, p2 * p3 * p4,
            )  # fmt: skip
            highs = [max(map(p.by_triple.__getitem__, keys)) for p in players]
        else:
            primes = [_C_PRIME[c] for c in board]
            keys3 = {a * b * c for a, b, c in combinations(primes, 3)}
            rows = [eval_tables.triple_row(k) for k in keys3]
            highs = [max([max(p.by_row(row)) for row in rows]) for p in players]
        if self.hi_lo:
            board_low = 0
            for c in board:
                board_low |= _C_LOWBIT[c]
            base = board_low << 8
            low_table = eval_tables.LOW
            lows = []
            for p in players:
                v = low_table[base | p.low_mask]
                lows.append(eval_tables.low_fill(base | p.low_mask) if v < 0 else v)
        else:
            lows = [0] * len(players)
        found = (self.settle(highs, lows), highs, lows)
        self.by_key[key] = found
        return found

    def with_flush(self, key: int, flush_bits: int, board: Sequence[int]) -> int:
        """The outcome of a board where some player may make a flush."""
        oid, highs, lows = self.by_ranks(key, board)
        suit = (flush_bits.bit_length() - 4) // 4
        board_mask = 0
        for c in board:
            if _C_SUIT[c] == suit:
                board_mask |= _C_RBIT[c]
        new_highs = None
        flush_best = eval_tables.flush_best
        for i, p in enumerate(self.players):
            for pair_mask in p.suited_pairs[suit]:
                flush = flush_best(board_mask, pair_mask)
                if flush > highs[i]:
                    if new_highs is None:
                        new_highs = list(highs)
                    if flush > new_highs[i]:
                        new_highs[i] = flush
        if new_highs is None:
            return oid
        return self.settle(new_highs, lows)

    def board(self, board: Sequence[int]) -> int:
        key = 1
        nibbles = 0x5555
        for c in board:
            key *= _C_PRIME[c]
            nibbles += _C_NIBBLE[c]
        flush_bits = nibbles & self.two_suited
        if flush_bits:
            return self.with_flush(key, flush_bits, board)
        return self.by_ranks(key, board)[0]


def _indices(cards: Sequence[Card]) -> list[int]:
    return [(c.rank - 2) * 4 + "cdhs".index(c.suit) for c in cards]


def equity(
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    variant: Variant,
    dead: Sequence[Card] = (),
    target_stderr: float = 0.005,
    rng: random.Random | None = None,
    max_samples: int = DEFAULT_MAX_SAMPLES,
    monte_carlo: bool = False,
) -> Equity:
    """Each player's expected share of the pot when the rest of the board is dealt.

    ``holes``: 2 or more players' hole cards (Omaha 4 to 6 each, Texas Hold'em 2);
    ``board``: 0 to 5 cards; ``dead``: cards known to be out of play (folded, burned
    and seen). Omaha: exact with 3 or more board cards, a Monte Carlo estimate
    otherwise (see the module docstring for ``stderr``); ``monte_carlo=True``
    estimates even when enumeration is possible (to check the estimator against
    exact values). Texas Hold'em: always exact (:mod:`bot.engine.holdem_equity`), so
    ``monte_carlo`` is refused there.
    """
    holdem = variant.rule is HandRule.HOLDEM
    if holdem and monte_carlo:
        raise ValueError("Texas Hold'em equity is always exact")
    _check_arguments(holes, board, target_stderr, max_samples, holdem)
    player_cards = [_indices(h) for h in holes]
    board_cards = _indices(board)
    known = [c for h in player_cards for c in h] + board_cards + _indices(dead)
    if len(set(known)) != len(known):
        raise ValueError("the same card appears twice")
    seen = set(known)
    deck = [c for c in range(52) if c not in seen]
    need = 5 - len(board_cards)
    if need > len(deck):
        raise ValueError("not enough cards left to complete the board")
    if holdem:
        return holdem_equity(player_cards, board_cards, deck)
    outcomes = _Outcomes([_Player(h) for h in player_cards], variant.hi_lo)
    if need <= 2 and not monte_carlo:
        return _exact(outcomes, board_cards, deck, need)
    if rng is None:
        rng = random.Random(secrets.randbits(64))
    return _monte_carlo(outcomes, board_cards, deck, need, rng, target_stderr, max_samples)


def _check_arguments(
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    target_stderr: float,
    max_samples: int,
    holdem: bool,
) -> None:
    if len(holes) < 2:
        raise ValueError("equity needs at least two players")
    for hole in holes:
        if holdem and len(hole) != 2:
            raise ValueError(f"a Texas Hold'em hand has 2 hole cards, not {len(hole)}")
        if not holdem and len(hole) not in _HOLE_SIZES:
            raise ValueError(f"an Omaha hand has 4, 5 or 6 hole cards, not {len(hole)}")
    if len(board) > 5:
        raise ValueError("the board has at most 5 cards")
    if not target_stderr > 0:
        raise ValueError("target_stderr must be positive")
    if max_samples < MIN_SAMPLES:
        raise ValueError(f"max_samples must be at least {MIN_SAMPLES}")


def _exact(outcomes: _Outcomes, board: list[int], deck: list[int], need: int) -> Equity:
    tally: dict[int, int] = {}
    if need == 0:
        tally[outcomes.board(board)] = 1
    else:
        base_key = 1
        base_nibbles = 0x5555
        for c in board:
            base_key *= _C_PRIME[c]
            base_nibbles += _C_NIBBLE[c]
        two = outcomes.two_suited
        by_key = outcomes.by_key
        for extra in combinations(deck, need):
            if need == 2:
                t, r = extra
                key = base_key * _C_PRIME[t] * _C_PRIME[r]
                flush_bits = (base_nibbles + _C_NIBBLE[t] + _C_NIBBLE[r]) & two
            else:
                key = base_key * _C_PRIME[extra[0]]
                flush_bits = (base_nibbles + _C_NIBBLE[extra[0]]) & two
            if flush_bits:
                oid = outcomes.with_flush(key, flush_bits, board + list(extra))
            else:
                found = by_key.get(key)
                oid = (found or outcomes.by_ranks(key, board + list(extra)))[0]
            tally[oid] = tally.get(oid, 0) + 1
    counts = [tally.get(i, 0) for i in range(len(outcomes.shares))]
    return exact_equity(outcomes.shares, counts, len(outcomes.players))


def _monte_carlo(
    outcomes: _Outcomes,
    board: list[int],
    deck: list[int],
    need: int,
    rng: random.Random,
    target: float,
    max_samples: int,
) -> Equity:
    """Sample run-outs in batches until the standard error reaches ``target``
    (after at least ``MIN_SAMPLES``) or ``max_samples`` are drawn."""
    deck = list(deck)
    tally: list[int] = [0] * len(outcomes.shares)
    samples = 0
    stderr = math.inf
    outcomes.prepare_triples()
    while samples < max_samples:
        batch = min(_BATCH, max_samples - samples)
        _sample(outcomes, board, deck, need, rng, batch, tally)
        samples += batch
        mean, square, _ = average(outcomes.shares, tally, len(outcomes.players))
        stderr = _standard_error(mean, square, samples)
        if samples >= MIN_SAMPLES and stderr <= target:
            break
    mean, _, _ = average(outcomes.shares, tally, len(outcomes.players))
    return Equity(tuple(mean), False, stderr, samples,
                  *chances(outcomes.shares, tally, len(outcomes.players)))


def _standard_error(mean: Sequence[float], square: Sequence[float], samples: int) -> float:
    """The largest standard error of a player's mean share (from the sample variance)."""
    return max(
        math.sqrt(max(sq - m * m, 0.0) * samples / (samples - 1) / samples)
        for m, sq in zip(mean, square, strict=True)
    )


def _sample(
    outcomes: _Outcomes,
    board: list[int],
    deck: list[int],
    need: int,
    rng: random.Random,
    batch: int,
    tally: list[int],
) -> None:
    """Draw ``batch`` random run-outs of ``need`` cards and count their outcomes in
    ``tally``. The deck is shuffled in place (partial Fisher-Yates: ``deck[:need]`` is a
    uniform draw of ``need`` cards), and the sampler loops keep everything in locals
    (this is the hot loop): a whole board preflop, fewer cards otherwise."""
    if need == 5:
        _sample_boards(outcomes, deck, rng, batch, tally)
    else:
        _sample_run_outs(outcomes, board, deck, need, rng, batch, tally)


def _sample_boards(
    outcomes: _Outcomes, deck: list[int], rng: random.Random, batch: int, tally: list[int]
) -> None:
    two = outcomes.two_suited
    by_key = outcomes.by_key
    rand = rng.random
    n = len(deck)
    n1, n2, n3, n4 = n - 1, n - 2, n - 3, n - 4
    for _ in range(batch):
        j = int(rand() * n)
        c0 = deck[j]
        deck[j] = deck[0]
        j = 1 + int(rand() * n1)
        c1 = deck[j]
        deck[j] = deck[1]
        j = 2 + int(rand() * n2)
        c2 = deck[j]
        deck[j] = deck[2]
        j = 3 + int(rand() * n3)
        c3 = deck[j]
        deck[j] = deck[3]
        j = 4 + int(rand() * n4)
        c4 = deck[j]
        deck[j] = deck[4]
        deck[0] = c0
        deck[1] = c1
        deck[2] = c2
        deck[3] = c3
        deck[4] = c4
        key = _C_PRIME[c0] * _C_PRIME[c1] * _C_PRIME[c2] * _C_PRIME[c3] * _C_PRIME[c4]
        nibbles = (
            0x5555 + _C_NIBBLE[c0] + _C_NIBBLE[c1] + _C_NIBBLE[c2]
            + _C_NIBBLE[c3] + _C_NIBBLE[c4]
        )  # fmt: skip
        # from here on as in _sample_run_outs
        flush_bits = nibbles & two
        if flush_bits:
            oid = outcomes.with_flush(key, flush_bits, deck[:5])
        else:
            found = by_key.get(key)
            oid = (found or outcomes.by_ranks(key, deck[:5]))[0]
        if oid >= len(tally):
            tally.extend([0] * (oid + 1 - len(tally)))
        tally[oid] += 1


def _sample_run_outs(
    outcomes: _Outcomes,
    board: list[int],
    deck: list[int],
    need: int,
    rng: random.Random,
    batch: int,
    tally: list[int],
) -> None:
    base_key = 1
    base_nibbles = 0x5555
    for c in board:
        base_key *= _C_PRIME[c]
        base_nibbles += _C_NIBBLE[c]
    two = outcomes.two_suited
    by_key = outcomes.by_key
    rand = rng.random
    n = len(deck)
    for _ in range(batch):
        key = base_key
        nibbles = base_nibbles
        for i in range(need):
            j = i + int(rand() * (n - i))
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
            key *= _C_PRIME[c]
            nibbles += _C_NIBBLE[c]
        flush_bits = nibbles & two
        if flush_bits:
            oid = outcomes.with_flush(key, flush_bits, board + deck[:need])
        else:
            found = by_key.get(key)
            oid = (found or outcomes.by_ranks(key, board + deck[:need]))[0]
        if oid >= len(tally):
            tally.extend([0] * (oid + 1 - len(tally)))
        tally[oid] += 1
