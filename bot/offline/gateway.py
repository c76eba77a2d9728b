"""The gateway dropping and coming back, in the offline Discord (simcord has no verb for it).

simcord gives the bot one fake websocket per shard and delivers a gateway event only
through an open one (``simcord.gateway.ShardRouter.feed``): what happens in a server
whose shard's socket is closed never reaches the bot, as on Discord while a connection
is down (a member's click or command then fails on their side: "This interaction
failed"). What simcord lacks is the cut itself and what follows it:

* :func:`drop`: the socket closes and the bot is told as discord.py tells it after a
  network cut: ``on_disconnect`` (sharded: with ``on_shard_disconnect`` and the id);
* :func:`resume`: the socket opens again and Discord answers the bot's RESUME with
  RESUMED: ``on_resumed`` (sharded: with ``on_shard_resumed``); what was missed stays lost
  (interactions are not replayed: they expired);
* :func:`reconnect`: a new session instead (the old one could not be resumed): READY,
  then the shard's servers again: ``on_connect`` and ``on_ready`` (sharded:
  ``on_shard_connect`` and ``on_shard_ready`` too), as simcord's own start does.

Internals used (simcord is pinned): an unsharded client's ``ws`` is simcord's
``FakeWebSocket``; a sharded one's is its shard's (discord.py's ``ShardInfo._parent``,
simcord's ``FakeShard``, ``.ws``); a ``FakeWebSocket`` has ``open`` and its
``FakeGateway`` (``_gateway.feed``, discord.py's real parsers); ``Env._bot_scope`` makes
the tasks these events start the bot's, so settling waits for them.
"""

from __future__ import annotations

from typing import Any

import discord
from simcord import Env
from simcord.backend import serializers

from bot.sharding import shard_of

__all__ = ["drop", "is_down", "reconnect", "resume", "shards_of"]


def shards_of(bot: discord.Client) -> tuple[int, ...]:
    """The shards ``bot`` connects (``(0,)`` unsharded)."""
    if isinstance(bot, discord.AutoShardedClient):
        return tuple(sorted(bot.shards))
    return (0,)


def _socket(bot: discord.Client, shard: int) -> Any:
    if isinstance(bot, discord.AutoShardedClient):
        info = bot.get_shard(shard)
        if info is None:
            raise ValueError(f"the bot runs no shard {shard}")
        return info._parent.ws
    if shard != 0:
        raise ValueError("an unsharded bot has one connection, shard 0")
    return bot.ws


def is_down(bot: discord.Client, shard: int) -> bool:
    """Whether ``shard``'s connection is down."""
    return not _socket(bot, shard).open


def drop(env: Env, shard: int) -> None:
    """``shard``'s connection is cut: nothing reaches the bot on it until it is back."""
    bot, socket = env.bot, _socket(env.bot, shard)
    if not socket.open:
        return
    socket.open = False
    with env._bot_scope():
        bot.dispatch("disconnect")
        if isinstance(bot, discord.AutoShardedClient):
            bot.dispatch("shard_disconnect", shard)


def resume(env: Env, shard: int) -> None:
    """``shard``'s connection is back and its session resumed (RESUMED)."""
    socket = _socket(env.bot, shard)
    if socket.open:
        return
    socket.open = True
    with env._bot_scope():
        socket._gateway.feed("RESUMED", {"__shard_id__": shard})


def reconnect(env: Env, shard: int) -> None:
    """``shard``'s connection is back on a new session (READY, then its servers)."""
    bot, socket, backend = env.bot, _socket(env.bot, shard), env.backend
    if socket.open:
        return
    socket.open = True
    count = bot.shard_count or 1
    with env._bot_scope():
        socket._gateway.feed("READY", {
            "v": 10,
            "user": dict(serializers.user_payload(backend.bot_user)),
            "guilds": [],
            "session_id": f"offline-session-{shard}-again",
            "resume_gateway_url": "wss://simcord.invalid",
            "shard": [shard, count],
            "application": {"id": str(backend.application_id), "flags": 0},
        })
        for guild in list(backend.guilds.values()):
            if shard_of(guild.id, count) == shard:
                socket._gateway.feed(
                    "GUILD_CREATE", serializers.guild_create_payload(backend, guild))
