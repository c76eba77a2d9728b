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

What a table does meanwhile and after: :mod:`bot.runtime.table.waiting`. This module
imports nothing from discord.py.
"""

from __future__ import annotations

from bot.sharding import shard_of

__all__ = ["GRACE", "NOTICEABLE", "Hearing", "deadline_after", "started_after"]

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

    def hear(self, shard: int) -> float | None:
        """``shard``'s connection is up again: since when it was deaf (None: it was heard)."""
        return self._deaf.pop(shard, None)
