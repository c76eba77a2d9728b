"""No dead ends (issue 23), through the offline Discord: each state a seat can be in has a
way forward its player can see (a button or a named command in a message to them alone),
and taking it works: the player is dealt in from the next hand (RULES.md 3 and 7).

The states (:mod:`bot.runtime.table.ways`): waiting for the big blind, sitting out,
busted, leaving, timed out.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.adapter.seat_buttons import ways_view
from bot.runtime.table.live import Table
from bot.runtime.table.ways import ways_forward
from tests.conftest import Harness, Reply, buttons_of

pytestmark = pytest.mark.asyncio

#: Seconds between hands: longer than simcord's settle timeout, so the next deal waits
#: until the test moves the clock.
PAUSE = 10.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def open_table(h: Harness, *players: Any, **options: object) -> Table:
    """A table in #poker with ``players`` seated (200 chips each) and the first hand dealt."""
    h.bot.registry.pause = PAUSE
    h.bot.registry.rng = random.Random(23)
    await h.slash(h.alice, "table create", **options)
    for actor in players:
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    return table


def way_ids(reply_or_message: Reply | Any) -> list[str]:
    """The custom ids of the seat buttons (``omaha:seat:…``) on a reply or a message."""
    buttons = (reply_or_message.buttons if isinstance(reply_or_message, Reply)
               else [{"custom_id": b.custom_id} for b in buttons_of(reply_or_message)])
    return [str(b["custom_id"]) for b in buttons if str(b["custom_id"]).startswith("omaha:seat:")]


def ended(table: Table, hand_no: int) -> bool:
    return table.current is None or table.current.hand_no > hand_no


async def finish_hand(h: Harness, table: Table) -> None:
    """Fold whoever is to act until the current hand is over."""
    cur = table.current
    assert cur is not None
    hand_no = cur.hand_no
    for _ in range(20):
        if ended(table, hand_no):
            return
        to_act = table.current.hand.to_act if table.current else None
        if to_act is None:
            await h.settle()
            continue
        actor = next(a for a in h.members.values() if a.id == table.seats[to_act].user_id)
        reply = await h.slash(actor, "fold")
        if reply.buttons:  # a check was free: asked first (bot.adapter.fold_question)
            await h.click(actor, reply.message, label="Fold anyway")
    assert ended(table, hand_no), "the hand did not end"


async def next_hand(h: Harness, table: Table) -> set[int]:
    """Let the pause pass; the user ids dealt into the new hand."""
    await h.advance(PAUSE + 0.1)
    cur = table.current
    assert cur is not None, "no hand was dealt"
    return {table.seats[n].user_id for n in cur.dealt}


async def dealt_in_again(h: Harness, table: Table, actor: Any) -> None:
    """``actor`` is dealt in from the next hand, or a hand later when their seat would be
    the small blind (RULES.md 3: an entering player is never dealt in on the button or the
    small blind); the hand before that is played out."""
    for _ in range(2):
        if actor.id in await next_hand(h, table):
            cur = table.current
            assert cur is not None
            seat = table.seat_of(actor.id)
            assert seat is not None and seat.number not in (cur.hand.button,
                                                             cur.hand.small_blind_seat)
            return
        await finish_hand(h, table)
    raise AssertionError(f"{actor.name} was not dealt in again")


async def click_way(h: Harness, actor: Any, where: Reply | Any, kind: str) -> Reply:
    custom_id = next(c for c in way_ids(where) if c.split(":")[4] == kind)  # the first
    message = where.message if isinstance(where, Reply) else where
    return await h.click(actor, message, custom_id=custom_id)


async def test_waiting_for_the_big_blind_can_post_it_now(harness: Harness) -> None:
    """Sitting down at a game in progress: the reply offers to post a big blind now;
    the button makes the player dealt in from the next hand."""
    h = harness
    table = await open_table(h, h.alice, h.bob)
    joined = await h.slash(h.carol, "table join", buyin="200")
    assert joined.ephemeral and "when the big blind reaches you" in joined.text
    assert [c.split(":")[4] for c in way_ids(joined)] == ["post"]
    posted = await click_way(h, h.carol, joined, "post")
    assert posted.ephemeral and "You will post a big blind" in posted.text, posted
    await finish_hand(h, table)
    await dealt_in_again(h, table, h.carol)


async def test_sitting_out_offers_sit_in(harness: Harness) -> None:
    """Sitting out between hands: the reply names /table sitin and has a Sit in button,
    which deals the player in again from the next hand."""
    h = harness
    table = await open_table(h, h.alice, h.bob, h.carol)
    await finish_hand(h, table)
    out = await h.slash(h.carol, "table sitout")
    assert out.ephemeral and "/table sitin" in out.text, out
    assert h.carol.id not in await next_hand(h, table)
    back = await click_way(h, h.carol, out, "sitin")
    assert back.ephemeral and "Welcome back" in back.text, back
    await finish_hand(h, table)
    for _ in range(3):  # back with a big blind owed: dealt in once it reaches the seat
        if h.carol.id in await next_hand(h, table):
            break
        await finish_hand(h, table)
    else:
        raise AssertionError("carol was never dealt in again")


async def test_leaving_can_stay(harness: Harness) -> None:
    """Leaving during a hand: the reply has a Stay button; staying keeps the seat and the
    chips, and the player is dealt the next hand."""
    h = harness
    table = await open_table(h, h.alice, h.bob, h.carol)
    seat = table.seat_of(h.carol.id)
    assert seat is not None
    if table.current is not None and table.current.hand.to_act == seat.number:
        await h.slash(h.carol, "check")  # not her turn when she leaves: she folds later
    leaving = await h.slash(h.carol, "table leave")
    assert leaving.ephemeral and "leave" in leaving.text, leaving
    assert [c.split(":")[4] for c in way_ids(leaving)] == ["stay"]
    stayed = await click_way(h, h.carol, leaving, "stay")
    assert stayed.ephemeral and "You stay" in stayed.text, stayed
    assert any("stays at the table" in m.content for m in h.public_messages())
    await finish_hand(h, table)
    assert table.seat_of(h.carol.id) is not None
    assert h.carol.id in await next_hand(h, table)


async def bust_someone(h: Harness, table: Table) -> Any:
    """Heads-up all-in every hand (no limit, equal stacks) until someone has no chips;
    the busted member."""
    for _ in range(10):
        cur = table.current
        assert cur is not None
        hand_no = cur.hand_no
        while not ended(table, hand_no):
            to_act = table.current.hand.to_act if table.current else None
            if to_act is None:
                await h.settle()
                continue
            actor = next(a for a in h.members.values() if a.id == table.seats[to_act].user_id)
            await h.slash(actor, "allin")
        busted = [s for s in table.seats.values() if s.stack == 0]
        if busted:
            return next(a for a in h.members.values() if a.id == busted[0].user_id)
        await next_hand(h, table)
    raise AssertionError("nobody busted in ten all-in hands")


async def test_a_bust_gets_top_up_buttons_by_dm_and_is_dealt_in_again(harness: Harness) -> None:
    """Out of chips: a direct message to that player alone names /table topup and
    /table leave and carries Top up (max, min) and Leave buttons; Top up deals them in
    from the next hand."""
    h = harness
    table = await open_table(h, h.alice, h.bob, structure="no limit")
    loser = await bust_someone(h, table)
    dms = [m for m in h.dms(loser) if way_ids(m)]
    assert len(dms) == 1, [m.content for m in h.dms(loser)]
    [dm] = dms
    assert "out of chips" in dm.content and "/table topup" in dm.content
    assert "/table leave" in dm.content
    assert [c.split(":", 4)[4] for c in way_ids(dm)] == ["topup:200", "topup:40", "leave"]
    other = h.bob if loser is h.alice else h.alice
    assert not [m for m in h.dms(other) if way_ids(m)]  # to that player only
    before = await h.balance(loser)
    topped = await click_way(h, loser, dm, "topup")  # the first: the maximum buy-in
    assert "You are dealt in again from the next hand" in topped.text, topped
    assert await h.balance(loser) == before - 200
    assert loser.id in await next_hand(h, table)


async def test_a_bust_may_leave_and_buy_in_again(harness: Harness) -> None:
    """The Leave button cashes the empty seat out; a new buy-in deals the player in from
    the next hand (the table had stopped: the button is drawn again, RULES.md 3)."""
    h = harness
    table = await open_table(h, h.alice, h.bob, structure="no limit")
    loser = await bust_someone(h, table)
    [dm] = [m for m in h.dms(loser) if way_ids(m)]
    left = await click_way(h, loser, dm, "leave")
    assert "You left the table" in left.text and not way_ids(left), left
    assert table.seat_of(loser.id) is None
    again = await h.slash(loser, "table join", buyin="100")
    assert again.ephemeral and "You sat down" in again.text, again
    assert loser.id in await next_hand(h, table)


async def test_a_bust_with_closed_dms_is_told_in_the_channel_with_the_commands(
    harness: Harness,
) -> None:
    """When Discord refuses the DM, the channel names the player and the commands; the
    command works as the button would."""
    h = harness
    h.close_dms(h.alice)
    h.close_dms(h.bob)
    table = await open_table(h, h.alice, h.bob, structure="no limit")
    loser = await bust_someone(h, table)
    told = [m for m in h.public_messages()
            if f"<@{loser.id}>" in m.content and "out of chips" in m.content.lower()
            and "/table topup" in m.content]
    assert told, [m.content for m in h.public_messages()[-5:]]
    reply = await h.slash(loser, "table topup", amount="100")
    assert reply.ephemeral and "dealt in again" in reply.text, reply
    assert loser.id in await next_hand(h, table)


async def test_a_player_timed_out_twice_gets_a_sit_in_button(harness: Harness) -> None:
    """Two timeouts in a row sit a player out: a DM names /table sitin and has a Sit in
    button, which deals them in again."""
    h = harness
    table = await open_table(h, h.alice, h.bob, h.carol, clock=5, time_bank=0)
    sleeper = h.carol
    for _ in range(40):  # carol lets her clock run out; the others call or check
        mine = table.seat_of(sleeper.id)
        if mine is not None and mine.sitting_out:
            break
        cur = table.current
        if cur is None:
            await next_hand(h, table)
            continue
        to_act = cur.hand.to_act
        if to_act is None:
            await h.settle()
        elif table.seats[to_act].user_id == sleeper.id:
            await h.advance(6)
        else:
            actor = next(a for a in h.members.values() if a.id == table.seats[to_act].user_id)
            await h.slash(actor, "call")
    [dm] = [m for m in h.dms(sleeper) if way_ids(m)]
    assert "timed out twice" in dm.content and "/table sitin" in dm.content
    back = await click_way(h, sleeper, dm, "sitin")
    assert "Welcome back" in back.text, back
    if table.current is not None:
        await finish_hand(h, table)
    for _ in range(3):  # back with a big blind owed: dealt in once it reaches the seat
        if sleeper.id in await next_hand(h, table):
            break
        await finish_hand(h, table)
    else:
        raise AssertionError("the player who timed out was never dealt in again")


async def test_someone_elses_way_is_refused(harness: Harness) -> None:
    """A seat button answers only the player it was made for (a forwarded message, a
    shared screen): anyone else is refused and nothing changes."""
    h = harness
    table = await open_table(h, h.alice, h.bob)
    joined = await h.slash(h.carol, "table join", buyin="200")
    [custom_id] = way_ids(joined)
    posted = h.bot.get_partial_messageable(h.channel.id, guild_id=h.guild.id)
    view = ways_view(table.table_id, h.carol.id, ways_forward(table, h.carol.id))
    assert view is not None
    message = await posted.send("carol's ways", view=view)
    shown = next(m for m in h.public_messages() if m.id == message.id)
    refused = await h.click(h.dave, shown, custom_id=custom_id)
    assert refused.ephemeral and "another player's" in refused.text, refused
    seat = table.seat_of(h.carol.id)
    assert seat is not None and not seat.post_big_blind
