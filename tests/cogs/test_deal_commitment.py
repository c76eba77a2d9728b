"""The deck commitment: its whole root posted in a message of its own before the first
card (the table deals only once Discord has it), in the table's commitment thread, in
every hole-card DM, whole in the result's log; a hand whose commitment cannot be posted
deals nothing and moves no chip; and nothing said during the hand (messages, DMs, logs)
holds a salt or a card the rules keep hidden."""

from __future__ import annotations

import logging
import re

import discord

from bot.engine.dealing import deal_positions
from bot.engine.variants import VARIANTS
from bot.storage.errors import HandStateError
from tests.card_text import cards_in
from tests.cogs.test_table import PAUSE, open_table, play_out, seat_three
from tests.conftest import Harness

COMMITTED = "Deck commitment of hand #"


def commitments(h: Harness) -> list[discord.Message]:
    """The deck commitments posted, in the table's channel and its threads, oldest first."""
    places = [h.channel, *h.channel.threads]
    found = [m for place in places for m in h.public_messages(place) if COMMITTED in m.content]
    return sorted(found, key=lambda m: m.id)


class _Everything(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def test_the_commitment_is_posted_before_the_deal_and_nothing_leaks(
    harness: Harness,
) -> None:
    h = harness
    logs = _Everything()
    root_logger = logging.getLogger()
    old_level = root_logger.level
    root_logger.addHandler(logs)
    root_logger.setLevel(logging.DEBUG)
    try:
        await seat_three(h)
        during = h.env.transcript()
        await play_out(h)
    finally:
        root_logger.removeHandler(logs)
        root_logger.setLevel(old_level)
    record = await h.bot.db.hands.get(1)
    root = record.commitment
    assert root is not None and re.fullmatch(r"[0-9a-f]{64}", root)
    # the hand's first public message carries it whole, and the table waited for Discord
    # to have it: every hole-card DM and the first turn come after it, and carry it too
    lines = [line for line in during.splitlines() if line.startswith("HTTP")]
    posted = next(i for i, line in enumerate(lines) if COMMITTED + "1" in line)
    cards = [i for i, line in enumerate(lines) if "Your cards for hand #1" in line]
    turn = next(i for i, line in enumerate(lines) if "**Hand #1**" in line)
    assert len(cards) == 3 and posted < min(cards) and posted < turn
    for actor in (h.alice, h.bob, h.carol):
        dm = next(m for m in h.dms(actor) if "Your cards for hand #1" in m.content)
        assert f"`{root}`" in dm.content
    [thread] = h.channel.threads  # out of the conversation: none in the channel
    assert not [m for m in h.public_messages() if COMMITTED in m.content]
    message = next(m for m in h.public_messages(thread) if COMMITTED + "1" in m.content)
    assert f"`{root}`" in message.content and "/hand verify 1" in message.content
    assert record.commitment_message == message.id and record.commitment_channel == thread.id
    result = next(m for m in h.public_messages() if "Hand #1 result" in m.content)
    log = await h.click(h.carol, result, label="Hand log")  # the whole root, with the log
    assert log.ephemeral and root in "".join(e.footer.text or "" for e in log.embeds), log
    deal = await h.bot.db.hands.reveal_deal(record.id)
    assert deal is not None and deal.commitment == root
    said = h.env.transcript() + "\n".join(logs.lines)
    leaked = [s.hex() for s in deal.salts if s.hex() in said]
    assert not leaked
    burns = deal_positions(3, VARIANTS["omaha"])["burn"]
    # everything the bot wrote, as sent and as edited (the live message's streets too)
    public = re.sub(r"[0-9a-f]{8,}", "", "\n".join(text for text, _, _ in h.pinged()))
    # cards are written K♠ 10♥ ("shows A♥ K♦ 7♣ 2♠", "Flop: 9♥ 8♦ 2♣"), the draw for the
    # button Ks (its own deck): a burned card written anywhere would be a leak
    written = set(cards_in(public))
    assert written, public
    assert not written & {str(deal.deck[pos]) for pos in burns}


async def _seat_two(h: Harness) -> None:
    await open_table(h)
    for actor in (h.alice, h.bob):
        reply = await h.slash(actor, "table join", buyin="200")
        assert "You sat down" in reply.text, reply


async def _stored(h: Harness) -> bool:
    """Whether hand 1 is stored."""
    try:
        await h.bot.db.hands.get(1)
    except HandStateError:
        return False
    return True


def _cards_sent(h: Harness) -> list[str]:
    return [m.content for a in (h.alice, h.bob) for m in h.dms(a) if "Your cards" in m.content]


async def test_a_commitment_discord_refuses_deals_nothing_then_the_table_tries_again(
    harness: Harness,
) -> None:
    """Discord fails the commitment's post (503): no hand is stored, no card is sent, no
    chip moves, and the table tries again after a longer pause; then it deals."""
    h = harness
    await _seat_two(h)
    [thread] = h.channel.threads
    h.env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=1)
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is None and not await _stored(h)
    assert not _cards_sent(h) and not commitments(h)
    assert [s.stack for s in table.seats.values()] == [200, 200]
    assert await h.balance(h.alice) == await h.balance(h.bob) == 10_000 - 200
    await h.advance(2 * PAUSE + 0.1)
    record = await h.bot.db.hands.get(1)
    assert record is not None and record.commitment and table.current is not None
    assert len(_cards_sent(h)) == 2
    assert [m.id for m in commitments(h)] == [record.commitment_message]


async def test_a_commitment_the_thread_refuses_goes_by_the_joins_token(
    harness: Harness,
) -> None:
    """The bot may no longer post in the channel or its threads when the hand is to begin:
    the thread refuses the commitment (403), so it goes by the token of the join that
    completed the table (Discord takes an interaction's followup without Send Messages),
    the table is told once, and the hand stores it as in the channel."""
    h = harness
    await _seat_two(h)
    h.deny_bot("send_messages", "send_messages_in_threads")
    await h.advance(PAUSE + 0.1)
    [posted] = commitments(h)
    record = await h.bot.db.hands.get(1)
    assert posted.channel.id == h.channel.id and record.commitment_channel is None
    assert posted.id == record.commitment_message and posted.interaction_metadata is not None
    said = [m for m in h.public_messages() if "I may not open a thread" in m.content]
    assert len(said) == 1 and len(_cards_sent(h)) == 2
