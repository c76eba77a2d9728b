"""The straddle (RULES.md 10): who posts one in a hand, and how much.

A player chooses once to straddle whenever they are under the gun
(:attr:`~bot.engine.hand_state.SeatIn.straddle`); :func:`straddler` says
whether the hand about to be dealt has a straddle, and whose. It is posted
before the deal, after the blinds, as a live blind of twice the big blind
(:func:`straddle_amount`): for this hand's preflop round it is the bet to
match and the minimum raise increment, action starts left of the straddler,
and the straddler acts last, with the option to raise when nobody raised.

Decisions where RULES.md is silent:

* The player under the gun is the first seat after the big blind: with three
  players dealt in, the button.
* "Can cover it": the stack left after the ante is at least the straddle (a
  stack of exactly the straddle posts it and is all-in).
* A newcomer posting their entering big blind out of position on that seat
  posts the big blind owed and does not straddle in that hand.
* Fixed limit has no straddle, whatever the players chose (a table may deal
  fixed-limit hands among others: the choice waits for the next no-limit or
  pot-limit hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine.variants import GameConfig, Structure

__all__ = ["MIN_PLAYERS", "STRADDLE", "UNDER_THE_GUN", "straddle_amount", "straddler"]

#: The ``blind`` of a :class:`~bot.engine.events.BlindPosted` straddle.
STRADDLE = "straddle"
#: Fewest players dealt in for a straddle: heads-up there is none.
MIN_PLAYERS = 3
#: The position under the gun (positions count from the first seat after the button).
UNDER_THE_GUN = 2


class Wish(Protocol):
    """What :func:`straddler` reads of a seat dealt in (a ``SeatIn``)."""

    @property
    def stack(self) -> int: ...

    @property
    def posts_big_blind(self) -> bool: ...

    @property
    def straddle(self) -> bool: ...


def straddle_amount(config: GameConfig) -> int:
    """Twice the big blind."""
    return 2 * config.big_blind


def straddler(config: GameConfig, seats: Sequence[Wish]) -> int | None:
    """The position (0: the first seat after the button) that straddles in this hand, or
    ``None``. ``seats`` are the players dealt in, in position order."""
    if config.structure is Structure.FIXED_LIMIT or len(seats) < MIN_PLAYERS:
        return None
    utg = seats[UNDER_THE_GUN]
    if not utg.straddle or utg.posts_big_blind:
        return None
    ante = min(config.ante, utg.stack)
    return UNDER_THE_GUN if utg.stack - ante >= straddle_amount(config) else None
