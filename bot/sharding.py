"""Which servers this process serves when the bot runs as several processes.

Discord splits a bot's gateway into shards: server ``g`` belongs to shard
``(g >> 22) % shard_count`` (Discord's formula, from the id's timestamp bits),
its interactions and events arrive on that shard's connection only, and
direct messages on shard 0. A process runs the shards ``SHARD_IDS`` of
``SHARD_COUNT`` (:class:`ShardRange`); a table belongs to its server, so to
one shard, so to exactly one process: that process plays it and, after a
restart, is the only one that resumes it (:meth:`ShardRange.owns`).

This module imports nothing from discord.py.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Discord's limit on shards per bot is set per application; 4,096 covers any
#: bot below the large-bot programme and keeps a typo (``SHARD_COUNT=40000``) out.
MAX_SHARDS = 4096


class ShardError(ValueError):
    """``SHARD_COUNT`` or ``SHARD_IDS`` cannot be used; the message names it."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that serves ``guild_id`` (Discord's ``(guild_id >> 22) % shard_count``)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardRange:
    """The shards ``ids`` of ``count`` that this process connects and plays."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def parse(cls, count_text: str, ids_text: str) -> ShardRange | None:
        """From the settings' text; None when neither is set (one unsharded connection).

        ``SHARD_IDS`` is a range ``2-5`` (both ends included), a list ``0,2,7``
        or one id; empty means every shard of ``SHARD_COUNT``.
        """
        count_text, ids_text = count_text.strip(), ids_text.strip()
        if not count_text:
            if ids_text:
                raise ShardError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has)")
            return None
        if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
            raise ShardError(
                f"SHARD_COUNT must be a number from 1 to {MAX_SHARDS}, got {count_text!r}"
            )
        count = int(count_text)
        ids = _ids(ids_text, count) if ids_text else tuple(range(count))
        return cls(count=count, ids=ids)

    def owns(self, guild_id: int) -> bool:
        """True when ``guild_id``'s shard is one of this process's."""
        return shard_of(guild_id, self.count) in self.ids

    @property
    def share(self) -> float:
        """This process's part of the bot: Discord's global request limit is per bot
        (one token, every process), so each process paces itself to this share of it."""
        return len(self.ids) / self.count

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


def _ids(text: str, count: int) -> tuple[int, ...]:
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ShardError(f"SHARD_IDS must look like 0-3 or 0,2,5, got {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ShardError(f"SHARD_IDS range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    wrong = [i for i in ids if i >= count]
    if wrong:
        raise ShardError(f"SHARD_IDS {wrong[0]} is not below SHARD_COUNT {count} (ids start at 0)")
    if len(set(ids)) != len(ids):
        raise ShardError(f"SHARD_IDS names a shard twice: {text!r}")
    return tuple(sorted(ids))
