"""Replay the same random Pot-Limit Omaha hands from PHH: ours against PokerKit.

    .venv/bin/python bench/bench_replay.py [--hands 1000] [--seed 7] [--repeat 3]

Two sets of ``--hands`` random hands (2 to 9 players, stacks from 20 to 200
big blinds, raises from the minimum to the pot, all-ins and side pots), each
written as PHH text by a different writer:

* written by us: played by our engine with random legal actions, written by
  ``bot.engine.phh.dumps``;
* written by PokerKit: played by a PokerKit 0.7.7 ``PotLimitOmahaHoldem``
  state with random legal actions and written by PokerKit's own PHH writer,
  ``HandHistory.from_game_state(...).dumps()``.

Both replayers read both sets, from the same texts:

* ours: ``bot.engine.phh.loads`` + ``bot.engine.phh.replay`` (parse, build
  the deck order, play every action on the Hand, settle);
* PokerKit: ``HandHistory.loads`` + iterating its states to the end (its own
  loader, with its default automations).

Each side gets ``--repeat`` passes over each set, taking turns with the other
side, and its best is reported in hands per second with the ratio. The
results are checked hand by hand: each replayer's final stacks against the
stacks the hand was played to (ours must reproduce our hands exactly, PokerKit
its own), and the two replays against each other. The random actions avoid
what PokerKit plays differently from our rules (incomplete all-in raises), so
they can differ only where PokerKit settles differently (RULES.md, DEVELOPERS
.md): a split pot's odd chips (PokerKit gives the whole remainder to one
player, and merges a main and a side pot when the all-in player who separated
them loses). Those hands are counted apart; a hand that differs by more (some
seat by as many chips as there are players) is a failure. Exit status 1 on a
failure or if a ratio is under 10x.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


PK_AUTOMATIONS = (  # everything but dealing and the players' decisions
    "ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "RUNOUT_COUNT_SELECTION",
    "HOLE_CARDS_SHOWING_OR_MUCKING", "HAND_KILLING", "CHIPS_PUSHING", "CHIPS_PULLING",
)
Stacks = tuple[int, ...]


def pokerkit_act(rng: random.Random, state: Any) -> None:
    """One random legal decision on a PokerKit state, by the rules of :func:`random_action`."""
    roll = rng.random()
    if roll < 0.2 and state.checking_or_calling_amount and state.can_fold():
        state.fold()
        return
    if roll < 0.45 and state.can_complete_bet_or_raise_to():
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        actor = state.actor_index
        if lo < state.stacks[actor] + state.bets[actor]:  # a full raise exists
            state.complete_bet_or_raise_to(rng.choice([lo, lo, hi, rng.randint(lo, hi)]))
            return
    state.check_or_call()


def make_pokerkit_hands(count: int, seed: int) -> list[tuple[str, Stacks]]:
    """``count`` random PLO hands played by PokerKit: its PHH text and the stacks it reached."""
    from pokerkit import Automation, HandHistory, Mode, PotLimitOmahaHoldem
    from pokerkit import Deck as PKDeck

    rng = random.Random(seed)
    automations = tuple(Automation[name] for name in PK_AUTOMATIONS)
    out = []
    for _ in range(count):
        big = rng.choice([2, 10, 50])
        players = rng.randint(2, 9)
        game = PotLimitOmahaHoldem(automations, True, 0, (big // 2, big), big,
                                   mode=Mode.CASH_GAME)
        state = game([rng.randint(20 * big, 200 * big) for _ in range(players)], players)
        deck = list(PKDeck.STANDARD)
        rng.shuffle(deck)
        while state.status:
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_deal_hole():
                state.deal_hole(deck[:4], state.hole_dealee_index)
                del deck[:4]
            elif state.can_deal_board():
                count_ = state.street.board_dealing_count
                state.deal_board(deck[:count_])
                del deck[:count_]
            else:
                pokerkit_act(rng, state)
        out.append((HandHistory.from_game_state(game, state).dumps(), tuple(state.stacks)))
    return out


def run_ours(texts: list[str]) -> list[Stacks]:
    return [phh.replay(phh.loads(text)).finishing_stacks for text in texts]


def run_pokerkit(texts: list[str]) -> list[Stacks]:
    from pokerkit import HandHistory

    out = []
    for text in texts:
        state = deque(HandHistory.loads(text), maxlen=1)[0]  # play to the end
        assert not state.status
        out.append(tuple(state.stacks))
    return out


Replayer = Callable[[list[str]], list[Stacks]]


def best_times(sides: list[Replayer], texts: list[str], repeat: int
               ) -> tuple[list[float], list[list[Stacks]]]:
    """Each side's best of ``repeat`` passes over the texts, taking turns, and its results."""
    best = [float("inf")] * len(sides)
    results: list[list[Stacks]] = [[] for _ in sides]
    for _ in range(repeat):
        for i, side in enumerate(sides):
            start = time.perf_counter()
            results[i] = side(texts)
            best[i] = min(best[i], time.perf_counter() - start)
    return best, results


def odd_chips_only(a: Stacks, b: Stacks) -> bool:
    """The two results differ only by a split's odd chips: each seat by fewer than the players."""
    return sum(a) == sum(b) and all(abs(x - y) < len(a) for x, y in zip(a, b, strict=True))


def compare(label: str, played: list[Stacks], ours: list[Stacks], theirs: list[Stacks],
            exact: str) -> list[str]:
    """Print how the replays agree; return the failures.

    ``exact``: which replayer must reproduce ``played`` exactly ("ours" or "PokerKit").
    """
    failures = []
    must, other = (ours, theirs) if exact == "ours" else (theirs, ours)
    wrong = sum(m != p for m, p in zip(must, played, strict=True))
    if wrong:
        failures.append(f"{label}: {exact}'s replay misses the played stacks in {wrong} hands")
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    odd = sum(a != b and odd_chips_only(a, b) for a, b in zip(ours, theirs, strict=True))
    worse = len(ours) - same - odd
    if worse:
        failures.append(f"{label}: the replays differ by more than odd chips in {worse} hands")
    names = ("our replay", "PokerKit's") if exact == "ours" else ("PokerKit's replay", "ours")
    other_ok = sum(o == p for o, p in zip(other, played, strict=True))
    print(f"  both replays give the same final stacks: {same}/{len(ours)}; differ by a split "
          f"pot's odd chips only: {odd}; otherwise: {worse}")
    print(f"  the stacks the hands were played to: {names[0]} {len(ours) - wrong}/{len(ours)},"
          f" {names[1]} {other_ok}/{len(ours)}")
    return failures


def bench_set(label: str, texts: list[str], played: list[Stacks], repeat: int,
              exact: str) -> list[str]:
    (ours_s, pk_s), (ours, theirs) = best_times([run_ours, run_pokerkit], texts, repeat)
    n = len(texts)
    print(f"{n} Pot-Limit Omaha hands {label}, replayed from PHH (best of {repeat} passes each)")
    print(f"  ours      {n / ours_s:10,.0f} hands/s  ({ours_s:.3f} s)")
    print(f"  PokerKit  {n / pk_s:10,.0f} hands/s  ({pk_s:.3f} s)")
    print(f"  ratio ours / PokerKit: {pk_s / ours_s:.1f}x (target >= 10x)")
    failures = compare(label, played, ours, theirs, exact)
    if pk_s / ours_s < 10:
        failures.append(f"{label}: ratio {pk_s / ours_s:.1f}x < 10x")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    texts = make_hands(args.hands, args.seed)
    played = [phh.loads(t).finishing_stacks or () for t in texts]
    failures = bench_set("written by us", texts, played, args.repeat, "ours")
    pk_hands = make_pokerkit_hands(args.hands, args.seed)
    failures += bench_set("written by PokerKit", [t for t, _ in pk_hands],
                          [s for _, s in pk_hands], args.repeat, "PokerKit")
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
