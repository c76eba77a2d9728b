"""No clock runs and no hand is dealt while the dealer cannot hear the table; heard
again, the decision gets the rest of its time, at least 15 s (bot.runtime.table.waiting,
RULES.md 8). On the in-memory ports and the fake clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.events import ActionKind
from bot.runtime.errors import StoreUnavailable
from bot.runtime.hearing import STORAGE, Hearing
from bot.runtime.table.choosing import CHOICE_TIME
from bot.runtime.table.events import GameAsked, RunTwiceAsked, TurnBegan
from bot.runtime.table.live import PreAction, Table
from tests.runtime.conftest import PAUSE, World

USERS = (2, 3, 4)
OUTAGE = 1000.0  # longer than any clock and time bank here
OTHER_SHARD_GUILD = 1 << 22  # shard 1 of 2 (the tables' GUILD, 10, is on shard 0)


async def dealt(world: World, **settings: object) -> Table:
    table = await world.table(**settings)  # type: ignore[arg-type]
    await world.seat(table, *USERS)
    await world.deal(table)
    assert table.current is not None
    return table


async def advance(world: World, table: Table, seconds: float) -> None:
    await world.clock.advance(seconds)
    await table.idle()


def timeouts(world: World) -> int:
    return sum(a.source == "timeout" for a in world.hands.actions.get(1, []))


async def test_the_clock_stops_then_the_rest_of_it_runs(world: World) -> None:
    """10 s into a 30 s clock the dealer stops hearing for 1,000 s: no timeout, no
    reminder. Heard again, the turn is told again with 20 s of clock and the whole bank
    left, and times out 20 + 10 s later, its bank spent."""
    table = await dealt(world, clock=30, time_bank=10)
    actor = world.to_act(table)
    await advance(world, table, 10)
    world.registry.deafen(0)
    await advance(world, table, OUTAGE)
    assert world.to_act(table) == actor and timeouts(world) == 0
    await world.registry.hear(0)
    await table.idle()
    *_, again = world.observer.of(TurnBegan)
    assert again.turn.waited and again.turn.user_id == actor
    assert (again.turn.clock, again.turn.time_bank) == (20.0, 10.0)
    await advance(world, table, 29.9)
    assert world.to_act(table) == actor and timeouts(world) == 0
    await advance(world, table, 0.2)
    assert world.to_act(table) != actor and timeouts(world) == 1
    assert table.seat_of(actor).time_bank == 0  # type: ignore[union-attr]


async def test_15_s_at_least_and_the_bank_they_had(world: World) -> None:
    """In the time bank with 5 s left (clock 10, bank 20, 25 s spent) when the dealer
    stops hearing: heard again, 15 s; acting after 10 of them leaves the 5 s of bank the
    player had (the extra 10 s cost nothing)."""
    table = await dealt(world, clock=10, time_bank=20)
    actor = world.to_act(table)
    await advance(world, table, 25)
    world.registry.deafen(0)
    await advance(world, table, OUTAGE)
    await world.registry.hear(0)
    await table.idle()
    *_, again = world.observer.of(TurnBegan)
    assert again.turn.waited and (again.turn.clock, again.turn.time_bank) == (15.0, 0.0)
    await advance(world, table, 10)
    await world.act(table, ActionKind.CALL)
    assert table.seat_of(actor).time_bank == 5.0  # type: ignore[union-attr]
    assert timeouts(world) == 0


async def test_a_turn_begun_while_deaf_waits_for_its_whole_clock(world: World) -> None:
    """A click already on its way when the connection dropped passes the turn: the next
    turn begins, but its clock waits; heard again it has all of it."""
    table = await dealt(world, clock=20, time_bank=0)
    world.registry.deafen(0)
    await world.act(table, ActionKind.CALL)
    nxt = world.to_act(table)
    await advance(world, table, OUTAGE)
    assert world.to_act(table) == nxt and timeouts(world) == 0
    await world.registry.hear(0)
    await advance(world, table, 19.9)
    assert world.to_act(table) == nxt
    await advance(world, table, 0.2)
    assert world.to_act(table) != nxt and timeouts(world) == 1


async def test_a_blip_is_not_told(world: World) -> None:
    """Heard again 0.5 s later with 25 s left: the clock runs 0.5 s later than it would
    have, and nobody is told anything."""
    table = await dealt(world, clock=30, time_bank=0)
    actor = world.to_act(table)
    told = len(world.observer.events)
    await advance(world, table, 5)
    world.registry.deafen(0)
    await advance(world, table, 0.5)
    await world.registry.hear(0)
    await table.idle()
    assert len(world.observer.events) == told
    await advance(world, table, 24.8)  # 30.3 s after the turn began
    assert world.to_act(table) == actor
    await advance(world, table, 0.4)
    assert world.to_act(table) != actor


async def test_no_hand_is_dealt_until_heard(world: World) -> None:
    """Between hands the dealer stops hearing: the next hand waits (players could not
    leave or sit out); heard again, it is dealt after the pause."""
    table = await world.table(clock=20, time_bank=0)
    world.registry.deafen(0)
    await world.seat(table, *USERS)  # joins on their way before the cut
    await advance(world, table, OUTAGE)
    assert table.current is None and table.hands_dealt == 0
    await world.registry.hear(0)
    await advance(world, table, PAUSE)
    assert table.current is not None and table.hands_dealt == 1


async def test_dealers_choice_is_asked_only_while_heard(world: World) -> None:
    """Dealer's choice: the button is not asked while the dealer cannot hear the table;
    heard again, it is. Cut while the button is asked, the hand is not dealt and the
    button is asked again once heard."""
    table = await world.table(games="NLHE, PLO, PLO8", mode="dealer's choice")
    await world.seat(table, *USERS)
    await world.deal(table)
    while table.current is not None and table.current.hand.to_act is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    world.registry.deafen(0)
    await advance(world, table, OUTAGE)
    assert not world.observer.of(GameAsked) and table.hands_dealt == 1
    await world.registry.hear(0)
    await world.clock.advance(PAUSE)
    await asyncio.sleep(0)
    assert len(world.observer.of(GameAsked)) == 1
    world.registry.deafen(0)
    await advance(world, table, CHOICE_TIME + 1)
    assert table.current is None and table.hands_dealt == 1
    await world.registry.hear(0)
    await world.clock.advance(PAUSE)
    await asyncio.sleep(0)
    assert len(world.observer.of(GameAsked)) == 2


async def test_the_run_it_twice_question_waits_too(world: World) -> None:
    """All in, asked whether to run it twice: the dealer stops hearing; the question does
    not time out. Heard again it is asked again with 15 s at least, then silence means
    once."""
    table = await world.table(structure="no limit", run_it_twice=True, clock=10)
    await world.seat(table, *USERS)
    await world.deal(table)
    for kind in (ActionKind.ALL_IN, ActionKind.CALL, ActionKind.CALL):
        await world.act(table, kind)
    await table.idle()
    await advance(world, table, 8)
    world.registry.deafen(0)
    await advance(world, table, OUTAGE)
    assert table.current is not None and table.current.question is not None
    await world.registry.hear(0)
    await table.idle()
    *_, asked = world.observer.of(RunTwiceAsked)
    assert asked.waited and asked.clock == 15.0 and len(asked.users) == 3
    await advance(world, table, 14.9)
    assert table.current is not None and table.current.question is not None
    await advance(world, table, 0.2)
    assert table.current is None  # run once and settled
    assert [a.source for a in world.hands.actions[1] if a.kind == "once"] == ["timeout"]


async def test_another_shard_plays_on(world: World) -> None:
    """Two shards: the dealer cannot hear shard 1; a table of shard 0 times out as usual,
    one of shard 1 waits."""
    world.registry.hearing = Hearing(2)
    here = await dealt(world, clock=20, time_bank=0)
    there = await world.registry.create(guild_id=OTHER_SHARD_GUILD, channel_id=200,
                                        creator_id=1, config=here.config)
    await world.seat(there, 5, 6, 7)
    await advance(world, there, PAUSE)
    away = world.to_act(there)
    world.registry.deafen(1)
    await advance(world, here, 20.1)
    await there.idle()
    assert timeouts(world) == 1 and world.to_act(there) == away


async def test_no_clock_and_no_deal_while_it_cannot_write(world: World) -> None:
    """The store can write no more (the registry told, as the database tells the app):
    no timeout for 1,000 s, a decision is refused and nothing stored; the store back,
    the turn is told again, saying why, with the rest of its clock, and play goes on."""
    table = await dealt(world, clock=30, time_bank=0)
    actor = world.to_act(table)
    world.hands.writes_left = 0
    world.registry.storage_down()
    await advance(world, table, OUTAGE)
    assert world.to_act(table) == actor and timeouts(world) == 0
    with pytest.raises(StoreUnavailable):
        await table.act(actor, ActionKind.FOLD)
    assert world.hands.actions[1] == [] and world.to_act(table) == actor
    world.hands.writes_left = None
    await world.registry.storage_up()
    await table.idle()
    *_, again = world.observer.of(TurnBegan)
    assert again.turn.waited == STORAGE and again.turn.clock == 30.0
    await table.act(actor, ActionKind.FOLD)
    assert world.to_act(table) != actor and len(world.hands.actions[1]) == 1


async def test_an_action_stored_before_the_store_fails_is_kept_and_the_hand_goes_on(
    world: World,
) -> None:
    """The player to act calls; the next player's pre-action (call any) cannot be stored:
    the call is taken all the same (no error for its player), the hand waits between the
    two; the store back, the pre-action is played and the next turn begins."""
    table = await dealt(world, clock=30, time_bank=0)
    first = world.to_act(table)
    order = [s.user_id for s in sorted(table.seats.values(), key=lambda s: s.number)]
    second = order[(order.index(first) + 1) % len(order)]
    await table.set_pre_action(second, PreAction.CALL_ANY)
    world.hands.writes_left = 1
    world.registry.storage_down()
    await table.act(first, ActionKind.CALL)
    assert [a.kind for a in world.hands.actions[1]] == ["call"]
    assert table.current is not None and table.current.turn is None
    world.hands.writes_left = None
    await world.registry.storage_up()
    await table.idle()
    assert [a.kind for a in world.hands.actions[1]] == ["call", "call"]
    assert table.current.turn is not None and world.to_act(table) not in (first, second)
