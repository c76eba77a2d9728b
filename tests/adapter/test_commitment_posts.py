"""The table's commitment thread (bot/adapter/commitment_posts.py), through the offline
Discord: opened once, each hand's commitment in it before the hand's first DM, linked
from the table's message, read back by ``/hand verify``; the channel when the bot may
not open threads (said once); reopened when archived, replaced when deleted, kept over
a restart; none for a table that plays in a thread."""

from __future__ import annotations

import discord

from tests.cogs.test_deal_commitment import COMMITTED, commitments
from tests.cogs.test_table import PAUSE, actor_of, seat_three, turn_message
from tests.conftest import Harness, buttons_of


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
    h.check_errors()
