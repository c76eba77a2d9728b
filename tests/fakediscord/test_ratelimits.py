"""The fake Discord's rate limits: buckets and headers as Discord sends them, read by discord.py.

Requests go over HTTP to a running fake (aiohttp by hand, then discord.py's own
HTTP client); the windows' clock is the limiter's, moved by the test, so no
test waits for a real second to pass.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest_asyncio
from discord.http import HTTPClient, Route

from tests.fakediscord import FakeDiscord
from tests.fakediscord.payloads import Channel
from tests.fakediscord.ratelimits import GLOBAL_LIMIT, VIA, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest_asyncio.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, aiohttp.ClientSession, Channel, Clock]]:
    clock = Clock()
    async with FakeDiscord() as fd, aiohttp.ClientSession() as session:
        fd.limiter = RateLimiter(clock=clock)
        guild = fd.add_guild("Poker Club")
        channel = fd.add_channel(guild, "poker")
        yield fd, session, channel, clock


async def call(
    fd: FakeDiscord, session: aiohttp.ClientSession, method: str, path: str,
    body: dict[str, Any] | None = None,
) -> tuple[int, Any, Any]:
    headers = {"Authorization": f"Bot {fd.token}"}
    async with session.request(method, fd.api_base + path, json=body, headers=headers) as r:
        text = await r.text()
        return r.status, r.headers, (json.loads(text) if text else None)


async def test_message_bucket_headers_count_down_then_429(world: Any) -> None:
    """Five messages per channel per 5 s: Remaining counts down, the sixth gets Discord's 429."""
    fd, session, channel, clock = world
    remaining = []
    for i in range(5):
        status, headers, _ = await call(fd, session, "POST", f"/channels/{channel.id}/messages",
                                        {"content": f"m{i}"})
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "5" and headers["Via"] == VIA
        assert headers["X-RateLimit-Bucket"] and float(headers["X-RateLimit-Reset"]) > 1e9
        remaining.append(int(headers["X-RateLimit-Remaining"]))
    assert remaining == [4, 3, 2, 1, 0]
    clock.now += 2.0
    status, headers, body = await call(fd, session, "POST", f"/channels/{channel.id}/messages",
                                       {"content": "too many"})
    assert status == 429 and headers["X-RateLimit-Scope"] == "user"
    assert headers["Via"] == VIA and headers["Content-Type"] == "application/json"
    assert body["global"] is False and abs(body["retry_after"] - 3.0) < 1e-6
    assert abs(float(headers["X-RateLimit-Reset-After"]) - 3.0) < 1e-6
    assert len(fd.channel_messages(channel)) == 5  # the refused one was not posted
    assert fd.rate_limited == [("POST", f"/channels/{channel.id}/messages", "user")]
    # another channel has its own bucket; this one opens again after the reset
    other = fd.add_channel(fd.guilds[channel.guild_id], "other")
    assert (await call(fd, session, "POST", f"/channels/{other.id}/messages",
                       {"content": "x"}))[0] == 200
    clock.now += 3.0
    assert (await call(fd, session, "POST", f"/channels/{channel.id}/messages",
                       {"content": "again"}))[0] == 200


async def test_global_limit_spares_interaction_endpoints(world: Any) -> None:
    """50 requests a second over all routes; the 51st is refused globally, a callback is not."""
    fd, session, channel, clock = world
    channels = [fd.add_channel(fd.guilds[channel.guild_id], f"c{i}") for i in range(GLOBAL_LIMIT)]
    for ch in channels:
        assert (await call(fd, session, "GET", f"/channels/{ch.id}"))[0] == 200
    status, headers, body = await call(fd, session, "GET", f"/channels/{channel.id}")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] == VIA
    # an interaction callback is not bound to the global limit
    it, _ = fd._base_interaction(2, fd.add_member(fd.guilds[channel.guild_id], "ann"), channel,
                                 {"name": "x"})
    status, _, _ = await call(fd, session, "POST", f"/interactions/{it.id}/{it.token}/callback",
                              {"type": 5})
    assert status == 200 and it.callback_type == 5
    clock.now += 1.0
    assert (await call(fd, session, "GET", f"/channels/{channel.id}"))[0] == 200


async def test_discord_py_waits_out_the_bucket_instead_of_failing(world: Any) -> None:
    """discord.py reads the headers: seven sends in one channel all arrive, none is refused."""
    fd, _, channel, _ = world
    fd.limiter = RateLimiter()  # real time: discord.py sleeps until the reset
    http = HTTPClient(asyncio.get_running_loop())
    Route.BASE = fd.api_base
    try:
        await http.static_login(fd.token)
        for i in range(7):
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
            await http.request(route, json={"content": f"m{i}"})
    finally:
        Route.BASE = "https://discord.com/api/v10"
        await http.close()
    assert [m.content for m in fd.channel_messages(channel)] == [f"m{i}" for i in range(7)]
    assert fd.rate_limited == []  # it waited for the reset instead of being refused
