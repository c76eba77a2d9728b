"""Benchmark: Omaha hand evaluation against phevaluator, treys and PokerKit.

Run: .venv/bin/python bench/bench_evaluate.py [--deals N] [--pokerkit-deals N]
     [--passes N] [--slow-passes N] [--seed S]

Every race times sides that do the same work: the same random deals (5 board
cards, 6 hole cards; the 4- and 5-card hands are the first cards of the 6),
each side's card format converted before timing, every side called through
``itertools.starmap`` over its prepared arguments, and every side given the
same number of passes (the sides take turns, round after round, so a busy
machine slows them alike); a side's rate is its best pass. The peers, each
called its fastest way:

* phevaluator 0.6.0, C: ``phevaluator._pheval.evaluate_omaha_cards`` on card
  ids, the C function its wrapper calls (4 hole cards only: the wheel built
  from PyPI has no PLO5/PLO6 tables);
* phevaluator 0.6.0, its public wrapper ``phevaluator.evaluate_omaha_cards``
  (which converts each card with ``Card.to_id`` and then calls the C function);
* treys 0.1.8 ``PLOEvaluator.evaluate``;
* PokerKit 0.7.7 through its lookup: ``OmahaHoldemHand.lookup.get_entry`` (a
  ``StandardLookup``) on each of the 2-from-hole x 3-from-board hands, the best
  index kept (``OmahaEightOrBetterLowHand.lookup.get_entry_or_none`` for the
  low), and also its public ``from_game`` / ``from_game_or_none``, which does
  the same through Hand objects. PokerKit is slow: its races run on the first
  ``--pokerkit-deals`` deals, ours racing it on those same deals.

Every value of each side's last timed pass (every deal timed; the passes run
the same deals) is checked: two evaluators agree when one strictly increasing
map takes our values to theirs (lower-is-better ranks reversed) over all the
deals of the race, i.e. they order every pair of hands alike, and, for the
low, they find a low on exactly the same deals. Our lookup tables are built
lazily on first use: a first pass from a cold start is reported apart (one
pass each), then the bench builds the remaining tables, reports that cost, and
measures warm. Exit status 1 if two evaluators disagree or a target is missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, starmap
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

t0 = time.perf_counter()
from bot.engine import eval_tables  # noqa: E402
from bot.engine.cards import DECK, Card  # noqa: E402
from bot.engine.evaluate import high_value, low_value  # noqa: E402
from bot.engine.variants import HandRule  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - t0
OMAHA = HandRule.OMAHA
Deal = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass
class Side:
    """One evaluator in a race: ``fn(*args)`` for each prepared argument tuple.

    ``order`` turns its result into a value where higher is better (None: no hand).
    """

    name: str
    fn: Callable[..., Any]
    args: list[tuple[Any, ...]]
    order: Callable[[Any], int | None] = lambda v: v


def race(sides: Sequence[Side], passes: int) -> tuple[list[float], list[list[Any]]]:
    """Evaluations per second of each side (best pass) and the values of its last pass."""
    best = [float("inf")] * len(sides)
    values: list[list[Any]] = [[] for _ in sides]
    for _round in range(passes):
        for i, side in enumerate(sides):
            start = time.perf_counter()
            values[i] = list(starmap(side.fn, side.args))
            best[i] = min(best[i], time.perf_counter() - start)
    return [len(s.args) / t for s, t in zip(sides, best, strict=True)], values


def disagreement(ours: Sequence[int | None], theirs: Sequence[int | None]) -> str | None:
    """Why the two value lists do not order the deals alike, or None when they do."""
    to_theirs: dict[int | None, int | None] = {}
    to_ours: dict[int | None, int | None] = {}
    for deal, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if to_theirs.setdefault(a, b) != b or to_ours.setdefault(b, a) != a:
            return f"deal {deal}: equal values on one side, different on the other"
        if (a is None) != (b is None):
            return f"deal {deal}: a low on one side only"
    pairs = sorted((a, b) for a, b in to_theirs.items() if a is not None and b is not None)
    for (a0, b0), (a1, b1) in pairwise(pairs):
        if b1 <= b0:
            return f"our values {a0:#x} < {a1:#x} but theirs {b0} >= {b1}"
    return None


def checked_race(label: str, sides: Sequence[Side], passes: int, problems: list[str],
                 target: tuple[str, float] | None = None) -> list[float]:
    """Race the sides, check each peer agrees with ours (sides[0]), print the ratios.

    ``target``: (peer name, least ratio ours / that peer).
    """
    rates, values = race(sides, passes)
    ours = [sides[0].order(v) for v in values[0]]
    parts = [f"{label}, {len(sides[0].args):,} deals, best of {passes} passes each: "
             f"ours {rates[0]:,.0f}/s"]
    for side, rate, vals in zip(sides[1:], rates[1:], values[1:], strict=True):
        why = disagreement(ours, [side.order(v) for v in vals])
        parts.append(f"{side.name} {rate:,.0f}/s ratio {rates[0] / rate:.2f}"
                     + (f" DISAGREES ({why})" if why else ", agrees"))
        if why:
            problems.append(f"{label}: {side.name} disagrees: {why}")
        if target and target[0] == side.name:
            parts[-1] += f" (target >= {target[1]:g})"
            if rates[0] / rate < target[1]:
                problems.append(f"{label}: ratio to {side.name} {rates[0] / rate:.2f}"
                                f" < {target[1]:g}")
    print("\n    ".join(parts))
    return rates


def pokerkit_high(lookup: Any) -> Callable[[tuple[Any, ...], tuple[Any, ...]], int]:
    """PokerKit's Omaha high through its lookup: the best entry index (higher is better)."""
    get = lookup.get_entry

    def best(hole: tuple[Any, ...], board: tuple[Any, ...]) -> int:
        boards = list(combinations(board, 3))
        return int(max(get(h + b).index for h in combinations(hole, 2) for b in boards))

    return best


def pokerkit_low(lookup: Any) -> Callable[[tuple[Any, ...], tuple[Any, ...]], int | None]:
    """PokerKit's 8-or-better low through its lookup: the best (smallest) index, or None."""
    get = lookup.get_entry_or_none

    def best(hole: tuple[Any, ...], board: tuple[Any, ...]) -> int | None:
        boards = list(combinations(board, 3))
        found = [e.index for h in combinations(hole, 2) for b in boards
                 if (e := get(h + b)) is not None]
        return min(found) if found else None

    return best


def negate(v: int | None) -> int | None:
    return None if v is None else -v


def entry_index(hand: Any) -> int | None:
    return None if hand is None else hand.entry.index


def make_deals(count: int, seed: int) -> list[Deal]:
    """(6 hole cards, 5 board cards) per deal, from one seeded generator."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = rng.sample(DECK, 11)
        deals.append((tuple(cards[:6]), tuple(cards[6:])))
    return deals


def phevaluator_race(deals: list[Deal], passes: int, problems: list[str]) -> None:
    """Omaha 4 high against phevaluator's C function and its wrapper, cold then warm."""
    from phevaluator import _pheval, evaluate_omaha_cards

    ids = [tuple(c.index for c in board) + tuple(c.index for c in hole[:4])
           for hole, board in deals]  # phevaluator's card id is our deck index
    sides = [Side("ours", high_value, [(hole[:4], board, OMAHA) for hole, board in deals]),
             Side("phevaluator C", _pheval.evaluate_omaha_cards, ids, negate),
             Side("phevaluator wrapper", evaluate_omaha_cards, ids, negate)]
    # First passes from a cold start: ours builds its board tables as it goes,
    # phevaluator pages in its tables.
    checked_race("omaha4 high, first pass (cold)", sides, 1, problems)
    start = time.perf_counter()
    eval_tables.warm()
    print(f"building the remaining board tables (warm()): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    checked_race("omaha4 high", sides, passes, problems, ("phevaluator wrapper", 0.5))


def treys_races(deals: list[Deal], passes: int, problems: list[str]) -> None:
    from treys import Card as TCard
    from treys import PLOEvaluator

    evaluate = PLOEvaluator().evaluate
    for size in (4, 5, 6):
        args = [([TCard.new(str(c)) for c in hole[:size]], [TCard.new(str(c)) for c in board])
                for hole, board in deals]
        checked_race(f"omaha{size} high", [
            Side("ours", high_value, [(hole[:size], board, OMAHA) for hole, board in deals]),
            Side("treys", evaluate, args, negate),
        ], passes, problems)


def pokerkit_races(deals: list[Deal], passes: int, problems: list[str]) -> None:
    from pokerkit import Card as PKCard
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

    def convert(cards: Sequence[Card]) -> tuple[Any, ...]:
        return tuple(PKCard.parse("".join(map(str, cards))))

    high, low = pokerkit_high(OmahaHoldemHand.lookup), pokerkit_low(
        OmahaEightOrBetterLowHand.lookup)
    for size in (4, 5, 6):
        ours_args = [(hole[:size], board) for hole, board in deals]
        pk_args = [(convert(hole), convert(board)) for hole, board in ours_args]
        checked_race(f"omaha{size} high", [
            Side("ours", high_value, [(*args, OMAHA) for args in ours_args]),
            Side("pokerkit lookup", high, pk_args),
            Side("pokerkit from_game", OmahaHoldemHand.from_game, pk_args, entry_index),
        ], passes, problems)
        checked_race(f"omaha{size} low 8-or-better", [
            Side("ours", low_value, ours_args),
            Side("pokerkit lookup", low, pk_args, negate),
            Side("pokerkit from_game", OmahaEightOrBetterLowHand.from_game_or_none, pk_args,
                 lambda h: negate(entry_index(h))),
        ], passes, problems, ("pokerkit lookup", 100) if size == 4 else None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--pokerkit-deals", type=int, default=1_000)
    parser.add_argument("--passes", type=int, default=5,
                        help="passes each side gets against phevaluator")
    parser.add_argument("--slow-passes", type=int, default=3,
                        help="passes each side gets against treys and PokerKit")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    deals = make_deals(args.deals, args.seed)
    print(f"{len(deals):,} random deals (board 5, hole 4/5/6), seed {args.seed}; "
          f"PokerKit races on the first {min(args.pokerkit_deals, len(deals)):,}")
    print(f"import bot.engine.evaluate: {IMPORT_SECONDS * 1000:.0f} ms")
    problems: list[str] = []
    phevaluator_race(deals, args.passes, problems)
    treys_races(deals, args.slow_passes, problems)
    pokerkit_races(deals[:args.pokerkit_deals], args.slow_passes, problems)
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    print("every peer agrees with ours on every deal timed; targets met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
