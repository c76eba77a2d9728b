"""After a restart, a result the channel never got is posted then, once (issue 33)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.engine.events import ActionKind
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import HandBegan, HandSettled
from bot.runtime.table.late_results import replay
from bot.runtime.table.live import Table
from tests.runtime.conftest import PAUSE, World, name_of
from tests.runtime.table.test_live import finish_hand, started


def restarted(world: World) -> TableRegistry:
    """A new registry on the same stores and observer: the bot after a restart."""
    return TableRegistry(economy=world.economy, hands=world.hands, tables=world.tables,
                         observer=world.observer, clock=world.clock, rng=random.Random(8),
                         pause=PAUSE, names=name_of)


async def settled_unposted(world: World) -> tuple[Table, HandSettled]:
    """Hand #1 played to a showdown after one player folded, its result lost on the way
    (the bot killed)."""
    table = await started(world, 2, 3, 4)
    world.observer.lose_results = True
    await world.act(table, ActionKind.FOLD)
    await finish_hand(world, table)
    [told] = world.observer.of(HandSettled)
    await table.shutdown()
    world.observer.lose_results = False
    return table, told


async def test_a_result_lost_at_a_kill_is_posted_at_the_restart_then_never_again(
    world: World,
) -> None:
    _, told = await settled_unposted(world)
    assert world.hands.pending == {1}
    mark = len(world.observer.events)
    [again] = await restarted(world).restore()
    await world.deal(again)
    late = world.observer.of(HandSettled)[1:]
    assert [e.result.after_restart for e in late] == [True]
    # the same result the players would have read, the same hands shown, none more
    assert late[0].result == replace(told.result, rabbit_hunt=False, showing=False,
                                     after_restart=True)
    assert {s.seat for s in late[0].result.shown} == {s.seat for s in told.result.shown}
    folded = next(s.seat for s in told.table.seats if s.folded)
    assert folded not in {s.seat for s in late[0].result.shown}
    assert late[0].table.hand_id == told.table.hand_id and late[0].table.hand_no == 1
    assert late[0].table.board == told.table.board
    assert world.hands.pending == set()  # the observer said it was posted
    # told before the next hand begins
    after = world.observer.events[mark:]
    began = [i for i, e in enumerate(after) if isinstance(e, HandBegan)]
    assert began and after.index(late[0]) < began[0]
    await again.shutdown()
    before = len(world.observer.of(HandSettled))
    [third] = await restarted(world).restore()
    await third.idle()
    assert len(world.observer.of(HandSettled)) == before
    await third.shutdown()


async def test_a_posted_result_is_not_posted_again(world: World) -> None:
    table = await started(world, 2, 3)
    await finish_hand(world, table)
    await table.shutdown()
    assert world.hands.pending == set()
    [again] = await restarted(world).restore()
    await world.deal(again)
    assert len(world.observer.of(HandSettled)) == 1
    assert len(world.observer.of(HandBegan)) == 2  # the next hand, and no result before it
    await again.shutdown()


async def test_only_results_after_the_last_posted_one_come_late(world: World) -> None:
    """A result lost long ago (a later one was posted) is not posted after a restart."""
    table = await started(world, 2, 3)
    world.observer.lose_results = True
    await finish_hand(world, table)
    world.observer.lose_results = False
    await world.deal(table)
    await finish_hand(world, table)
    await table.shutdown()
    assert world.hands.pending == {1}
    assert await world.hands.unposted_results(table.table_id) == []
    [again] = await restarted(world).restore()
    await again.idle()
    assert len(world.observer.of(HandSettled)) == 2
    await again.shutdown()


async def test_the_replay_is_the_hand_as_it_was_settled(world: World) -> None:
    table, told = await settled_unposted(world)
    [unposted] = await world.hands.unposted_results(table.table_id)
    past = replay(unposted)
    assert past.hand.is_over and past.number == 1
    finals = {past.users[s]: stack for s, stack in past.hand.result.final_stacks.items()}
    assert finals == world.hands.settled[1]
    assert past.hand.board == told.result.board
