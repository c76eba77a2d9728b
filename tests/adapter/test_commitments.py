"""``/hand verify`` reads the deck commitment from the message posted before the deal
(bot/adapter/commitments.py), in the table's commitment thread, through the offline
Discord."""

from __future__ import annotations

from tests.cogs.test_deal_commitment import COMMITTED, commitments
from tests.cogs.test_hands import _seat_four, play_out
from tests.conftest import Harness


async def _played(h: Harness) -> str:
    """Play hand 1; its posted commitment's message link."""
    await _seat_four(h)
    await play_out(h)
    record = await h.bot.db.hands.get(1)
    [thread] = h.channel.threads
    assert record.commitment_channel == thread.id
    return f"/{thread.id}/{record.commitment_message}"


async def test_verify_reads_the_root_the_channel_shows(harness: Harness) -> None:
    h = harness
    link = await _played(h)
    checked = await h.slash(h.bob, "hand verify", number=1)
    assert checked.ephemeral and "verified: the deal" in checked.text, checked
    assert "posted in the channel before the deal" in checked.text and link in checked.text


async def test_a_proof_of_another_deck_fails_against_the_posted_root(
    harness: Harness,
) -> None:
    """The root the channel shows is not the one the hand's proof commits to (as if the
    house had dealt another deck than the one it committed to, and stored that deck's
    root): the hand does not verify, and the answer names both roots."""
    h = harness
    await _played(h)
    record = await h.bot.db.hands.get(1)
    posted = "ab" * 32
    stored = h.env.backend.messages[record.commitment_channel][record.commitment_message]
    stored.content = stored.content.replace(record.commitment, posted)
    checked = await h.slash(h.bob, "hand verify", number=1)
    assert "NOT verified" in checked.text, checked
    assert f"commits to {record.commitment}, not to the posted root {posted}" in checked.text


async def test_a_deleted_commitment_message_is_said_and_the_stored_root_shown(
    harness: Harness,
) -> None:
    h = harness
    link = await _played(h)
    record = await h.bot.db.hands.get(1)
    [message] = [m for m in commitments(h) if COMMITTED + "1" in m.content]
    h.env.backend.delete_message(record.commitment_channel, message.id)
    checked = await h.slash(h.carol, "hand verify", number=1)
    assert "verified: the deal" in checked.text, checked
    assert "could not read the message" in checked.text and link in checked.text
    assert f"`{record.commitment}`" in checked.text


async def test_without_read_message_history_the_message_is_unread(harness: Harness) -> None:
    h = harness
    await _played(h)
    h.deny_bot("read_message_history")
    checked = await h.slash(h.dave, "hand verify", number=1)
    assert "could not read the message" in checked.text, checked
