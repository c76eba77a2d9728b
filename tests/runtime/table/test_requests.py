"""The seat requests at a live table against RULES.md sections 3 and 7, in the two scripted
cases players met: a bust who tops up, and a table that stops during the pause."""

from __future__ import annotations

import pytest

from bot.engine.events import ActionKind, BlindPosted
from bot.i18n import Phrase
from bot.runtime.errors import TableError
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
    reply = await table.top_up(seat.user_id, 100)
    assert reply == Phrase("reply.back_in_big_blind", count=100) and seat.stack == 100
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


async def test_coming_back_within_the_hour_brings_the_stack_left_with(world: World) -> None:
    """RULES.md 7: a winner who leaves with 201 and sits down again at once with 40 is
    refused, naming 201; the default buy-in is then 201 (above the maximum of 200); a
    player who busted and left owes nothing."""
    table = await started(world, 2, 3, 4, structure="no limit")
    await play_out(world, table)
    winner = max(table.seats.values(), key=lambda s: s.stack)
    left_with = winner.stack
    assert left_with > 200
    await table.leave(winner.user_id)
    balance = world.economy.balance(winner.user_id)
    with pytest.raises(TableError, match=f"at least {left_with:,}"):
        await table.join(winner.user_id, "back", 40)
    assert world.economy.balance(winner.user_id) == balance
    assert table.seat_of(winner.user_id) is None
    view = await table.join(winner.user_id, "back")
    assert view.stack == left_with
    await table.leave(winner.user_id)
    world.economy.left_with.clear()  # an hour later (storage times the window)
    assert (await table.join(winner.user_id, "back", 40)).stack == 40


async def test_a_bust_who_leaves_may_come_back_with_any_buy_in(world: World) -> None:
    """Busting to zero resets the return rule: nothing went back, nothing is owed."""
    table = await started(world, 2, 3, 4, 5, structure="no limit")
    for _ in range(30):
        await play_out(world, table, shove=True)
        busted = [s for s in table.seats.values() if s.stack == 0]
        if busted:
            break
        await world.deal(table)
    user = busted[0].user_id
    await table.leave(user)
    assert (await table.join(user, "again", 40)).stack == 40
