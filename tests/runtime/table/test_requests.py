"""The seat requests at a live table against RULES.md sections 3 and 7, in the two scripted
cases players met: a bust who tops up, and a table that stops during the pause."""

from __future__ import annotations

from bot.engine.events import ActionKind, BlindPosted
from bot.runtime.table.events import ButtonDrawn
from bot.runtime.table.live import Table
from tests.runtime.conftest import PAUSE, World


async def started(world: World, *users: int, **settings: object) -> Table:
    table = await world.table(**settings)
    await world.seat(table, *users)
    await world.deal(table)
    assert table.current is not None
    return table


async def play_out(world: World, table: Table, shove: bool = False) -> None:
    """Play the running hand to the end: everyone checks or calls (``shove``: the first
    to act goes all-in, the next calls, the rest fold)."""
    no = table.current.hand_no if table.current else None
    callers = 0
    while table.current is not None and table.current.hand_no == no:
        user = world.to_act(table)
        legal = table.legal_for(user)
        if shove and legal.max_raise_to is not None and callers == 0:
            await table.act(user, ActionKind.RAISE, legal.max_raise_to)
            callers = 1
        elif shove and callers > 1:
            await table.act(user, ActionKind.FOLD)
        else:
            callers += shove
            await table.act(user, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    await table.idle()


async def test_a_bust_who_tops_up_enters_paying_a_full_big_blind(world: World) -> None:
    """RULES.md 7: a bust who tops up is dealt in from the next hand by section 3's rules
    for entering players: a full big blind, never on the button or the small blind."""
    table = await started(world, 2, 3, 4, 5, structure="no limit")
    for _ in range(30):  # equal stacks all-in: someone busts unless they split
        await play_out(world, table, shove=True)
        busted = [s for s in table.seats.values() if s.stack == 0]
        if busted:
            break
        await world.deal(table)
    seat = busted[0]
    assert seat.sitting_out
    assert await table.top_up(seat.user_id, 100) == 100
    assert not seat.sitting_out and seat.needs_big_blind
    assert not world.economy.sitting_out.get((table.table_id, seat.user_id), False)
    for _ in range(6):
        await world.deal(table)
        cur = table.current
        assert cur is not None
        if seat.number in cur.dealt:
            break
        await play_out(world, table)
    else:
        raise AssertionError("the bust who topped up was never dealt in again")
    hand = cur.hand
    assert seat.number not in (hand.button, hand.small_blind_seat)
    paid = [e for e in hand.events if isinstance(e, BlindPosted) and e.seat == seat.number]
    assert [(e.blind, e.amount) for e in paid] in ([("big", 2)], [("newcomer", 2)])


async def test_a_table_stopped_during_the_pause_draws_the_button_again(world: World) -> None:
    """RULES.md 3: seats 1, 3 and 5; after hand 1, seats 3 and 5 sit out during the pause
    and sit in 60 s later: the table stopped, so the button is drawn again."""
    table = await started(world, 2, 3, 4)
    assert sorted(table.seats) == [1, 2, 3]
    await play_out(world, table)
    assert table.pending_deal
    await table.sit_out(3)
    await table.sit_out(4)
    await world.deal(table)
    assert table.current is None and table.button is None
    await world.clock.advance(60 - PAUSE)
    await table.sit_in(3)
    await table.sit_in(4)
    await world.deal(table)
    assert table.current is not None
    drawn = world.observer.of(ButtonDrawn)
    assert len(drawn) == 2, "the restart did not draw for the button"
    assert table.current.hand.button == drawn[-1].button
