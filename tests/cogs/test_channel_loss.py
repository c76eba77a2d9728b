"""A table whose channel is lost stops cleanly (cogs/channel_loss.py), in the offline Discord.

Each case plays into a hand with all-ins and side pots, then loses the
channel: deleted, a thread deleted, View Channel taken (403 Missing Access),
the bot removed from the server. After each: every balance is back, the chip
audit holds (the ``harness`` fixture audits too), the bot sends nothing more
to the dead channel, and every player got a DM saying what happened.
"""

from __future__ import annotations

from simcord import ChannelHandle, MemberActor

from bot.engine.events import Street
from bot.runtime.table.live import Table
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness

START = 10_000
BUYINS = ("100", "200", "400", "400")


def players(h: Harness) -> tuple[MemberActor, ...]:
    return (h.alice, h.bob, h.carol, h.dave)


def member(h: Harness, user_id: int) -> MemberActor:
    return next(a for a in h.members.values() if a.id == user_id)


def channel_requests(h: Harness, channel: ChannelHandle) -> int:
    return len(h.requests(contains=f"/channels/{channel.id}"))


async def act(h: Harness, table: Table, channel: ChannelHandle, command: str, **kw: str) -> None:
    cur = table.current
    assert cur is not None and cur.hand.to_act is not None
    actor = member(h, table.seats[cur.hand.to_act].user_id)
    reply = await h.slash(actor, command, channel=channel, **kw)
    assert reply.acknowledged, reply


async def side_pot_hand(h: Harness, channel: ChannelHandle | None = None) -> Table:
    """Four players (100, 200, 400, 400 chips, no limit): the two short stacks all-in
    preflop, the deep ones bet and call on the flop; the turn is dealt, with a main pot
    and two side pots."""
    where = channel or h.channel
    await open_table(h, structure="no limit", min_buyin=100, max_buyin=400, channel=where)
    for actor, buyin in zip(players(h), BUYINS, strict=True):
        await h.slash(actor, "table join", buyin=buyin, channel=where)
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(where.id)
    while (cur := table.current) is not None and cur.hand.street is Street.PREFLOP:
        seat = cur.hand.player(cur.hand.to_act or 0)
        if seat.stack + seat.bet <= 200:
            await act(h, table, where, "allin")
        else:
            can_check = table.legal_for(table.seats[seat.seat].user_id).can_check
            await act(h, table, where, "check" if can_check else "call")
    await act(h, table, where, "bet", amount="50")
    await act(h, table, where, "call")
    cur = table.current
    assert cur is not None and cur.hand.street is Street.TURN
    assert [p.amount for p in cur.hand.pots] == [400, 300, 100]
    return table


async def assert_everyone_refunded(h: Harness, table: Table, because: str) -> None:
    assert table.closed and h.bot.registry.find(table.channel_id) is None
    for actor, buyin in zip(players(h), BUYINS, strict=True):
        assert await h.balance(actor) == START, actor.user.name
        [dm] = [m for m in h.dms(actor) if "was closed" in m.content]
        assert f"Table {table.table_id}" in dm.content and because in dm.content, dm.content
        assert "hand #1 was cancelled" in dm.content, dm.content
        assert f"Your {int(buyin):,} chips are back in your balance." in dm.content
    assert [a.table_id for a in h.bot.channel_loss.abandoned] == [table.table_id]
    await h.audit()


async def assert_silent_from_now(h: Harness, channel: ChannelHandle) -> None:
    """Whatever time passes (clocks, pauses between hands), no request goes to ``channel``."""
    sent = channel_requests(h, channel)
    await h.advance(PAUSE + 120.0)
    await h.advance(PAUSE + 120.0)
    assert channel_requests(h, channel) == sent


async def test_a_channel_deleted_mid_hand_cancels_it_and_returns_every_chip(
    harness: Harness,
) -> None:
    """Side pots on the turn, #poker deleted: all stacks back, DMs sent, nothing posted."""
    h = harness
    table = await side_pot_hand(h)
    sent = channel_requests(h, h.channel)
    h.delete_channel()
    await h.settle()
    assert channel_requests(h, h.channel) == sent  # heard from the gateway: no request needed
    await assert_everyone_refunded(h, table, "in #poker was closed because the channel was deleted")
    await assert_silent_from_now(h, h.channel)


async def test_a_thread_deleted_mid_hand_cancels_it_and_returns_every_chip(
    harness: Harness,
) -> None:
    """The same at a table in a thread, when the thread is deleted."""
    h = harness
    thread = h.add_thread("high stakes")
    table = await side_pot_hand(h, thread)
    h.delete_channel(thread)
    await h.settle()
    await assert_everyone_refunded(
        h, table, "in #high stakes was closed because the thread was deleted"
    )
    await assert_silent_from_now(h, thread)


async def test_access_lost_mid_hand_stops_at_the_first_refusal(harness: Harness) -> None:
    """View Channel taken mid-hand: one request is refused (403 50001), then none."""
    h = harness
    table = await side_pot_hand(h)
    h.deny_bot("view_channel")
    before = channel_requests(h, h.channel)
    # a command's turn message goes by its interaction token (no channel route); the table
    # posted again at the bottom of the channel is the channel's route: refused
    assert (await h.slash(players(h)[0], "table refresh")).acknowledged
    await h.settle()
    assert channel_requests(h, h.channel) == before + 1
    await assert_everyone_refunded(h, table, "because I lost access to the channel")
    await assert_silent_from_now(h, h.channel)


async def test_the_bot_removed_from_the_server_returns_every_chip(harness: Harness) -> None:
    """Kicked mid-hand: every table of the server closes, each player is told by DM."""
    h = harness
    table = await side_pot_hand(h)
    h.remove_bot()
    await h.settle()
    await assert_everyone_refunded(
        h, table, "in #poker on Poker Club was closed because I was removed from the server"
    )
    await assert_silent_from_now(h, h.channel)


async def test_a_sit_and_go_lost_mid_level_refunds_every_buy_in(harness: Harness) -> None:
    """A running sit-and-go whose channel is deleted: cancelled, each buy-in back by DM."""
    h = harness
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "tournament create", buy_in=100, entrants=3)
    assert not reply.ephemeral, reply
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "tournament join")
    await h.advance(PAUSE + 0.1)
    sng = h.bot.tournaments.in_channel(h.channel.id)
    table = sng.table
    assert table is not None and table.current is not None
    await act(h, table, h.channel, "call")
    h.delete_channel()
    await h.settle()
    for actor in (h.alice, h.bob, h.carol):
        assert await h.balance(actor) == START
        [dm] = [m for m in h.dms(actor) if "was cancelled" in m.content]
        assert "The sit and go at table" in dm.content, dm.content
        assert "Your buy-in of 100 chips is back in your balance." in dm.content
    stored = await h.bot.db.tournaments.get(sng.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    await assert_silent_from_now(h, h.channel)


async def test_after_a_restart_a_lost_channel_is_found_and_abandoned(harness: Harness) -> None:
    """Access lost while the bot was down: the resumed hand's first post is refused,
    and the table is abandoned then, with every chip back."""
    h = harness
    table = await side_pot_hand(h)
    h.deny_bot("view_channel")
    await h.restart()
    await h.settle()
    again = h.bot.channel_loss.abandoned
    assert [a.table_id for a in again] == [table.table_id]
    for actor in players(h):
        assert await h.balance(actor) == START
    await assert_silent_from_now(h, h.channel)


def test_the_farewell_speaks_the_players_language() -> None:
    """The DM about a lost table is worded in the player's language, numbers included."""
    from bot.runtime.table.abandon import Abandoned
    from cogs.channel_loss import CHANNEL_DELETED, farewell, refund_line, where

    gone = Abandoned(3, 1, 2, "Pot Limit Omaha 1/2", CHANNEL_DELETED, {7: 1500}, False, 12)
    english = farewell(gone, where("poker", 2)) + refund_line(gone, 1500)
    assert english == (
        "Table 3 (Pot Limit Omaha 1/2) in #poker was closed because the channel was deleted;"
        " hand #12 was cancelled and every chip bet in it returned."
        " Your 1,500 chips are back in your balance."
    )
    portuguese = farewell(gone, where(None, 2, "pt-BR"), "pt-BR") + refund_line(gone, 1500, "pt-BR")
    assert portuguese == (
        "A mesa 3 (Pot Limit Omaha 1/2) em canal 2 foi fechada porque o canal foi apagado;"
        " a mão #12 foi cancelada e todas as fichas apostadas nela foram devolvidas."
        " Suas 1.500 fichas voltaram para o seu saldo."
    )
    assert "se ha borrado el canal" in farewell(gone, "#poker", "es-ES")
    assert "il canale è stato eliminato" in farewell(gone, "#poker", "it")
