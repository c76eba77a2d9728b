"""Which hands are bomb pots, and who is dealt into one (RULES.md 10): pure functions.

The engine plays a bomb pot (:mod:`bot.engine.bomb_pot`); the table decides here, before
each deal, whether the hand is one:

* **On**: a cash table's ``bomb_pot_every`` or ``bomb_pot_ante`` is set (a table with an
  ante and no schedule deals them only when proposed, :mod:`bot.runtime.table.bomb_vote`).
  Tournament tables never deal one (their settings have neither).
* **The ante**: ``bomb_pot_ante`` big blinds, or :data:`DEFAULT_ANTE` (2) big blinds when
  bomb pots are on without one; ``double_board`` deals it on two boards (when the deck
  holds them, the engine's call).
* **Every N hands**: the hands whose number is a multiple of N (hand 10, 20, ... with
  N = 10), counted by the table's hand numbers, so a restart keeps the rhythm; and a
  hand every player to be dealt in agreed to (:func:`choose`).
* **Who is dealt in** (:func:`without_entering`): the seating of RULES.md 3 as for any
  hand (the button moves as usual), less the players waiting to enter (they owe a big
  blind: whether they wait for it or would post it, they are not dealt in and still owe
  it). Nobody posts a blind; the blinds simply are not posted and move on with the
  button. With fewer than two players left, the hand is dealt as usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.engine.bomb_pot import BombPot
from bot.i18n import Listed, Name, Phrase
from bot.runtime.config import HAND_BOMB_POT, TableConfig
from bot.runtime.seating import DealPlan, Seat

__all__ = ["DEFAULT_ANTE", "bomb_of", "choose", "hand_settings", "on", "scheduled",
           "stored_bomb_pot", "without_entering"]

#: The bomb ante, in big blinds, of a table whose bomb pots are on without one.
DEFAULT_ANTE = 2


def on(config: TableConfig) -> bool:
    """Bomb pots are on at this table (scheduled, proposed, or both)."""
    return bool(config.bomb_pot_every or config.bomb_pot_ante)


def bomb_of(config: TableConfig) -> BombPot:
    """The bomb pot this table deals: its ante in chips, one board or two."""
    ante = (config.bomb_pot_ante or DEFAULT_ANTE) * config.big_blind
    return BombPot(ante, config.double_board)


def scheduled(config: TableConfig, hand_no: int) -> bool:
    """Hand ``hand_no`` is one of the every-N-hands bomb pots."""
    every = config.bomb_pot_every
    return every > 0 and hand_no % every == 0


def without_entering(plan: DealPlan, seats: Mapping[int, Seat]) -> DealPlan | None:
    """``plan`` less the players waiting to enter (and so with no big blind posted out of
    position); None when fewer than two are left."""
    dealt = tuple(n for n in plan.dealt if not seats[n].needs_big_blind)
    if len(dealt) < 2:
        return None
    return replace(plan, dealt=dealt, posts=frozenset())


def choose(
    config: TableConfig, plan: DealPlan, seats: Mapping[int, Seat], hand_no: int,
    agreed: frozenset[int] | None,
) -> tuple[BombPot | None, DealPlan, Phrase | None]:
    """Whether hand ``hand_no`` is a bomb pot, who is dealt in, and what the table is told
    when a bomb pot due is dealt as a usual hand. ``agreed``: the users who agreed to a
    proposal for this hand (None: no proposal was accepted for it)."""
    if not on(config) or not (scheduled(config, hand_no) or agreed is not None):
        return None, plan, None
    bomb_plan = without_entering(plan, seats)
    if bomb_plan is None:
        return None, plan, Phrase("notice.bomb_pot.too_few")
    if not scheduled(config, hand_no) and agreed is not None:
        missing = [Name(seats[n].name) for n in bomb_plan.dealt
                   if seats[n].user_id not in agreed]
        if missing:
            return None, plan, Phrase("notice.bomb_pot.not_agreed", names=Listed(missing))
    return bomb_of(config), bomb_plan, None


def hand_settings(settings: dict[str, Any], bomb: BombPot | None) -> dict[str, Any]:
    """The settings stored with a hand: the table's, and the hand's own bomb pot if any."""
    return settings if bomb is None else {**settings, HAND_BOMB_POT: bomb.to_dict()}


def stored_bomb_pot(settings: Mapping[str, Any]) -> BombPot | None:
    """The bomb pot a stored hand was dealt as (None: a usual hand)."""
    data = settings.get(HAND_BOMB_POT)
    return BombPot.from_dict(dict(data)) if data else None
