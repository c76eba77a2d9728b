"""Finished hands played on the engine and rebuilt as the database would give them back,
for the replay tests (a policy per action: the hand's shape is known, its cards random)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.betting import LegalActions
from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Deck
from bot.engine.hand import Hand, SeatIn
from bot.runtime.bomb_pots import hand_settings
from bot.runtime.config import TableConfig
from bot.runtime.decisions import RUN_ONCE, RUN_TWICE, replay_stored
from bot.runtime.hand_history import PastHand, rebuild

Policy = Callable[[Hand, LegalActions, int], tuple[str, int | None]]


def calling(hand: Hand, legal: LegalActions, step: int) -> tuple[str, int | None]:
    """Check when possible, else call: everyone sees a showdown."""
    return ("check", None) if legal.can_check else ("call", None)


def busy(hand: Hand, legal: LegalActions, step: int) -> tuple[str, int | None]:
    """A lively hand: a raise, folds, calls, then everyone left all-in on the turn."""
    if hand.street.value == "turn" and legal.max_raise_to is not None:
        return "allin", None
    if step % 7 == 3:
        return "fold", None
    if step in (1, 5) and legal.min_raise_to is not None:
        return "raise", legal.min_raise_to
    return ("check", None) if legal.can_check else ("call", None)


def war(actions: int) -> Policy:
    """A min-raise war: every player raises the least they may until ``actions`` actions
    have been taken, then calls (heads-up with deep stacks: the hostile hand of issue 29)."""

    def policy(hand: Hand, legal: LegalActions, step: int) -> tuple[str, int | None]:
        if step < actions - 1 and legal.min_raise_to is not None:
            return "raise", legal.min_raise_to
        return ("check", None) if legal.can_check else ("call", None)

    return policy


def play(seats: int = 4, **options: Any) -> PastHand:
    """The rebuilt hand of :func:`played`."""
    return played(seats, **options)[0]


def played(
    seats: int = 4, *, variant: str = "omaha", policy: Policy = calling, twice: bool = False,
    stacks: Sequence[int] | None = None, seed: int = 7, number: int = 3,
    structure: str = "no limit", steps: int = 400, straddles: Sequence[int] = (),
    bomb: BombPot | None = None,
) -> tuple[PastHand, list[dict[str, Any]]]:
    """A hand of ``seats`` players played to its end with ``policy`` (every player agrees to
    run it twice when ``twice``; ``straddles``: the seats that chose to straddle; a
    ``bomb`` pot), rebuilt from its stored form; and its stored actions."""
    config = TableConfig.create(variant_key=variant, structure=structure, seats=max(seats, 2),
                                run_it_twice=twice)
    chips = list(stacks or [200 + 10 * i for i in range(seats)])
    order = list(Deck(rng=random.Random(seed)).order)
    button = seats
    sits = [(s, 1000 + s, chips[s - 1], False) for s in range(1, seats + 1)]
    hand = Hand(config.game, [SeatIn(s, c, bb, s in straddles) for s, _, c, bb in sits],
                button, Deck(order=order), bomb)
    hand.start()
    actions: list[dict[str, Any]] = []
    for step in range(steps):
        if hand.is_over:
            break
        voters = hand.run_twice_voters
        if voters:
            record = {"seat": voters[0], "kind": RUN_TWICE if twice else RUN_ONCE,
                      "amount": None}
        else:
            legal = hand.legal_actions()
            assert legal is not None
            kind, amount = policy(hand, legal, step)
            record = {"seat": legal.seat, "kind": kind, "amount": amount}
        replay_stored(hand, int(record["seat"]), str(record["kind"]), record["amount"])
        actions.append(record)
    assert hand.is_over
    past = rebuild(hand_id=50, table_id=9, number=number, ended_at=None,
                   settings=hand_settings(config.to_dict(), bomb), button=button, seats=sits,
                   actions=actions, deck=order, straddles=straddles)
    return past, actions


def engine_after(past: PastHand, actions: Sequence[dict[str, Any]]) -> Hand:
    """A fresh engine hand on ``past``'s seats and deck with ``actions`` played again."""
    stacks = past.hand.starting_stacks
    hand = Hand(past.config.game, [SeatIn(s, stacks[s]) for s in past.hand.seat_order],
                past.hand.button, Deck(order=past.hand.deck.order))
    hand.start()
    for a in actions:
        replay_stored(hand, int(a["seat"]), str(a["kind"]), a["amount"])
    return hand


__all__ = ["busy", "calling", "engine_after", "play", "played", "war"]
