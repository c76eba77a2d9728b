"""Benchmark: Texas Hold'em seven-card evaluation and heads-up preflop all-in equity.

Run: .venv/bin/python bench/bench_holdem.py [--deals N] [--pokerkit-deals N] [--passes N]
     [--slow-passes N] [--cases N] [--seed S]

Evaluation: the best five of 2 hole + 5 board cards on the same random deals
for every side, each side's card format converted before timing, every side
called through ``itertools.starmap`` over its prepared arguments with the same
number of passes (taking turns; a side's rate is its best pass), and every
value of each side's last pass checked against ours (one strictly increasing
map must take our values to the peer's: ``bench_evaluate.disagreement``). Ours
is the engine's entry, ``evaluate.high_value(hole, board, HandRule.HOLDEM)``,
and beside it the function it calls, ``holdem_eval.holdem_value(hole, board)``.
The peers, each its fastest way:

* phevaluator 0.6.0, C: ``phevaluator._pheval.evaluate_7cards`` on card ids (the
  C function its wrapper calls);
* phevaluator 0.6.0, its public Python wrapper ``phevaluator.evaluate_cards`` on
  card ids (it converts each with ``Card.to_id``, then calls the C function);
* treys 0.1.8 ``Evaluator().evaluate(hand, board)``;
* PokerKit 0.7.7 ``StandardHighHand.lookup.get_entry`` on each of the 21 fives
  (the best index kept), and its public ``StandardHighHand.from_game``; on the
  first ``--pokerkit-deals`` deals only (it is slow).

Our rank table fills on first use: a first pass from a cold start is reported
apart (one pass each), then ``warm()`` fills the rest and the races run warm.

Equity: ``equity(holes, variant=Texas Hold'em)`` on heads-up preflop all-ins
(famous match-ups and ``--cases`` random ones), timed case by case in this
process, against the exact value: every one of the C(48, 5) = 1,712,304 boards
dealt and both hands evaluated with phevaluator's C function (timed too). Ours
counts the boards in rank and flush classes (``bot/engine/holdem_equity.py``);
our tables are emptied before the first case, which fills what it needs.

Exit status 1 if a peer disagrees, ours is slower than the phevaluator wrapper,
or an equity is more than 0.5 percentage points from the exact value or takes
0.5 s or more.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_evaluate import Side, checked_race, entry_index, negate

from bot.engine import holdem_eval
from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.equity import equity
from bot.engine.evaluate import high_value
from bot.engine.variants import VARIANTS, HandRule

HOLDEM = HandRule.HOLDEM
#: The rank table as imported (its five-card multisets): ``cold()`` goes back to it.
FIVES = frozenset(holdem_eval.RANKS)
Deal = tuple[tuple[Card, ...], tuple[Card, ...]]
#: Famous heads-up all-ins: an overpair, a coin flip, domination, suited connectors.
FAMOUS = ("AsAh KdKc", "AsAh KsKh", "AhKh QsQd", "AsKd 7c7h", "AsKs AdQd", "8h7h AcAd")


def make_deals(count: int, seed: int) -> list[Deal]:
    """(2 hole cards, 5 board cards) per deal, from one seeded generator."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = rng.sample(DECK, 7)
        deals.append((tuple(cards[:2]), tuple(cards[2:])))
    return deals


def ours(deals: list[Deal]) -> list[Side]:
    return [Side("ours", high_value, [(hole, board, HOLDEM) for hole, board in deals]),
            Side("ours, holdem_value", holdem_eval.holdem_value, list(deals))]


def phevaluator_sides(deals: list[Deal]) -> list[Side]:
    from phevaluator import _pheval, evaluate_cards

    ids = [tuple(c.index for c in (*hole, *board)) for hole, board in deals]  # its card id
    return [Side("phevaluator C", _pheval.evaluate_7cards, ids, negate),
            Side("phevaluator wrapper", evaluate_cards, ids, negate)]


def treys_side(deals: list[Deal]) -> Side:
    from treys import Card as TCard
    from treys import Evaluator

    args = [([TCard.new(str(c)) for c in hole], [TCard.new(str(c)) for c in board])
            for hole, board in deals]
    return Side("treys", Evaluator().evaluate, args, negate)


def pokerkit_sides(deals: list[Deal]) -> list[Side]:
    from pokerkit import Card as PKCard
    from pokerkit import StandardHighHand

    get = StandardHighHand.lookup.get_entry

    def best(hole: tuple[Any, ...], board: tuple[Any, ...]) -> int:
        return int(max(get(five).index for five in combinations(hole + board, 5)))

    args = [(tuple(PKCard.parse("".join(map(str, hole)))),
             tuple(PKCard.parse("".join(map(str, board))))) for hole, board in deals]
    return [Side("pokerkit lookup", best, args),
            Side("pokerkit from_game", StandardHighHand.from_game, args, entry_index)]


def evaluation(deals: list[Deal], pk_deals: int, passes: int, slow: int,
               problems: list[str]) -> None:
    sides = [*ours(deals), *phevaluator_sides(deals)]
    checked_race("seven cards, first pass (cold)", sides, 1, problems)
    start = time.perf_counter()
    holdem_eval.warm()
    print(f"filling the remaining rank multisets (warm()): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    checked_race("seven cards", sides, passes, problems, ("phevaluator wrapper", 1.0))
    checked_race("seven cards", [*ours(deals), treys_side(deals)], slow, problems)
    few = deals[:pk_deals]
    checked_race("seven cards", [*ours(few), *pokerkit_sides(few)], slow, problems)


def cold() -> None:
    """Empty our tables of what was filled since the import, as in a fresh process."""
    for key in set(holdem_eval.RANKS) - FIVES:
        del holdem_eval.RANKS[key]
    holdem_eval.FLUSHES.clear()


def exact_by_phevaluator(evaluate: Callable[..., int], holes: Sequence[Sequence[int]]
                         ) -> float:
    """The first hand's exact share: every board dealt, both hands evaluated."""
    a, b = holes
    deck = [c for c in range(52) if c not in (*a, *b)]
    wins = ties = 0
    for board in combinations(deck, 5):
        ra = evaluate(*a, *board)  # lower is better in phevaluator
        rb = evaluate(*b, *board)
        if ra < rb:
            wins += 1
        elif ra == rb:
            ties += 1
    return (wins + ties / 2) / 1_712_304


def equity_cases(count: int, seed: int) -> list[list[tuple[Card, ...]]]:
    rng = random.Random(seed)
    cases = [[parse_cards(h) for h in pair.split()] for pair in FAMOUS]
    for _ in range(count):
        cards = rng.sample(DECK, 4)
        cases.append([tuple(cards[:2]), tuple(cards[2:])])
    return cases


def preflop_equity(cases: list[list[tuple[Card, ...]]], problems: list[str]) -> None:
    from phevaluator import _pheval

    variant = VARIANTS["holdem"]
    worst_gap = worst_time = total = peer_total = 0.0
    cold()  # the first case fills the tables it needs, as the first all-in of a process
    for holes in cases:
        start = time.perf_counter()
        result = equity(holes, variant=variant)
        took = time.perf_counter() - start
        start = time.perf_counter()
        exact = exact_by_phevaluator(_pheval.evaluate_7cards, [[c.index for c in h]
                                                               for h in holes])
        peer_total += time.perf_counter() - start
        gap = abs(result.shares[0] - exact)
        total += took
        worst_gap, worst_time = max(worst_gap, gap), max(worst_time, took)
        name = " vs ".join("".join(map(str, h)) for h in holes)
        print(f"    {name}: ours {result.shares[0]:.6%} in {took * 1000:.0f} ms, exact "
              f"{exact:.6%}, {result.samples:,} boards")
    n = len(cases)
    print(f"heads-up preflop equity, {n} cases: ours {total * 1000 / n:.0f} ms/case (slowest "
          f"{worst_time * 1000:.0f} ms, target < 500), phevaluator C enumerating every board "
          f"{peer_total * 1000 / n:.0f} ms/case, time ratio {total / peer_total:.3f}; largest "
          f"difference from exact {worst_gap * 100:.2e} points (target <= 0.5)")
    if worst_gap > 0.005 or worst_time >= 0.5:
        problems.append("heads-up preflop equity: a target missed")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--pokerkit-deals", type=int, default=2_000)
    parser.add_argument("--passes", type=int, default=5,
                        help="passes each side gets against phevaluator")
    parser.add_argument("--slow-passes", type=int, default=3,
                        help="passes each side gets against treys and PokerKit")
    parser.add_argument("--cases", type=int, default=14, help="random preflop match-ups")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    deals = make_deals(args.deals, args.seed)
    print(f"{len(deals):,} random deals (2 hole + 5 board), seed {args.seed}; PokerKit races "
          f"on the first {min(args.pokerkit_deals, len(deals)):,}")
    problems: list[str] = []
    evaluation(deals, args.pokerkit_deals, args.passes, args.slow_passes, problems)
    preflop_equity(equity_cases(args.cases, args.seed), problems)
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    print("every peer agrees with ours on every deal timed; targets met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
