"""The fake Discord's gateway: one websocket session per shard, events routed like Discord's.

Discord sends a server's events (its GUILD_CREATE, its interactions, its
channel deletions) only on the connection of the shard that serves it,
``(guild_id >> 22) % shard_count``, and direct messages' on shard 0. A bot
identifies each connection with ``"shard": [shard_id, shard_count]`` (none:
shard 0 of 1). Like Discord, this gateway closes a connection with 4010
(Invalid shard) for a shard id outside ``[0, shard_count)``, and with 4004
for a wrong token. A second IDENTIFY for a shard replaces the session that
held it (the old socket is closed), as a fresh session on Discord does.

Sequence numbers are per session, as on Discord.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from bot.sharding import shard_of

#: Discord's close codes for a refused identify.
AUTHENTICATION_FAILED = 4004
INVALID_SHARD = 4010


class NotConnected(AssertionError):
    """No session of the bot holds the shard an event must go to."""


@dataclass
class Session:
    """One identified gateway connection: the shard it holds and its own sequence."""

    ws: web.WebSocketResponse
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0

    async def send(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": self.seq, "d": data}))


@dataclass(frozen=True)
class Identity:
    """What READY tells a session: the bot, its guild ids, the gateway to resume on."""

    ready: Callable[[Session], dict[str, Any]]
    guilds: Callable[[Session], Iterable[dict[str, Any]]]  # GUILD_CREATE payloads
    on_identified: Callable[[], Awaitable[None]]


class Gateway:
    """The sessions of the connected bot, by shard."""

    def __init__(self, token: str, identity: Identity, heartbeat_ms: int = 41_250) -> None:
        self.token = token
        self.identity = identity
        self.heartbeat_ms = heartbeat_ms
        self.sessions: dict[int, Session] = {}
        #: Every (shard_id, shard_count) that identified, in order.
        self.identifies: list[tuple[int, int]] = []

    @property
    def connected(self) -> bool:
        return any(not s.ws.closed for s in self.sessions.values())

    def session_for(self, guild_id: int | None) -> Session | None:
        """The open session that serves ``guild_id`` (shard 0 for direct messages)."""
        for session in self.sessions.values():
            if session.ws.closed:
                continue
            shard = 0 if guild_id is None else shard_of(guild_id, session.shard_count)
            if session.shard_id == shard:
                return session
        return None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) on the session of the event's server."""
        guild_id = _guild_of(event, data)
        session = self.session_for(guild_id)
        if session is None:
            raise NotConnected(f"no bot session holds the shard of guild {guild_id} for {event}")
        await session.send(event, data)

    async def close(self) -> None:
        for session in list(self.sessions.values()):
            if not session.ws.closed:
                await session.ws.close()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            packet = json.loads(msg.data)
            op = packet.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2 and not await self._identify(ws, packet["d"]):
                break
            elif op == 6:  # resume: we keep no session, ask for a fresh identify
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> bool:
        if data.get("token") != self.token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return False
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not (isinstance(shard_id, int) and isinstance(shard_count, int)
                and 0 <= shard_id < shard_count):
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return False
        old = self.sessions.get(shard_id)
        if old is not None and old.ws is not ws and not old.ws.closed:
            await old.ws.close()
        session = Session(ws, shard_id, shard_count)
        self.sessions[shard_id] = session
        self.identifies.append((shard_id, shard_count))
        await session.send("READY", self.identity.ready(session))
        for payload in self.identity.guilds(session):
            await session.send("GUILD_CREATE", payload)
        await self.identity.on_identified()
        return True


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    if "guild_id" in data and data["guild_id"] is not None:
        return int(data["guild_id"])
    if event.startswith("GUILD_") and "id" in data:
        return int(data["id"])
    return None


def serves(session: Session, guild_id: int) -> bool:
    """True when ``session``'s shard serves ``guild_id``."""
    return shard_of(guild_id, session.shard_count) == session.shard_id


__all__ = ["Gateway", "Identity", "NotConnected", "Session", "serves"]
