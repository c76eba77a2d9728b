"""A multi-table tournament's table whose thread is lost (RULES.md 7), in the offline Discord.

Twelve players at two tables of six, each in a thread under #poker. Mid-hand, table 1's
thread is deleted, or Discord refuses it (403 Missing Access, 50001). That hand is played
out by the clock's rule; table 2's hand goes on; once it ends the tournament is cancelled
as after its start (the pool split by stacks), every table closes. The lost table's
players are told by DM twice: their stack at once, then what went to their balance once
the cancellation is paid (the prizes are posted at table 2 only); nothing more goes
toward the lost thread.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord import ChannelHandle, MemberActor

from bot.runtime.table.live import Table
from tests.cogs.test_channel_loss import channel_requests, member
from tests.cogs.test_mtt import register, to_act_in
from tests.cogs.test_tournament import PAUSE, create
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

START, BUY_IN, STACK = 10_000, 100, 1_500
SMALL, BIG = 10, 20  # the regular schedule's first level


def blinds(table: Table) -> tuple[int, int]:
    """The user ids of the small and the big blind of ``table``'s hand, before anyone acts."""
    cur = table.current
    assert cur is not None
    bets = {table.seats[n].user_id: cur.hand.player(n).bet for n in cur.dealt}
    return (next(u for u, b in bets.items() if b == SMALL),
            next(u for u, b in bets.items() if b == BIG))


def thread_of(h: Harness, table: Table) -> ChannelHandle:
    return next(t for t in h.channel.threads if t.id == table.channel_id)


def paid_dms(h: Harness, actor: MemberActor) -> list[str]:
    return [m.content for m in h.dms(actor) if "is now cancelled" in m.content
            or "agora está cancelado" in m.content]


def refuse(h: Harness, thread: ChannelHandle) -> None:
    """From now on Discord refuses every request to ``thread`` (403 Missing Access)."""
    h.env.inject_error("*", f"/channels/{thread.id}*", status=403, code=50001,
                       message="Missing Access", times=None)


async def start_two_tables(h: Harness) -> tuple[list[Any], Table, Table]:
    """Twelve entrants, tables of six: both tables' first hands wait for their first
    decision. ``(players in registration order, table 1, table 2)``."""
    await create(h, buy_in=BUY_IN, entrants=12, table_size=6, structure="no limit")
    players = await register(h, 12)
    started = await h.slash(players[-1], "tournament join")
    assert "starts now" in started.text, started
    assert len(h.channel.threads) == 2
    for _ in range(40):
        if all(to_act_in(h, t) is not None for t in h.channel.threads):
            break
        await h.advance(PAUSE + 0.1)
    rt = h.bot.tournaments.in_channel(h.channel.id)
    one, two = rt.tables[1], rt.tables[2]
    assert one.current is not None and two.current is not None
    return players, one, two


@pytest.mark.parametrize("cut", ["deleted", "50001-missing-access"])
async def test_a_lost_thread_cancels_the_tournament_and_its_players_are_told_their_prize(
    harness: Harness, cut: str
) -> None:
    """Table 1's first to act moves all-in, then its thread is lost: every decision left
    there is a timeout (a fold), so the shover wins the blinds. At table 2 everyone folds
    to the big blind. The pool (1,200) is then split by the stacks, each its share rounded
    down and the 2 chips left over to the biggest stacks: 1,530 -> 103, 1,510 -> 101,
    1,500 -> 100, 1,490 -> 99, 1,480 -> 98. Table 1's players get it by DM (one in
    Portuguese, one with closed DMs tolerated), table 2 sees it posted, table 1's thread
    nothing."""
    h = harness
    players, one, two = await start_two_tables(h)
    lost, other = thread_of(h, one), thread_of(h, two)
    sb1, bb1 = blinds(one)
    sb2, bb2 = blinds(two)
    shover = to_act_in(h, lost)
    assert shover is not None and shover.id not in (sb1, bb1)
    h.set_locale(shover, "pt-BR")
    closed = member(h, bb1)
    h.close_dms(closed)
    assert (await h.slash(shover, "allin", channel=lost)).acknowledged
    hand = one.current
    assert hand is not None

    if cut == "deleted":
        sent = channel_requests(h, lost)
        h.delete_channel(lost)
    else:
        refuse(h, lost)
        sent = channel_requests(h, lost) + 1  # the one refused request
        assert (await h.slash(shover, "table refresh", channel=lost)).acknowledged
    await h.settle()
    shown = len(h.public_messages(lost)) if cut != "deleted" else 0

    assert (await h.bot.db.hands.get(hand.hand_id)).status == "finished"
    [gone] = h.bot.channel_loss.abandoned
    assert gone.table_id == one.table_id and gone.hand == hand.hand_no
    assert gone.reason == ("the thread was deleted" if cut == "deleted"
                           else "I lost access to the channel")
    table_one = {one.seats[n].user_id for n in hand.dealt} | {shover.id}
    assert set(gone.told) == table_one
    assert gone.nets == {u: {shover.id: SMALL + BIG, sb1: -SMALL, bb1: -BIG}.get(u, 0)
                         for u in table_one}
    rt = h.bot.tournaments.in_channel(h.channel.id)
    assert not one.closed and not rt.sng.finished  # held until table 2's hand ends

    for _ in range(20):  # table 2: everyone folds to the big blind
        actor = to_act_in(h, other)
        if actor is None:
            break
        assert (await h.slash(actor, "fold", channel=other)).acknowledged
    await h.settle()

    texts = [m.content for m in h.public_messages(other)]
    assert any(t.startswith("The tournament is cancelled. Prizes:") for t in texts), texts[-4:]
    assert "The results:" in texts
    assert one.closed and two.closed and not h.bot.registry.all()
    stacks = dict.fromkeys((a.id for a in players), STACK)
    for user, change in ((shover.id, SMALL + BIG), (sb1, -SMALL), (bb1, -BIG),
                         (bb2, SMALL), (sb2, -SMALL)):
        stacks[user] += change
    assert rt.sng.stacks == stacks
    prize = {u: {STACK + 30: 103, STACK + 10: 101, STACK - 10: 99, STACK - 20: 98}.get(s, 100)
             for u, s in stacks.items()}
    assert sum(prize.values()) == 12 * BUY_IN
    for actor in players:
        assert await h.balance(actor) == START - BUY_IN + prize[actor.id], actor
    stored = await h.bot.db.tournaments.get(rt.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0

    for user in table_one - {closed.id}:
        actor = member(h, user)
        [told] = paid_dms(h, actor)
        assert h.dms(actor)[-1].content == told  # after the first DM (the stack then)
        if actor is shover:
            assert told == (
                f"O sit and go cuja mesa {one.table_id} em #{lost.name} parou agora está"
                " cancelado: as mãos nas outras mesas dele terminaram. Seu prêmio de 103"
                " fichas está no seu saldo.")
        else:
            assert told == (
                f"The sit and go whose table {one.table_id} in #{lost.name} stopped is now"
                " cancelled: the hands at its other tables are over. Your prize of"
                f" {prize[user]} chips is in your balance."), told
    assert paid_dms(h, closed) == []
    assert all(paid_dms(h, a) == [] for a in players if a.id not in table_one)

    assert channel_requests(h, lost) == sent  # nothing toward the lost thread
    if cut != "deleted":
        assert len(h.public_messages(lost)) == shown
    await h.audit()
