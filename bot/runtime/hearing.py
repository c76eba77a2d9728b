"""Whether the dealer hears a table: its clocks run only while it does (RULES.md 8).

Every click and command reaches the bot through Discord's gateway, one connection per
shard (a server belongs to shard ``(guild_id >> 22) % shard_count``,
:mod:`bot.sharding`). While a shard's connection is down, or before it is up after a
(re)start, the players of its servers cannot act, so no decision of theirs may time out:

* :class:`Hearing` keeps which shards the dealer cannot hear, and since when (the Discord
  side tells it: :mod:`bot.adapter.hearing`; the registry holds it and gives it to every
  table, :meth:`bot.runtime.registry.TableRegistry.deafen` and ``hear``);
* :func:`deadline_after` and :func:`started_after` (pure) move a decision's clock past a
  time the dealer could not hear it: the decision gets the time it had left when the
  dealer stopped hearing, and at least :data:`GRACE` seconds, from the moment it hears
  again. The time bank is part of that time: it does not run down either.
* :class:`HeardClock` is a tournament's blind-level clock: it stands still while the
  dealer cannot hear the tournament's server, as the turn clock does (no hand is dealt
  meanwhile, so a level would otherwise run out unplayed). :class:`Hearing` counts how
  long each shard was deaf for it.

What a table does meanwhile and after: :mod:`bot.runtime.table.waiting`. This module
imports nothing from discord.py.
"""

from __future__ import annotations

from typing import Protocol

from bot.sharding import shard_of

__all__ = ["GRACE", "NOTICEABLE", "HeardClock", "Hearing", "deadline_after", "started_after"]

#: Seconds the player to act has at least once the dealer hears the table again.
GRACE = 15.0
#: A deadline moved by less (a gateway blip with more than :data:`GRACE` left) is not
#: worth telling the table: Discord's timestamps count whole seconds.
NOTICEABLE = 1.0


def deadline_after(deadline: float, paused_at: float, resumed_at: float) -> float:
    """The new deadline of a decision due at ``deadline`` whose clock stopped at
    ``paused_at`` and runs again from ``resumed_at``: the time it had left at
    ``paused_at`` (none if it was already due), and at least :data:`GRACE`, from
    ``resumed_at``."""
    left = max(0.0, deadline - paused_at)
    return resumed_at + max(left, GRACE)


def started_after(started: float, length: float, deaf_since: float, now: float) -> float:
    """Where a decision of ``length`` seconds begun at ``started`` starts now that the
    dealer hears it again at ``now``, after hearing nothing since ``deaf_since`` (a
    decision begun meanwhile stopped at its start): its new start, so that its time
    spent is what ran while the dealer heard it, less any :data:`GRACE` added."""
    paused_at = max(started, deaf_since)
    return deadline_after(started + length, paused_at, now) - length


class Hearing:
    """Which shards of ``shard_count`` the dealer cannot hear, and since when (moments on
    the tables' clock). Every shard is heard until :meth:`deafen` says otherwise."""

    def __init__(self, shard_count: int = 1) -> None:
        if shard_count < 1:
            raise ValueError("a bot has at least one shard")
        self.shard_count = shard_count
        self._deaf: dict[int, float] = {}
        self._lost: dict[int, float] = {}  # seconds deaf, per shard, in past outages

    def shard(self, guild_id: int) -> int:
        """The shard whose connection carries ``guild_id``'s clicks and commands."""
        return shard_of(guild_id, self.shard_count)

    def hears(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s tables' clocks run."""
        return self.shard(guild_id) not in self._deaf

    def deafen(self, shard: int, now: float) -> bool:
        """``shard``'s connection is down from ``now`` (a shard already deaf stays deaf
        since its first moment); True when it was heard until now."""
        if shard in self._deaf:
            return False
        self._deaf[shard] = now
        return True

    def hear(self, shard: int, now: float) -> float | None:
        """``shard``'s connection is up again at ``now``: since when it was deaf (None: it
        was heard)."""
        since = self._deaf.pop(shard, None)
        if since is not None:
            self._lost[shard] = self._lost.get(shard, 0.0) + max(0.0, now - since)
        return since

    def deaf_seconds(self, shard: int, now: float) -> float:
        """How long, up to ``now``, the dealer could not hear ``shard`` in all."""
        since = self._deaf.get(shard)
        return self._lost.get(shard, 0.0) + (0.0 if since is None else max(0.0, now - since))


class NowClock(Protocol):
    def now(self) -> float: ...


class HeardClock:
    """``clock`` less the time the dealer could not hear ``guild_id``: it stands still
    while the server's shard is deaf (a tournament's blind levels, RULES.md 8)."""

    def __init__(self, clock: NowClock, hearing: Hearing, guild_id: int) -> None:
        self.clock = clock
        self.hearing = hearing
        self.shard = hearing.shard(guild_id)

    def now(self) -> float:
        now = self.clock.now()
        return now - self.hearing.deaf_seconds(self.shard, now)
