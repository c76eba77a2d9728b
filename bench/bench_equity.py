"""Benchmark: heads-up Omaha equity against the same computation done with phevaluator.

Run: .venv/bin/python bench/bench_equity.py [--cases N] [--seed S]

* flop: exact equity of two random 4-card hands on a random flop, enumerating
  every turn and river (C(41, 2) = 820 run-outs), ours vs a plain enumeration
  that evaluates both hands of every run-out with phevaluator;
* preflop: a Monte Carlo estimate with our default target standard error
  (0.005); the phevaluator version draws the same boards (the same sampler
  with the same seed, as many as ours drew) and evaluates both hands of each.

phevaluator is called its fastest way, its C function
``phevaluator._pheval.evaluate_omaha_cards`` on card ids, and also through
its public wrapper ``phevaluator.evaluate_omaha_cards`` (which converts every
card with ``Card.to_id`` first): both ratios are printed. Every case is
computed once by each side, in turn (ours, C, wrapper). The shares must be
the same on every case: exactly for the flop, and for the preflop too, since
both sides evaluate the same boards.

Times are totals over --cases random cases, measured in this run in a fresh
process (our lookup tables start empty, so their building is included). The
figure that matters is the time ratio ours / phevaluator (target <= 3 against
the wrapper). The high-only game is timed: phevaluator has no 8-or-better
low. Exit status 1 if a target is missed or the shares differ.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.cards import DECK, Card
from bot.engine.equity import equity
from bot.engine.variants import VARIANTS

OMAHA = VARIANTS["omaha"]

Evaluate = Callable[..., int]


def ph_flop(evaluate: Evaluate, holes: Sequence[Sequence[int]], flop: Sequence[int]
            ) -> tuple[float, float]:
    """Exact heads-up high equity by enumeration, every hand evaluated by phevaluator."""
    used = set(flop) | {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in used]
    a, b = holes
    wins_a = wins_b = 0.0
    n = 0
    for turn, river in combinations(deck, 2):
        board = (*flop, turn, river)
        ra = evaluate(*board, *a)  # lower is better in phevaluator
        rb = evaluate(*board, *b)
        if ra < rb:
            wins_a += 1
        elif rb < ra:
            wins_b += 1
        else:
            wins_a += 0.5
            wins_b += 0.5
        n += 1
    return wins_a / n, wins_b / n


def ph_preflop(evaluate: Evaluate, holes: Sequence[Sequence[int]], samples: int,
               rng: random.Random) -> tuple[float, float]:
    """Heads-up high equity over ``samples`` random boards (the sampler equity() uses)."""
    used = {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in used]
    n = len(deck)
    a, b = holes
    rand = rng.random
    wins_a = wins_b = 0.0
    for _ in range(samples):
        for i in range(5):
            j = i + int(rand() * (n - i))
            deck[i], deck[j] = deck[j], deck[i]
        board = deck[:5]
        ra = evaluate(*board, *a)
        rb = evaluate(*board, *b)
        if ra < rb:
            wins_a += 1
        elif rb < ra:
            wins_b += 1
        else:
            wins_a += 0.5
            wins_b += 0.5
    return wins_a / samples, wins_b / samples


def peers() -> list[tuple[str, Evaluate]]:
    from phevaluator import _pheval, evaluate_omaha_cards

    return [("phevaluator C", _pheval.evaluate_omaha_cards),
            ("phevaluator wrapper", evaluate_omaha_cards)]


def report(label: str, cases: int, ours_t: float, peer_t: list[float], worst: float,
           missed: list[str]) -> None:
    names = [name for name, _ in peers()]
    parts = [f"{label}: ours {ours_t * 1000 / cases:.2f} ms/case"]
    parts += [f"{name} {t * 1000 / cases:.2f} ms/case, time ratio {ours_t / t:.2f}"
              for name, t in zip(names, peer_t, strict=True)]
    print("\n    ".join(parts) + f"\n    (target <= 3 against the wrapper); largest share"
          f" difference from phevaluator's {worst:.1e}")
    if ours_t / peer_t[-1] > 3 or worst > 1e-9:
        missed.append(label)


def flop_cases(cases: list[list[Card]], missed: list[str]) -> None:
    ours_t, peer_t, worst = 0.0, [0.0, 0.0], 0.0
    for cards in cases:
        holes, flop = [cards[0:4], cards[4:8]], cards[8:11]
        start = time.perf_counter()
        result = equity(holes, flop, variant=OMAHA)
        ours_t += time.perf_counter() - start
        for i, (_name, evaluate) in enumerate(peers()):
            start = time.perf_counter()
            theirs = ph_flop(evaluate, [[c.index for c in h] for h in holes],
                             [c.index for c in flop])
            peer_t[i] += time.perf_counter() - start
            worst = max(worst, abs(result.shares[0] - theirs[0]))
    report(f"flop exact heads-up ({len(cases)} cases, 820 run-outs each)", len(cases), ours_t,
           peer_t, worst, missed)


def preflop_cases(cases: list[list[Card]], missed: list[str]) -> None:
    ours_t, peer_t, worst, worst_se, total = 0.0, [0.0, 0.0], 0.0, 0.0, 0
    for k, cards in enumerate(cases):
        holes = [cards[0:4], cards[4:8]]
        start = time.perf_counter()
        result = equity(holes, rng=random.Random(k), variant=OMAHA)
        ours_t += time.perf_counter() - start
        assert result.stderr is not None
        worst_se = max(worst_se, result.stderr)
        total += result.samples
        for i, (_name, evaluate) in enumerate(peers()):
            start = time.perf_counter()
            theirs = ph_preflop(evaluate, [[c.index for c in h] for h in holes],
                                result.samples, random.Random(k))
            peer_t[i] += time.perf_counter() - start
            worst = max(worst, abs(result.shares[0] - theirs[0]))
    report(f"preflop Monte Carlo heads-up, stderr <= 0.005 ({len(cases)} cases, "
           f"{total / len(cases):,.0f} boards/case, largest stderr {worst_se:.4f})",
           len(cases), ours_t, peer_t, worst, missed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    cases = [rng.sample(DECK, 11) for _ in range(args.cases)]
    missed: list[str] = []
    flop_cases(cases, missed)
    preflop_cases(cases, missed)
    if missed:
        print("target missed or shares differ: " + ", ".join(missed))
        return 1
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
