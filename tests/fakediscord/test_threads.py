"""The fake Discord's threads (tests/fakediscord/threads.py): no thread past the guild's
1,000 active ones (archived ones do not count), as Discord refuses it; the bot archives
the threads it opened, not another's."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest_asyncio

from tests.fakediscord import FakeDiscord
from tests.fakediscord.payloads import Channel
from tests.fakediscord.threads import MAX_ACTIVE_THREADS
from tests.test_fake_discord import Client

OPEN = {"name": "Deck commitments — table 1", "type": 11, "auto_archive_duration": 10080}


@pytest_asyncio.fixture
async def server() -> AsyncIterator[tuple[FakeDiscord, Client, Channel]]:
    fake = FakeDiscord(rate_limits=False, contract=False)  # 1,000 threads, faster than Discord
    async with fake as fd, aiohttp.ClientSession() as session:
        guild = fd.add_guild("Poker Club")
        yield fd, Client(fd, session), fd.add_channel(guild, "poker")


async def test_no_thread_past_the_guilds_active_threads(
    server: tuple[FakeDiscord, Client, Channel],
) -> None:
    fd, client, channel = server
    others = [fd.add_thread(channel, f"other bot {n}") for n in range(MAX_ACTIVE_THREADS - 1)]
    status, _ = await client.call("POST", f"/channels/{channel.id}/threads", OPEN)
    assert status == 200  # the 1,000th
    status, answer = await client.call("POST", f"/channels/{channel.id}/threads", OPEN)
    assert (status, answer["code"]) == (400, 160006)
    assert answer["message"] == "Maximum number of active threads reached"
    announcements = fd.add_channel(fd.guilds[channel.guild_id or 0], "news")
    announcements.type = 5
    status, answer = await client.call("POST", f"/channels/{announcements.id}/threads", OPEN)
    assert (status, answer["code"]) == (400, 160007)
    fd.archive_thread(others[0])  # an archived thread does not count
    status, _ = await client.call("POST", f"/channels/{channel.id}/threads", OPEN)
    assert status == 200
    assert fd.invalid == []  # a 400 is not counted as an invalid request


async def test_the_bot_archives_its_own_thread_not_anothers(
    server: tuple[FakeDiscord, Client, Channel],
) -> None:
    fd, client, channel = server
    status, opened = await client.call("POST", f"/channels/{channel.id}/threads", OPEN)
    assert status == 200
    status, answer = await client.call("PATCH", f"/channels/{opened['id']}", {"archived": True})
    assert status == 200 and answer["thread_metadata"]["archived"] is True
    assert fd.channels[int(opened["id"])].archived
    status, _ = await client.post(fd.channels[int(opened["id"])], {"content": "late"})
    assert status == 400  # archived: refused until unarchived
    theirs = fd.add_thread(channel, "a member's thread")
    status, answer = await client.call("PATCH", f"/channels/{theirs.id}", {"archived": True})
    assert (status, answer["code"]) == (403, 50013) and not theirs.archived
