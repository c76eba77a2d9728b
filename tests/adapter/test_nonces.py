"""A message answered 5xx after Discord posted it is not posted twice: a nonce Discord
enforces, kept for a message sent again (bot.adapter.nonces)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord.http import HTTPClient, Route, handle_message_parameters

from bot.adapter.nonces import KEEP, LIMIT, Nonces, body_key, send_with_nonces
from tests.fakediscord import FakeDiscord


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_failed_message_keeps_its_nonce_until_sent_or_old() -> None:
    clock = Clock()
    nonces = Nonces(clock)
    first = nonces.take(1, "body")
    assert len(first) <= 25 and nonces.take(1, "body") != first  # a new one each time
    nonces.failed(1, "body", first)
    assert nonces.take(1, "body") == first  # sent again: the same nonce
    assert nonces.take(2, "body") != first and nonces.take(1, "other") != first
    nonces.sent(1, "body")
    assert nonces.take(1, "body") != first and len(nonces) == 0
    nonces.failed(1, "body", first)
    clock.now += KEEP
    assert nonces.take(1, "body") != first and len(nonces) == 0  # forgotten


def test_at_most_limit_failed_messages_are_kept_the_oldest_forgotten() -> None:
    nonces = Nonces(Clock())
    for i in range(LIMIT + 50):
        nonces.failed(i, "body", f"n{i}")
    assert len(nonces) == LIMIT
    assert nonces.take(LIMIT + 49, "body") == f"n{LIMIT + 49}"
    assert nonces.take(0, "body") != "n0"


def test_the_body_key_ignores_the_nonce_and_sees_the_files() -> None:
    plain = handle_message_parameters(content="turn")
    stamped = handle_message_parameters(content="turn", nonce="abc")
    other = handle_message_parameters(content="turn 2")
    picture = discord.File(io.BytesIO(b"png"), "t.png")
    with_file = handle_message_parameters(content="turn", file=picture)
    assert body_key(plain) == body_key(stamped) != body_key(other)
    assert body_key(with_file) != body_key(plain)


async def send_through_a_502(fd: FakeDiscord, nonces: bool) -> int:
    """Send one message while the fake answers its first try 502 after posting it (storm
    seed 0); discord.py sends it again a second later, in calm. How many were posted."""
    guild = fd.add_guild("Poker Club")
    channel = fd.add_channel(guild, "poker")
    clock = Clock()
    fd.weather.clock = clock
    http = HTTPClient(asyncio.get_running_loop())
    Route.BASE = fd.api_base
    try:
        await http.static_login(fd.token)
        fd.weather.storm(10, share_5xx=1.0, share_global=0.0, seed=0)
        if nonces:
            send_with_nonces(http)
        sending = asyncio.create_task(http.send_message(
            channel.id, params=handle_message_parameters(content="your turn")))
        await fd.wait_until(lambda: fd.weather.errors, 5, what="the 502")
        clock.now += 10  # calm again before discord.py's retry
        await asyncio.wait_for(sending, 10)
    finally:
        Route.BASE = "https://discord.com/api/v10"
        await http.close()
    assert [s for s, _, _ in fd.weather.errors] == [502] and len(fd.weather.ghosts) == 1
    return len(fd.channel_messages(channel))


async def test_discord_pys_retry_after_a_502_gives_back_the_posted_message() -> None:
    """With the nonce, the retry is answered with the message the 502 posted: one."""
    async with FakeDiscord(rate_limits=False) as fd:
        assert await send_through_a_502(fd, nonces=True) == 1
        assert fd.weather.duplicates(fd.messages) == []


async def test_without_a_nonce_the_retry_posts_it_twice() -> None:
    """The fake plays what Discord does: a retry without a nonce is a second message."""
    async with FakeDiscord(rate_limits=False) as fd:
        assert await send_through_a_502(fd, nonces=False) == 2
        assert len(fd.weather.duplicates(fd.messages)) == 1
