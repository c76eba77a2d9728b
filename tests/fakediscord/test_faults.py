"""The fake Discord's storms: 5xx answers (a 502 after carrying the request out), global
429 windows with Discord's headers, Create Message's nonce, and the invalid requests
counted as Discord counts them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest_asyncio

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import SLACK
from tests.fakediscord.payloads import Channel
from tests.fakediscord.test_ratelimits import Clock


@pytest_asyncio.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, aiohttp.ClientSession, Channel, Clock]]:
    clock = Clock()
    async with FakeDiscord(rate_limits=False) as fd, aiohttp.ClientSession() as session:
        fd.weather.clock = clock
        guild = fd.add_guild("Poker Club")
        channel = fd.add_channel(guild, "poker")
        yield fd, session, channel, clock


async def call(
    fd: FakeDiscord, session: aiohttp.ClientSession, method: str, path: str,
    body: dict[str, Any] | None = None,
) -> tuple[int, Any, Any]:
    """One request; its status, headers and body (JSON read, else the text)."""
    headers = {"Authorization": f"Bot {fd.token}"}
    async with session.request(method, fd.api_base + path, json=body, headers=headers) as r:
        text = await r.text()
        is_json = r.content_type == "application/json" and text
        return r.status, r.headers, (json.loads(text) if is_json else text)


async def post(fd: FakeDiscord, session: aiohttp.ClientSession, channel: Channel,
               body: dict[str, Any]) -> tuple[int, Any, Any]:
    return await call(fd, session, "POST", f"/channels/{channel.id}/messages", body)


async def test_every_request_answered_5xx_and_a_502_carried_out(world: Any) -> None:
    """All 5xx: each of 500, 502, 503 with its body; only the 502s posted their message
    (a ghost), and nothing is answered 5xx once the storm is over."""
    fd, session, channel, clock = world
    fd.weather.storm(10, share_5xx=1.0, share_global=0.0)
    answers = [await post(fd, session, channel, {"content": f"m{i}"}) for i in range(30)]
    statuses = [status for status, _, _ in answers]
    assert set(statuses) == {500, 502, 503}
    for status, headers, _ in answers:
        assert headers["Via"] == "1.1 google"
        assert headers["Content-Type"].startswith(
            {500: "application/json", 502: "text/html", 503: "text/plain"}[status])
    posted = [m.content for m in fd.channel_messages(channel)]
    assert posted == [f"m{i}" for i, s in enumerate(statuses) if s == 502]
    assert [fd.messages[g].content for g in fd.weather.ghosts] == posted
    assert fd.invalid == []  # 5xx answers are not invalid requests
    clock.now += 10
    assert (await post(fd, session, channel, {"content": "calm"}))[0] == 200


async def test_a_nonce_with_enforce_nonce_gives_back_the_first_message(world: Any) -> None:
    """The same nonce in the same channel within minutes: the message posted first, no
    second; without enforce_nonce, or after the window, a new one. A ghost sent again
    without a nonce is a duplicate."""
    fd, session, channel, clock = world
    body = {"content": "turn", "nonce": "n1", "enforce_nonce": True}
    _, _, first = await post(fd, session, channel, body)
    _, _, again = await post(fd, session, channel, body)
    assert again["id"] == first["id"] and len(fd.channel_messages(channel)) == 1
    await post(fd, session, channel, {**body, "enforce_nonce": False})
    clock.now += 301
    await post(fd, session, channel, body)
    assert len(fd.channel_messages(channel)) == 3
    fd.contract = False  # the next one is what Discord refuses
    status, _, refused = await post(fd, session, channel, {**body, "nonce": "x" * 26})
    assert status == 400 and refused["code"] == 50035
    fd.weather.storm(5, share_5xx=1.0, share_global=0.0, seed=3)
    while not fd.weather.ghosts:
        await post(fd, session, channel, {"content": "lost answer"})
    clock.now += 5
    await post(fd, session, channel, {"content": "lost answer"})
    assert len(fd.weather.duplicates(fd.messages)) == 1


async def test_a_global_window_refuses_all_but_the_interaction_routes(world: Any) -> None:
    """A global 429 with Discord's headers and body; requests into the window are refused
    too, and those after the slack are noted as unheeded; a callback is not refused; the
    429s count as invalid requests."""
    fd, session, channel, clock = world
    fd.weather.storm(60, share_5xx=0.0, share_global=1.0, retry_after=2.5)
    status, headers, body = await call(fd, session, "GET", f"/channels/{channel.id}")
    assert status == 429 and body == {
        "message": "You are being rate limited.", "retry_after": 2.5, "global": True}
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "3" and headers["Via"] == "1.1 google"
    clock.now += SLACK / 2
    assert (await call(fd, session, "GET", f"/channels/{channel.id}"))[0] == 429
    assert fd.weather.unheeded == []  # still on its way when the first 429 was answered
    clock.now += 1.0
    status, _, body = await call(fd, session, "GET", f"/channels/{channel.id}")
    assert status == 429 and abs(body["retry_after"] - (2.5 - SLACK / 2 - 1.0)) < 1e-6
    assert len(fd.weather.unheeded) == 1
    it, _ = fd._base_interaction(2, fd.add_member(fd.guilds[channel.guild_id], "ann"), channel,
                                 {"name": "x"})
    status, _, _ = await call(fd, session, "POST", f"/interactions/{it.id}/{it.token}/callback",
                              {"type": 5})
    assert status == 200
    assert [s for s, _, _ in fd.invalid] == [429, 429, 429] and len(fd.rate_limited) == 3
