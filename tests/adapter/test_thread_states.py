"""A table in a thread that lives for weeks: archived, it is reopened; locked, it is lost."""

from __future__ import annotations

from bot.adapter.posts import THREAD_ARCHIVED
from bot.offline.thread_states import THREAD_LOCKED
from tests.cogs.test_channel_loss import (
    act,
    assert_played_out,
    assert_silent_from_now,
    by_player,
    players,
    side_pot_hand,
)
from tests.conftest import Harness


async def test_an_archived_thread_is_unarchived_and_the_table_goes_on(harness: Harness) -> None:
    """The thread is archived mid-hand (a week without messages): the next message is
    refused (50083), the bot unarchives the thread and sends it again; play goes on."""
    h = harness
    thread = h.add_thread("high stakes")
    table = await side_pot_hand(h, thread)
    h.archive_thread(thread)
    # a command's turn message goes by its interaction token; the table posted again at the
    # bottom of the thread is the channel's route, which the archived thread refuses
    assert (await h.slash(players(h)[0], "table refresh", channel=thread)).acknowledged
    await h.settle()
    backend = h.env.backend
    assert not backend.get_channel(thread.id).thread_metadata.archived
    [unarchive] = h.requests("PATCH", contains=f"/channels/{thread.id}")[-1:]
    assert unarchive.path == f"/channels/{thread.id}" and unarchive.json == {"archived": False}
    assert not table.closed and h.bot.channel_loss.abandoned == []
    await act(h, table, thread, "check")  # the thread takes the table's messages again
    assert h.invalid_requests == []


async def test_a_locked_thread_is_a_lost_channel(harness: Harness) -> None:
    """A moderator locks the thread: the first refusal (160005) stops the table as a lost
    channel; its hand is played out by the clock's rule, every stack goes back and the
    players are told why by DM."""
    h = harness
    thread = h.add_thread("high stakes")
    table = await side_pot_hand(h, thread)
    h.deny_bot("manage_threads")  # as invited (README): a moderator's lock holds for it
    h.archive_thread(thread, locked=True)
    assert (await h.slash(players(h)[0], "table refresh", channel=thread)).acknowledged
    await h.settle()
    assert [r.code for r in h.invalid_requests] == [THREAD_LOCKED]
    await assert_played_out(h, table, "because the thread was locked", by_player(h))
    await assert_silent_from_now(h, thread)


def test_the_codes_are_discords() -> None:
    assert (THREAD_ARCHIVED, THREAD_LOCKED) == (50083, 160005)
