"""The clock waits while the bot is cut off from Discord (RULES.md 8, bot/adapter/hearing.py).

Through the offline Discord with the real bot: the gateway connection is cut for
longer than the clock and the time bank together in the middle of a decision (the
bot is told as discord.py tells it, and hears nothing meanwhile), then it comes back.
"""

from __future__ import annotations

import re

import pytest
from simcord import ChannelHandle

from bot.offline.harness import Message
from bot.sharding import shard_of
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio

CLOCK, BANK = 20, 30
WAITED = "The clock stood still while the bot was cut off from Discord"


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def deal_three(h: Harness, **options: object) -> None:
    h.bot.presenter.now = h.clock  # the turn message's timestamps on the harness's clock
    await open_table(h, **options)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)


def deadline_of(h: Harness) -> int:
    """The Unix second the turn message says time runs out."""
    found = re.search(r"time runs out <t:(\d+):R>", turn_message(h).content)
    assert found, turn_message(h).content
    return int(found.group(1))


def timed_out(h: Harness) -> bool:
    return any("time ran out" in m.content for m in h.public_messages())


async def test_no_timeout_while_the_gateway_is_down_then_the_rest_and_15_s(
    harness: Harness,
) -> None:
    """45 s into a 20 s clock and 30 s bank the gateway drops for 10 minutes: nothing
    times out and a click meanwhile never reaches the bot. Back (resumed), the player
    gets the 5 s left raised to 15 s; the turn message says so, with the new deadline;
    the clock then runs out after those 15 s as usual, and the next turn's clock too."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=BANK)
    table = h.bot.registry.in_channel(h.channel.id)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    await h.advance(45)
    await h.drop_gateway()
    lost = await h.click(actor, turn, label="Fold")
    assert not lost.acknowledged  # Discord tells the member it failed
    await h.advance(600)
    assert table.current is not None and table.current.seq == 0 and not timed_out(h)
    await h.restore_gateway()
    message = turn_message(h)
    assert WAITED in message.content and f"<@{actor.id}>" in message.content
    assert deadline_of(h) == int(h.clock() + 15)
    assert "time bank" not in message.content  # the 15 s are all that is left
    await h.advance(14)
    assert table.current.seq == 0 and not timed_out(h)
    await h.advance(2)
    assert table.current.seq == 1 and timed_out(h)
    nxt = turn_message(h)
    assert WAITED not in nxt.content and actor_of(h, nxt) is not actor
    assert deadline_of(h) == int(h.clock() + CLOCK)
    await h.advance(CLOCK + BANK - 2)  # the next player's clock began 1 s ago
    assert table.current.seq == 1
    await h.advance(2)  # the second player times out too: the big blind wins
    assert any("**Hand #1 result**" in m.content for m in h.public_messages())


async def test_a_new_session_gives_the_rest_of_the_clock(harness: Harness) -> None:
    """Cut 5 s into the clock, back on a new session (READY) 5 minutes later: the player
    has the 15 s of clock left and the whole time bank; the bank is not spent by the
    outage (acting within the clock leaves it whole)."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=BANK)
    table = h.bot.registry.in_channel(h.channel.id)
    actor = actor_of(h, turn_message(h))
    await h.advance(5)
    await h.drop_gateway()
    await h.advance(300)
    await h.restore_gateway(resume=False)
    message = turn_message(h)
    assert WAITED in message.content and "(+30 s time bank)" in message.content
    assert deadline_of(h) == int(h.clock() + 15)
    await h.advance(10)
    reply = await h.click(actor, message, label="Fold")
    assert reply.silent, reply
    seat = table.seat_of(actor.id)
    assert seat is not None and seat.time_bank == BANK and seat.timeouts == 0


async def test_a_blip_changes_nothing_players_see(harness: Harness) -> None:
    """A gateway blip of 0.6 s with most of the clock left: the clock runs on from where
    it was (0.6 s later than it would have), and the turn message is not touched."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    before = turn_message(h).content
    edits = len(h.requests("PATCH"))
    await h.advance(2)
    await h.drop_gateway()
    await h.advance(0.6)
    await h.restore_gateway()
    assert turn_message(h).content == before and len(h.requests("PATCH")) == edits
    await h.advance(CLOCK - 2 - 0.3)  # 20.3 s after the turn began: 0.3 s left
    assert table.current is not None and table.current.seq == 0
    await h.advance(1)
    assert table.current.seq == 1 and timed_out(h)


async def test_after_a_restart_the_player_still_has_15_s(harness: Harness) -> None:
    """With a 5 s clock and no bank, the bot stops mid-decision and comes back 10 minutes
    later: the resumed hand's player to act has 15 s (not the 5 s clock), told so."""
    h = harness
    await deal_three(h, clock=5, time_bank=0)
    actor = actor_of(h, turn_message(h))
    await h.advance(3)
    await h.restart(after=600)
    h.bot.presenter.now = h.clock
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.seq == 0
    message = turn_message(h)
    assert WAITED in message.content and f"<@{actor.id}>" in message.content
    await h.advance(14)
    assert table.current.seq == 0
    await h.advance(2)
    assert table.current.seq == 1


def turn_in(h: Harness, channel: ChannelHandle) -> Message:
    """The turn message in ``channel``."""
    return next(m for m in reversed(h.public_messages(channel))
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)))


@pytest.mark.parametrize("shards", [2])
async def test_one_shard_down_the_other_plays_on(harness: Harness) -> None:
    """Two shards, a table in a server of each: shard 1's connection drops for 10
    minutes (discord.py tells the whole client's on_disconnect too, which must not stop
    shard 0). Shard 1's table waits; shard 0's clock runs out as usual meanwhile. Shard 1
    comes back on a new session and its player gets the rest of their clock."""
    h = harness
    h.bot.presenter.now = h.clock
    other = h.env.create_guild("Other Club", shard_id=1 - shard_of(h.guild.id, 2))
    servers = {shard_of(h.guild.id, 2): (h.channel, [h.alice, h.bob, h.carol]),
               shard_of(other.id, 2): (other.create_text_channel("poker"),
                                       [other.add_member(a.user) for a in (h.alice, h.bob,
                                                                           h.carol)])}
    for channel, players in servers.values():
        await h.slash(players[0], "table create", channel=channel, clock=CLOCK, time_bank=0)
        for player in players:
            await h.slash(player, "table join", channel=channel, buyin="200")
    await h.advance(PAUSE + 0.1)
    (here, _), (there, waiting_there) = servers[0], servers[1]
    playing, waiting = (h.bot.registry.in_channel(c.id) for c in (here, there))
    assert waiting.current is not None and playing.current is not None
    await h.advance(5)
    await h.drop_gateway(1)
    turn = turn_in(h, there)
    clicker = next(p for p in waiting_there if f"<@{p.id}>" in turn.content)
    assert not (await h.click(clicker, turn, label="Fold")).acknowledged  # never heard
    await h.advance(600)
    assert waiting.current.seq == 0 and waiting.hands_dealt == 1
    assert playing.hands_dealt >= 3  # its players timed out, hand after hand
    assert any("timed out twice" in m.content for m in h.public_messages(here))
    await h.restore_gateway(1, resume=False)
    assert WAITED in turn_in(h, there).content
    await h.advance(CLOCK - 5 - 1)
    assert waiting.current.seq == 0
    await h.advance(2)
    assert waiting.current.seq == 1
