"""The offline Discord refuses a thread as Discord does (bot/offline/thread_states.py):
a name of 1 to 100 characters, a known auto-archive duration, no thread in a thread,
Create Public Threads in the parent, no more than 1,000 active threads in the guild; the
bot archives the threads it opened, not another's without Manage Threads."""

from __future__ import annotations

import discord
import pytest
from simcord.enums import ChannelType

from bot.offline.thread_states import MAX_ACTIVE_THREADS, NO_THREAD_HERE, THREADS_FULL
from tests.conftest import Harness


async def _open(h: Harness, parent: int, name: str, minutes: int = 10080) -> int:
    data = await h.bot.http.start_thread_without_message(
        parent, name=name, auto_archive_duration=minutes,  # type: ignore[arg-type]
        type=discord.ChannelType.public_thread.value)
    return int(data["id"])


@pytest.mark.off_contract("a name or duration Discord refuses, on purpose")
@pytest.mark.parametrize(("name", "minutes"), [("", 10080), ("x" * 101, 10080), ("ok", 90)])
async def test_a_bad_name_or_duration_is_an_invalid_form_body(
    harness: Harness, name: str, minutes: int
) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await _open(harness, harness.channel.id, name, minutes)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert not harness.channel.threads


async def test_a_thread_in_a_thread_or_without_the_permission_is_refused(
    harness: Harness,
) -> None:
    h = harness
    thread = await _open(h, h.channel.id, "x" * 100)  # 100 characters: taken
    with pytest.raises(discord.HTTPException) as nested:
        await _open(h, thread, "inner")
    assert (nested.value.status, nested.value.code) == (400, NO_THREAD_HERE)
    h.deny_bot("create_public_threads")
    with pytest.raises(discord.Forbidden) as forbidden:
        await _open(h, h.channel.id, "another")
    assert forbidden.value.code == 50013
    assert [t.id for t in h.channel.threads] == [thread]


def fill_threads(h: Harness, count: int = MAX_ACTIVE_THREADS) -> list[int]:
    """``count`` active threads of another bot in ``#poker`` (not heard by the bot)."""
    backend = h.env.backend
    other = backend.get_guild(h.guild.id).owner_id
    return [backend.create_thread(h.channel.id, f"other {n}", other, broadcast=False).id
            for n in range(count)]


async def test_no_thread_past_the_guilds_active_threads(harness: Harness) -> None:
    """1,000 active threads: one more is refused (400, 160006; 160007 under an announcement
    channel), until one of them is archived."""
    h = harness
    others = fill_threads(h, MAX_ACTIVE_THREADS - 1)
    await _open(h, h.channel.id, "the 1,000th")
    with pytest.raises(discord.HTTPException) as full:
        await _open(h, h.channel.id, "one more")
    assert (full.value.status, full.value.code) == (400, THREADS_FULL)
    assert full.value.text == "Maximum number of active threads reached"
    news = h.env.backend.create_channel(h.guild.id, "news", type=ChannelType.NEWS)
    with pytest.raises(discord.HTTPException) as announcements:
        await _open(h, news.id, "one more")
    assert (announcements.value.status, announcements.value.code) == (400, 160007)
    h.env.backend.edit_channel(others[0], {}, thread_metadata={"archived": True})  # a week on
    await _open(h, h.channel.id, "one more")


async def test_the_bot_archives_the_thread_it_opened_not_anothers(harness: Harness) -> None:
    h = harness
    h.deny_bot("manage_threads")
    mine = await _open(h, h.channel.id, "mine")
    await h.bot.http.edit_channel(mine, archived=True)
    assert h.env.backend.get_channel(mine).thread_metadata.archived
    theirs = h.add_thread("theirs")
    with pytest.raises(discord.Forbidden) as refused:
        await h.bot.http.edit_channel(theirs.id, archived=True)
    assert refused.value.code == 50013
    assert not h.env.backend.get_channel(theirs.id).thread_metadata.archived
