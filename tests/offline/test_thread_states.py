"""The offline Discord refuses a thread as Discord does (bot/offline/thread_states.py):
a name of 1 to 100 characters, a known auto-archive duration, no thread in a thread,
Create Public Threads in the parent."""

from __future__ import annotations

import discord
import pytest

from bot.offline.thread_states import NO_THREAD_HERE
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
