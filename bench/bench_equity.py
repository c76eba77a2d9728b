"""Benchmark: heads-up Omaha equity against the same computation done with phevaluator.

Run: .venv/bin/python bench/bench_equity.py [--cases N] [--seed S]

* flop: exact equity of two random 4-card hands on a random flop, enumerating
  every turn and river (C(41, 2) = 820 run-outs), ours vs a plain enumeration
  that evaluates both hands of every run-out with phevaluator's
  evaluate_omaha_cards;
* preflop: a Monte Carlo estimate with our default target standard error
  (0.005); the phevaluator version draws the same number of random boards with
  the same sampler and evaluates both hands of each.

Times are totals over --cases random cases, measured in this run in a fresh
process (our lookup tables start empty, so their building is included). The
figure that matters is the time ratio ours / phevaluator (target <= 3).
The high-only game is timed: phevaluator has no 8-or-better low. Exit status 1
if a target is missed (or the flop shares differ from phevaluator's).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.cards import DECK
from bot.engine.equity import equity


def ph_flop(holes: Sequence[Sequence[int]], flop: Sequence[int]) -> tuple[float, float]:
    """Exact heads-up high equity by enumeration, every hand evaluated by phevaluator."""
    from phevaluator import evaluate_omaha_cards

    used = set(flop) | {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in used]
    a, b = holes
    wins_a = wins_b = 0.0
    n = 0
    for turn, river in combinations(deck, 2):
        board = (*flop, turn, river)
        ra = evaluate_omaha_cards(*board, *a)  # lower is better in phevaluator
        rb = evaluate_omaha_cards(*board, *b)
        if ra < rb:
            wins_a += 1
        elif rb < ra:
            wins_b += 1
        else:
            wins_a += 0.5
            wins_b += 0.5
        n += 1
    return wins_a / n, wins_b / n


def ph_preflop(
    holes: Sequence[Sequence[int]], samples: int, rng: random.Random
) -> tuple[float, float]:
    """Heads-up high equity over ``samples`` random boards (the sampler equity() uses)."""
    from phevaluator import evaluate_omaha_cards

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
        ra = evaluate_omaha_cards(*board, *a)
        rb = evaluate_omaha_cards(*board, *b)
        if ra < rb:
            wins_a += 1
        elif rb < ra:
            wins_b += 1
        else:
            wins_a += 0.5
            wins_b += 0.5
    return wins_a / samples, wins_b / samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    cases = [rng.sample(DECK, 11) for _ in range(args.cases)]

    missed = []
    # flop, exact
    ours_t = ph_t = 0.0
    worst = 0.0
    for cards in cases:
        holes, flop = [cards[0:4], cards[4:8]], cards[8:11]
        start = time.perf_counter()
        result = equity(holes, flop)
        ours_t += time.perf_counter() - start
        start = time.perf_counter()
        theirs = ph_flop([[c.index for c in h] for h in holes], [c.index for c in flop])
        ph_t += time.perf_counter() - start
        worst = max(worst, abs(result.shares[0] - theirs[0]))
    print(
        f"flop exact heads-up ({args.cases} cases, 820 run-outs each): "
        f"ours {ours_t * 1000 / args.cases:.2f} ms/case  "
        f"phevaluator {ph_t * 1000 / args.cases:.2f} ms/case  "
        f"time ratio {ours_t / ph_t:.2f} (target <= 3); largest difference {worst:.1e}"
    )
    if ours_t / ph_t > 3 or worst > 1e-9:
        missed.append("flop")

    # preflop, Monte Carlo
    ours_t = ph_t = 0.0
    total_samples = 0
    worst_se = 0.0
    for k, cards in enumerate(cases):
        holes = [cards[0:4], cards[4:8]]
        start = time.perf_counter()
        result = equity(holes, rng=random.Random(k))
        ours_t += time.perf_counter() - start
        assert result.stderr is not None
        worst_se = max(worst_se, result.stderr)
        total_samples += result.samples
        start = time.perf_counter()
        ph_preflop([[c.index for c in h] for h in holes], result.samples, random.Random(k))
        ph_t += time.perf_counter() - start
    print(
        f"preflop Monte Carlo heads-up, stderr <= 0.005 ({args.cases} cases, "
        f"{total_samples / args.cases:,.0f} boards/case, largest stderr {worst_se:.4f}): "
        f"ours {ours_t * 1000 / args.cases:.1f} ms/case  "
        f"phevaluator {ph_t * 1000 / args.cases:.1f} ms/case  "
        f"time ratio {ours_t / ph_t:.2f} (target <= 3)"
    )
    if ours_t / ph_t > 3:
        missed.append("preflop")
    if missed:
        print("target missed: " + ", ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
