"""Cooldowns: one member's requests cannot cost everyone (issues 22 and 29).

* ``/table refresh`` posts the live table again (a post and a delete in the channel):
  only players seated at that table may ask, and a table is refreshed at most once per
  :data:`REFRESH_INTERVAL` seconds, whoever asks (the cog keeps one :class:`Cooldowns`
  keyed by table).
* The commands that draw a picture, read many rows or ask Discord (``/leaderboard``,
  ``/stats``, ``/hands``, ``/hand show``, ``/hand replay``, ``/hand export``, ``/hand
  verify``) wait ``COMMAND_COOLDOWN`` seconds (:mod:`bot.settings`) between two runs by
  the same member, command by command (:func:`take_turn`, keyed by member and command);
  the buttons that draw what a command draws wait with it (**Hand log** and the
  ``/hands`` buttons with ``/hand show``, **Replay** with ``/hand replay``).
* A leaderboard's page buttons: a member turns up to :data:`PAGER_BURST` pages at once,
  then one every ``COMMAND_COOLDOWN`` seconds (:func:`turn_page`). Decision: a token
  bucket rather than a wait between pages (a wait at every page reads as broken) or a
  cache of drawn pages (the values move with every hand: a cached page would show
  stale ranks); it still bounds the renders, to :data:`PAGER_BURST` plus one per
  ``COMMAND_COOLDOWN`` per member over all their pagers.
* ``/cards``, the **My seat** button (a seat panel, opened or reopened) and the older
  messages' **My cards** draw the player's hole cards outside the render gate:
  :data:`CARDS_BURST` at once, then one every ``COMMAND_COOLDOWN`` seconds (a player
  looks once or twice a street; the bucket never stops that). An open panel's own
  pictures (one per street) come with the table's events, not from clicks.

What else a member can make the bot draw or ask of Discord, and what bounds it:
the table's own commands and buttons (``/table join|leave|sitin|sitout|topup|settings|
close``, the seat buttons, actions, pre-actions, the run-it-twice answers and the raise
form) change the live table, whose edits the table's channel coalesces (only the newest
state goes out) under the bot's request budget (:mod:`bot.adapter.pacing`) and whose
pictures go through the render gate (:mod:`bot.adapter.pictures`): bounded per table,
whoever clicks. ``/table create`` is bounded by the caps on open tables. Every other
command (``/balance``, ``/daily``, ``/help``, ``/prefs``, ``/table info|mine|limits``,
``/tournament ...``, the managers' ``/chips`` and ``/economy settings``) and every
autocomplete only answers, through the interaction's own routes, which Discord keeps
outside the bot's global limit (a multi-table tournament opens its threads once, at
its start).

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

__all__ = ["CARDS_BURST", "PAGER_BURST", "REFRESH_INTERVAL", "Cooldowns", "TooSoon", "moment",
           "take_turn", "turn_page"]

#: Seconds between two refreshes of one table (``refuse.refresh.too_soon`` says 30).
REFRESH_INTERVAL = 30.0
#: Leaderboard pages a member may turn at once (then one per ``COMMAND_COOLDOWN``).
PAGER_BURST = 4
#: Looks at one's hole cards at once (then one per ``COMMAND_COOLDOWN``).
CARDS_BURST = 4
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
    """Per key, at most one use every ``seconds`` (0: no wait) by ``clock`` (Unix seconds).

    Asked with a ``burst``, :meth:`ready_at` allows up to ``burst`` uses in a row: each
    spends one of ``burst`` turns, which come back one every ``seconds`` (a token bucket,
    kept as the moment the key's turns are all back: the generic cell rate algorithm);
    ``burst`` 1 is the plain cooldown. A key is always asked with the same ``burst``."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        #: Per key, when its turns are all back (Unix seconds).
        self._full: dict[Hashable, float] = {}

    def __len__(self) -> int:
        """How many waits are remembered (finished ones go once there are many)."""
        return len(self._full)

    def ready_at(self, key: Hashable, burst: int = 1) -> float | None:
        """When ``key`` may be used again (Unix seconds), or None when it may be now."""
        full = self._full.get(key)
        if full is None or self.seconds <= 0:
            return None
        at = full - (burst - 1) * self.seconds
        return at if at > self.clock() else None

    def use(self, key: Hashable) -> None:
        """``key`` was used now: one of its turns is spent (its wait starts)."""
        if self.seconds <= 0:
            return
        now = self.clock()
        if len(self._full) >= _PRUNE_AT:
            self._full = {k: t for k, t in self._full.items() if t > now}
        self._full[key] = max(self._full.get(key, now), now) + self.seconds


def take_turn(
    cooldowns: Cooldowns, interaction: discord.Interaction[Any], command: str,
    *, burst: int = 1,
) -> None:
    """Let the member run ``command`` now and start their wait (spend one of ``burst``
    turns), or raise :class:`TooSoon`."""
    key = (interaction.user.id, command)
    at = cooldowns.ready_at(key, burst)
    if at is not None:
        raise TooSoon(Phrase("refuse.cooldown", command=Command(command), when=moment(at)))
    cooldowns.use(key)


def turn_page(cooldowns: Cooldowns, interaction: discord.Interaction[Any]) -> None:
    """Let the member turn a leaderboard's page now (one of :data:`PAGER_BURST`), or raise
    :class:`TooSoon`."""
    key = (interaction.user.id, "leaderboard page")
    at = cooldowns.ready_at(key, PAGER_BURST)
    if at is not None:
        raise TooSoon(Phrase("refuse.pager_too_soon", when=moment(at)))
    cooldowns.use(key)
