"""The gateway tells the tables whether the dealer hears them (RULES.md 8).

Every click and command reaches the bot through Discord's gateway; while a shard's
connection is down nothing from its servers does, so their tables' clocks stop
(:mod:`bot.runtime.hearing`, :mod:`bot.runtime.table.waiting`). discord.py says when:

* one connection (``OmahaDealer``): ``on_disconnect`` when it drops (a network cut, a
  missed heartbeat, a reconnect Discord asks for); ``on_connect`` (a new session's
  READY: clicks may arrive from then on) or ``on_resumed`` (RESUMED) when it is back;
* shards (``ShardedOmahaDealer``): the same per shard, with its id:
  ``on_shard_disconnect``, then ``on_shard_connect`` or ``on_shard_resumed``. The whole
  client's ``on_disconnect``, ``on_connect`` and ``on_resumed``, which discord.py
  dispatches beside them without the id, are ignored.

``on_ready`` and ``on_shard_ready`` are not followed: discord.py dispatches them a moment
after READY, once the servers have streamed in, and a connection may drop meanwhile.

Before a connection's first READY the dealer hears nothing on it: :func:`follow_gateway`
runs before the open tables are restored, so a hand a restart resumes waits for its
shard's connection (with many shards the last connects a while after the start:
Discord lets a bot identify one shard every 5 s).
"""

from __future__ import annotations

from collections.abc import Sequence

from discord.ext import commands

from bot.runtime.registry import TableRegistry

__all__ = ["follow_gateway"]


def follow_gateway(bot: commands.Bot, registry: TableRegistry, shards: Sequence[int]) -> None:
    """The dealer hears none of ``shards`` (this process's) until its connection is up,
    then follows ``bot``'s gateway events."""
    for shard in shards:
        registry.deafen(shard)
    if isinstance(bot, commands.AutoShardedBot):

        async def shard_up(shard_id: int) -> None:
            await registry.hear(shard_id)

        async def shard_down(shard_id: int) -> None:
            registry.deafen(shard_id)

        for name in ("on_shard_connect", "on_shard_resumed"):
            bot.add_listener(shard_up, name)
        bot.add_listener(shard_down, "on_shard_disconnect")
        return

    async def up() -> None:
        await registry.hear(0)

    async def down() -> None:
        registry.deafen(0)

    for name in ("on_connect", "on_resumed"):
        bot.add_listener(up, name)
    bot.add_listener(down, "on_disconnect")
