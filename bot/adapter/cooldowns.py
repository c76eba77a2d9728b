"""Cooldowns: one member's requests cannot cost everyone (issue 22).

* ``/table refresh`` posts the live table again (a post and a delete in the channel):
  only players seated at that table may ask, and a table is refreshed at most once per
  :data:`REFRESH_INTERVAL` seconds, whoever asks (the cog keeps one :class:`Cooldowns`
  keyed by table).
* The commands that draw a picture or read many rows (``/leaderboard``, ``/stats``,
  ``/hands``, ``/hand show``, ``/hand replay``, ``/hand export``) wait ``COMMAND_COOLDOWN`` seconds
  (:mod:`bot.settings`) between two runs by the same member, command by command
  (:func:`take_turn`, keyed by member and command).

A refusal is a :class:`TooSoon`, answered privately at once (before any deferral or
wait) in the reader's language, naming the moment to try again as a Discord timestamp
(``<t:…:R>``: every client words it and counts it down). A refused request starts no
new wait, and a request refused for its options (checked before the cooldown) costs no
turn. The waits live in memory: a restart forgets them, which costs at most one extra
run per member. Moments are the bot's wall clock (:meth:`bot.client.OmahaDealer.now`,
which tests drive).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Command, Phrase

__all__ = ["REFRESH_INTERVAL", "Cooldowns", "TooSoon", "moment", "take_turn"]

#: Seconds between two refreshes of one table (``refuse.refresh.too_soon`` says 30).
REFRESH_INTERVAL = 30.0
#: Waits remembered before the finished ones are forgotten.
_PRUNE_AT = 10_000


class TooSoon(app_commands.AppCommandError):
    """A request refused until a moment; ``phrase`` says when (``bot.adapter.polite``)."""

    def __init__(self, phrase: Phrase) -> None:
        self.phrase = phrase
        super().__init__(str(phrase))


def moment(at: float) -> str:
    """A Unix time as Discord's relative timestamp, rounded up to the second."""
    return f"<t:{math.ceil(at)}:R>"


class Cooldowns:
    """Per key, at most one use every ``seconds`` (0: no wait) by ``clock`` (Unix seconds)."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self._used: dict[Hashable, float] = {}

    def __len__(self) -> int:
        """How many waits are remembered (finished ones go once there are many)."""
        return len(self._used)

    def ready_at(self, key: Hashable) -> float | None:
        """When ``key`` may be used again (Unix seconds), or None when it may be now."""
        used = self._used.get(key)
        if used is None or self.seconds <= 0:
            return None
        at = used + self.seconds
        return at if at > self.clock() else None

    def use(self, key: Hashable) -> None:
        """``key`` was used now: its wait starts."""
        if self.seconds <= 0:
            return
        now = self.clock()
        if len(self._used) >= _PRUNE_AT:
            self._used = {k: t for k, t in self._used.items() if t + self.seconds > now}
        self._used[key] = now


def take_turn(
    cooldowns: Cooldowns, interaction: discord.Interaction[Any], command: str
) -> None:
    """Let the member run ``command`` now and start their wait, or raise :class:`TooSoon`."""
    key = (interaction.user.id, command)
    at = cooldowns.ready_at(key)
    if at is not None:
        raise TooSoon(Phrase("refuse.cooldown", command=Command(command), when=moment(at)))
    cooldowns.use(key)
