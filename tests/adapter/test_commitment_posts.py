"""The table's commitment thread (bot/adapter/commitment_posts.py), through the offline
Discord: opened once, each hand's commitment in it before the hand's first DM, linked
from the table's message, read back by ``/hand verify``; the channel when the bot may
not open threads (said once); reopened when archived, replaced when deleted, kept over
a restart; none for a table that plays in a thread."""

from __future__ import annotations

import discord
import pytest
from simcord import ChannelHandle

from bot.adapter import commitment_posts
from tests.cogs.test_deal_commitment import COMMITTED, commitments
from tests.cogs.test_hands import play_out
from tests.cogs.test_table import PAUSE, actor_of, open_table, seat_three, turn_message
from tests.conftest import Harness, buttons_of
from tests.offline.test_thread_states import fill_threads


async def _next_hand(h: Harness, number: int = 1) -> None:
    """Play hand ``number`` out with the turn buttons, then deal the next one."""
    for _ in range(60):
        if any(f"Hand #{number} result" in m.content for m in h.public_messages()):
            break
        turn = turn_message(h)
        labels = [str(b.label) for b in buttons_of(turn)]
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
        await h.click(actor_of(h, turn), turn, label=label)
    await h.advance(PAUSE + 0.1)


async def test_each_commitment_goes_to_one_public_thread_linked_from_the_table(
    harness: Harness,
) -> None:
    h = harness
    await seat_three(h)
    [thread] = h.channel.threads
    model = h.env.backend.get_channel(thread.id)
    assert model.name == "Deck commitments — table 1"
    assert model.type == discord.ChannelType.public_thread.value
    assert model.thread_metadata.auto_archive_duration == 10080
    # posted there before the first hole card went out
    lines = [line for line in h.env.transcript().splitlines() if line.startswith("HTTP")]
    posted = next(i for i, line in enumerate(lines)
                  if f"/channels/{thread.id}/messages" in line and COMMITTED + "1" in line)
    first_dm = next(i for i, line in enumerate(lines) if "Your cards for hand #1" in line)
    assert posted < first_dm
    assert f"🔒 Deck commitments: <#{thread.id}>" in turn_message(h).content
    await _next_hand(h)
    assert [m.content[:len(COMMITTED) + 3] for m in commitments(h)] == [
        "🔒 " + COMMITTED + "1", "🔒 " + COMMITTED + "2"]
    assert len(h.channel.threads) == 1 and len(h.requests("POST", contains="/threads")) == 1
    assert not [m for m in h.public_messages() if COMMITTED in m.content]
    checked = await h.slash(h.bob, "hand verify", number=1)
    record = await h.bot.db.hands.get(1)
    assert f"/{thread.id}/{record.commitment_message}" in checked.text, checked
    assert "verified: the deal" in checked.text, checked


async def test_without_create_public_threads_the_channel_takes_them_said_once(
    harness: Harness,
) -> None:
    """The bot may not open threads here: each commitment is posted in the table's channel
    as before, the table is told once, and ``/hand verify`` reads it there."""
    h = harness
    h.deny_bot("create_public_threads")
    await seat_three(h)
    await _next_hand(h)
    assert not h.channel.threads
    posted = commitments(h)
    assert [m.channel.id for m in posted] == [h.channel.id, h.channel.id]
    said = [m for m in h.public_messages() if "I may not open a thread" in m.content]
    assert len(said) == 1, said
    record = await h.bot.db.hands.get(1)
    assert record.commitment_channel is None and record.commitment_message == posted[0].id
    checked = await h.slash(h.carol, "hand verify", number=1)
    assert "verified: the deal" in checked.text and "could not read" not in checked.text
    assert "🔒 Deck commitments" not in turn_message(h).content
    h.check_errors()


async def test_an_archived_thread_is_reopened_for_the_next_commitment(
    harness: Harness,
) -> None:
    h = harness
    await seat_three(h)
    [thread] = h.channel.threads
    h.archive_thread(thread)
    await _next_hand(h)
    assert not h.env.backend.get_channel(thread.id).thread_metadata.archived
    assert [m.channel.id for m in commitments(h)] == [thread.id, thread.id]
    record = await h.bot.db.hands.get(2)
    assert record.commitment_channel == thread.id


async def test_a_deleted_thread_is_replaced_and_a_restart_keeps_the_thread(
    harness: Harness,
) -> None:
    """A moderator deletes the thread: the next commitment opens a new one (the hand is
    dealt all the same). After a restart the table goes on posting in that thread."""
    h = harness
    await seat_three(h)
    [old] = h.channel.threads
    h.delete_channel(old)
    await _next_hand(h)
    [new] = h.channel.threads
    assert new.id != old.id
    record = await h.bot.db.hands.get(2)
    assert record.commitment_channel == new.id
    await h.restart()
    await h.settle()
    await _next_hand(h, 2)
    assert [t.id for t in h.channel.threads] == [new.id]
    record = await h.bot.db.hands.get(3)
    assert record.commitment_channel == new.id


async def test_a_table_in_a_thread_keeps_its_commitments_there(harness: Harness) -> None:
    """Discord has no thread in a thread: the table's own thread takes them."""
    h = harness
    thread = h.add_thread("high stakes")
    assert h.bot.registry is not None
    h.bot.registry.pause = PAUSE
    assert not (await h.slash(h.alice, "table create", channel=thread)).ephemeral
    for actor in (h.alice, h.bob):
        reply = await h.slash(actor, "table join", buyin="200", channel=thread)
        assert "You sat down" in reply.text, reply
    await h.advance(PAUSE + 0.1)
    record = await h.bot.db.hands.get(1)
    assert record.commitment_channel is None
    posted = [m for m in h.public_messages(thread) if COMMITTED + "1" in m.content]
    assert [m.id for m in posted] == [record.commitment_message]
    assert not h.requests("POST", contains="/threads")
    await _close_by_a_fold(h, thread)  # its thread stays as it is (archived a week later)
    assert not h.env.backend.get_channel(thread.id).thread_metadata.archived
    assert not [r for r in h.requests("PATCH") if r.path == f"/channels/{thread.id}"]
    assert not h.bot.presenter.commitment_threads.holds()
    h.check_errors()


async def _close_by_a_fold(h: Harness, channel: ChannelHandle | None = None) -> None:
    """Close the table in ``channel`` during its hand, then end the hand by a fold."""
    assert (await h.slash(h.alice, "table close", channel=channel)).ephemeral
    turn = next(m for m in reversed(h.public_messages(channel))
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)))
    assert (await h.click(actor_of(h, turn), turn, label="Fold")).silent
    await h.settle()
    assert h.bot.registry.find((channel or h.channel).id) is None


def _active_commitment_threads(h: Harness) -> list[int]:
    """The commitment threads Discord counts as active in the guild."""
    return [t.id for t in h.env.backend.active_threads(h.guild.id)
            if str(t.name).startswith("Deck commitments")]


def _cached_threads(h: Harness) -> list[discord.Thread]:
    """The threads discord.py keeps in its guild cache (the active ones it heard of)."""
    guild = h.bot.get_guild(h.guild.id)
    assert guild is not None
    return list(guild.threads)


async def test_a_closed_tables_thread_is_archived_and_its_hands_still_verify(
    harness: Harness,
) -> None:
    """After the closing message, the thread is archived (no longer active, out of
    discord.py's cache, the table forgotten); ``/hand verify`` still reads it."""
    h = harness
    await seat_three(h)
    [thread] = h.channel.threads
    table_id = h.bot.registry.find(h.channel.id).table_id
    await play_out(h)
    assert (await h.slash(h.alice, "table close")).ephemeral
    await h.settle()
    assert h.env.backend.get_channel(thread.id).thread_metadata.archived
    assert not _active_commitment_threads(h) and not _cached_threads(h)
    [archived] = h.requests("PATCH", contains=f"/channels/{thread.id}")
    assert archived.json == {"archived": True}
    lines = [line for line in h.env.transcript().splitlines() if line.startswith("HTTP")]
    closing = next(i for i, line in enumerate(lines) if "The table is closed" in line)
    assert closing < lines.index(next(x for x in lines if x.startswith("HTTP     PATCH")
                                      and f"/channels/{thread.id}" in x))
    assert table_id not in h.bot.presenter.commitment_threads.holds()
    assert await h.bot.db.state.get(f"commitments:{table_id}") is None
    checked = await h.slash(h.bob, "hand verify", number=1)
    record = await h.bot.db.hands.get(1)
    assert f"/{thread.id}/{record.commitment_message}" in checked.text, checked
    assert "verified: the deal" in checked.text, checked
    h.check_errors()


async def test_a_server_full_of_threads_has_the_channel_take_them_for_a_while(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Other bots' threads fill the server (Discord refuses one more: 160006): the
    commitments go to the table's channel, the table is told once, and a hand a while
    later opens the thread once there is room."""
    h = harness
    monkeypatch.setattr(commitment_posts, "FULL_RETRY", PAUSE * 1.5)  # 1.5 hands' pauses
    others = fill_threads(h)
    await seat_three(h)  # tried at the first join, not again at the next posts nor hand 1
    assert not _active_commitment_threads(h) and len(h.requests("POST", "/threads")) == 1
    [posted] = commitments(h)
    assert posted.channel.id == h.channel.id
    record = await h.bot.db.hands.get(1)
    assert record.commitment_channel is None and record.commitment_message == posted.id
    h.env.backend.edit_channel(others[0], {}, thread_metadata={"archived": True})  # room
    await _next_hand(h)  # hand 2: tried again, and opened
    await _next_hand(h, 2)
    [thread] = _active_commitment_threads(h)
    assert len(h.requests("POST", "/threads")) == 2
    assert commitments(h)[-1].channel.id == thread
    said = [m for m in h.public_messages() if "as many active threads as Discord" in m.content]
    assert len(said) == 1, said
    checked = await h.slash(h.carol, "hand verify", number=1)
    assert "verified: the deal" in checked.text, checked
    h.check_errors()


async def test_thirty_tables_opened_and_closed_leave_no_active_thread(
    harness: Harness,
) -> None:
    """A busy evening in one channel: 30 tables, each opened, dealt a hand and closed. At
    the end no commitment thread is active (nor in discord.py's cache), nothing is kept
    for the closed tables, and each table's hand verified right after it closed."""
    h = harness
    table_ids = []
    for _ in range(30):
        await h.advance(3600)  # who left a table less than an hour ago brings their stack
        await open_table(h)
        for actor in (h.alice, h.bob):
            assert "You sat down" in (await h.slash(actor, "table join", buyin="200")).text
        await h.advance(PAUSE + 0.1)
        table_ids.append(h.bot.registry.find(h.channel.id).table_id)
        await _close_by_a_fold(h)
        checked = await h.slash(h.bob, "hand verify", number=1)  # read in the archived thread
        record = await h.bot.db.history.in_channel(h.channel.id, 1)
        assert record is not None and record.table_id == table_ids[-1]
        assert f"/{record.commitment_channel}/{record.commitment_message}" in checked.text
        assert "verified: the deal" in checked.text, checked
        assert len(_active_commitment_threads(h)) <= 1
    assert len(h.channel.threads) == 30
    assert not _active_commitment_threads(h) and not _cached_threads(h)
    assert not h.bot.presenter.commitment_threads.holds()
    for table_id in table_ids:
        assert await h.bot.db.state.get(f"commitments:{table_id}") is None
    h.check_errors()


async def test_a_table_closed_after_a_restart_archives_the_thread_it_kept(
    harness: Harness,
) -> None:
    h = harness
    await seat_three(h)
    [thread] = h.channel.threads
    await play_out(h)
    await h.restart()
    await h.settle()
    assert (await h.slash(h.alice, "table close")).ephemeral
    await h.settle()
    assert h.env.backend.get_channel(thread.id).thread_metadata.archived
    assert [t.id for t in h.channel.threads] == [thread.id]  # none opened to be archived
    assert not h.bot.presenter.commitment_threads.holds()
