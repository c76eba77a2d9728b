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
  dealer cannot hear the tournament's server, or cannot write (below), as the turn clock
  does (no hand is dealt meanwhile, so a level would otherwise run out unplayed).
  :class:`Hearing` counts how long each shard's tables stood still for it.

The same holds while the dealer cannot *write* (the database's disk is full or
read-only, PostgreSQL is down: :mod:`bot.storage.outage`): every decision a player
sends is refused then, so no clock may run out either, and no hand is dealt
(:meth:`Hearing.storage_down`, :meth:`Hearing.storage_up`, for every shard at once).
A table deaf for both reasons at once hears again when both are over, its clock
stopped from the first.

What a table does meanwhile and after: :mod:`bot.runtime.table.waiting`. This module
imports nothing from discord.py.
"""

from __future__ import annotations

from typing import Protocol

from bot.sharding import shard_of

__all__ = [
    "GATEWAY", "GRACE", "NOTICEABLE", "STORAGE", "HeardClock", "Hearing", "deadline_after",
    "started_after",
]

#: Why a clock waited (told with the decision asked again): the gateway was down...
GATEWAY = "gateway"
#: ... or the dealer could not write.
STORAGE = "storage"

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
    the tables' clock); and since when it cannot write, if it cannot. Every shard is
    heard until :meth:`deafen` or :meth:`storage_down` says otherwise."""

    def __init__(self, shard_count: int = 1) -> None:
        if shard_count < 1:
            raise ValueError("a bot has at least one shard")
        self.shard_count = shard_count
        self._deaf: dict[int, float] = {}
        self._unwritable: float | None = None
        #: shards whose connection came back while the dealer could not write: since
        #: when they were deaf (their tables hear again with the storage)
        self._carried: dict[int, float] = {}
        #: per shard, since when its level clocks stand still (deaf or unwritable)...
        self._still: dict[int, float] = {}
        self._lost: dict[int, float] = {}  # ... and for how long in all before

    def shard(self, guild_id: int) -> int:
        """The shard whose connection carries ``guild_id``'s clicks and commands."""
        return shard_of(guild_id, self.shard_count)

    def hears(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s tables' clocks run."""
        return self._unwritable is None and self.shard(guild_id) not in self._deaf

    def deafen(self, shard: int, now: float) -> bool:
        """``shard``'s connection is down from ``now`` (a shard already deaf stays deaf
        since its first moment); True when it was heard until now."""
        if shard in self._deaf:
            return False
        self._deaf[shard] = self._carried.pop(shard, now)
        self._count_still(now)
        return True

    def hear(self, shard: int, now: float) -> float | None:
        """``shard``'s connection is up again at ``now``: since when it was deaf (None: it
        was heard, or it still is not, as the dealer cannot write)."""
        since = self._deaf.pop(shard, None)
        if since is None:
            return None
        self._count_still(now)
        if self._unwritable is not None:
            self._carried[shard] = since
            return None
        return since

    def deaf_seconds(self, shard: int, now: float) -> float:
        """How long, up to ``now``, ``shard``'s tables could not be played in all: its
        gateway down or the dealer unable to write (both at once counted once)."""
        since = self._still.get(shard)
        return self._lost.get(shard, 0.0) + (0.0 if since is None else max(0.0, now - since))

    def _count_still(self, now: float) -> None:
        """Each shard's still time after a change at ``now``: a shard that stops being
        played starts counting, one played again adds what it counted."""
        for shard in range(self.shard_count):
            still = self._unwritable is not None or shard in self._deaf
            if still and shard not in self._still:
                self._still[shard] = now
            elif not still and shard in self._still:
                since = self._still.pop(shard)
                self._lost[shard] = self._lost.get(shard, 0.0) + max(0.0, now - since)

    def storage_down(self, now: float) -> bool:
        """The dealer cannot write from ``now``: no table's clock runs; True when it
        could until now."""
        if self._unwritable is not None:
            return False
        self._unwritable = now
        self._count_still(now)
        return True

    def storage_up(self, now: float) -> dict[int, float]:
        """The dealer can write again at ``now``: the shards heard now, each with since
        when its tables were deaf (none when it could write all along)."""
        since, self._unwritable = self._unwritable, None
        if since is None:
            return {}
        self._count_still(now)
        for shard, deaf in self._deaf.items():  # still deaf: since the earlier moment
            self._deaf[shard] = min(deaf, since)
        heard = {s: since for s in range(self.shard_count) if s not in self._deaf}
        for shard, deaf in self._carried.items():
            heard[shard] = min(deaf, since)
        self._carried.clear()
        return heard


class NowClock(Protocol):
    def now(self) -> float: ...


class HeardClock:
    """``clock`` less the time the dealer could not hear ``guild_id``: it stands still
    while the server's shard is deaf or the dealer cannot write (a tournament's blind
    levels, RULES.md 8)."""

    def __init__(self, clock: NowClock, hearing: Hearing, guild_id: int) -> None:
        self.clock = clock
        self.hearing = hearing
        self.shard = hearing.shard(guild_id)

    def now(self) -> float:
        now = self.clock.now()
        return now - self.hearing.deaf_seconds(self.shard, now)
