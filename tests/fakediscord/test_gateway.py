"""The fake gateway shards like Discord: events go to the shard serving their server."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import INVALID_SHARD


async def identify(
    session: aiohttp.ClientSession, fd: FakeDiscord, shard: list[int] | None
) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(fd.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    data: dict[str, Any] = {"token": fd.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_str(json.dumps({"op": 2, "d": data}))
    return ws


async def events(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[tuple[str, Any]]:
    got = []
    for _ in range(count):
        packet = json.loads((await ws.receive(timeout=5)).data)
        got.append((packet["t"], packet["d"]))
    return got


async def test_each_shard_hears_only_its_own_servers() -> None:
    async with FakeDiscord() as fd, aiohttp.ClientSession() as http:
        zero, one = fd.add_guild("zero", shard=(0, 2)), fd.add_guild("one", shard=(1, 2))
        ws0 = await identify(http, fd, [0, 2])
        ws1 = await identify(http, fd, [1, 2])
        (ready0, ready0_data), (create0, guild0) = await events(ws0, 2)
        (_, ready1_data), (_, guild1) = await events(ws1, 2)
        assert (ready0, create0) == ("READY", "GUILD_CREATE")
        assert ready0_data["shard"] == [0, 2] and ready1_data["shard"] == [1, 2]
        assert [g["id"] for g in ready0_data["guilds"]] == [str(zero.id)] == [guild0["id"]]
        assert [g["id"] for g in ready1_data["guilds"]] == [str(one.id)] == [guild1["id"]]

        await fd.remove_bot(one)  # GUILD_DELETE goes to shard 1 only
        [(name, data)] = await events(ws1, 1)
        assert (name, data["id"]) == ("GUILD_DELETE", str(one.id))
        await fd.dispatch("INTERACTION_CREATE", {"id": "7", "guild_id": str(zero.id)})
        await fd.dispatch("INTERACTION_CREATE", {"id": "8"})  # in a DM: shard 0
        assert [d["id"] for _, d in await events(ws0, 2)] == ["7", "8"]
        await ws0.close()
        await ws1.close()


async def test_a_shard_id_outside_the_count_is_refused_with_4010() -> None:
    async with FakeDiscord() as fd, aiohttp.ClientSession() as http:
        ws = await identify(http, fd, [2, 2])
        closed = await ws.receive(timeout=5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == INVALID_SHARD
        assert fd.gateway.sessions == {}
