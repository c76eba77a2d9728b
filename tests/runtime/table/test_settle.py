"""Settling a finished hand (bot.runtime.table.settle): the stacks, the record, the refusal."""

from __future__ import annotations

import pytest

from bot.engine.events import ActionKind
from bot.runtime.table.events import HandSettled
from bot.runtime.table.live import Table
from tests.runtime.conftest import World


async def _started(world: World, *users: int) -> Table:
    table = await world.table()
    await world.seat(table, *users)
    await world.deal(table)
    assert table.current is not None
    return table


async def test_a_finished_hand_pays_the_stacks_it_records(world: World) -> None:
    """The fold ends the hand: the store holds each player's final stack, the seats
    hold the same, and only then does the observer hear the hand is over."""
    table = await _started(world, 2, 3)
    cur = table.current
    assert cur is not None
    await world.act(table, ActionKind.FOLD)
    await table.idle()
    finals = cur.hand.result.final_stacks
    users = {n: table.seats[n].user_id for n in finals}
    assert world.hands.settled[cur.hand_id] == {users[n]: s for n, s in finals.items()}
    assert {n: table.seats[n].stack for n in finals} == finals
    assert sorted(finals.values()) != [200, 200] and sum(finals.values()) == 400
    assert len(world.observer.of(HandSettled)) == 1


async def test_a_hand_whose_stacks_do_not_add_up_is_not_settled(world: World) -> None:
    """Final stacks that do not add up to the starting ones (a chip made from nothing)
    are refused: nothing is recorded, no stack changes, nobody is told the hand is
    over, and the chips in the bank stay what they were."""
    table = await _started(world, 2, 3)
    cur = table.current
    assert cur is not None
    before = {n: s.stack for n, s in table.seats.items()}
    total = world.chips(table)
    cur.start_stacks[next(iter(cur.start_stacks))] += 1
    with pytest.raises(RuntimeError, match="do not add up"):
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    assert world.hands.settled == {}
    assert {n: s.stack for n, s in table.seats.items()} == before
    assert world.observer.of(HandSettled) == [] and world.chips(table) == total
