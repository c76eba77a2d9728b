"""What a player's request means at a live table (bot.runtime.decisions): ``/allin`` puts
in as much as the rules let the player, played through the table runtime."""

from __future__ import annotations

from bot.engine.events import ActionKind, Street
from bot.engine.variants import Structure
from bot.runtime.table.live import Table

from .conftest import World


async def _heads_up(world: World, **settings: object) -> Table:
    """Users 2 and 3 heads-up with 200 chips each, the first hand dealt."""
    table = await world.table(**settings)  # type: ignore[arg-type]
    await world.seat(table, 2, 3, buyin=200)
    await world.deal(table)
    assert table.current is not None
    return table


async def test_allin_facing_a_short_all_in_that_does_not_reopen_is_a_call(world: World) -> None:
    """No limit 1/2, stacks 200, 200 and 40, everyone limps to the flop (38 left for the
    short stack). On the flop a big stack bets 30, the other calls, the short stack goes
    all-in to 38: a raise of 8, less than the full 30 (RULES section 5), so the bettor,
    who has acted, may only call or fold. Its /allin is that call of 8, not a refusal
    and not a raise; every chip stays accounted for."""
    table = await world.table(structure="no limit")
    for user, buyin in ((2, 200), (4, 200), (3, 40)):
        await table.join(user, f"p{user}", buyin)
    await world.deal(table)
    cur = table.current
    assert cur is not None
    total = world.chips(table)
    while cur.hand.street is Street.PREFLOP:
        await world.act(table, ActionKind.CALL)  # a call, or the big blind's check
    bettor: int | None = None
    shoved = False
    while not (shoved and world.to_act(table) == bettor):
        user = world.to_act(table)
        legal = table.legal_for(user)
        if user == 3 and legal.to_call:
            view = await table.act(3, ActionKind.ALL_IN)
            assert (view.kind, view.amount, view.all_in) == (ActionKind.RAISE, 38, True)
            shoved = True
        elif user != 3 and bettor is None:
            await table.act(user, ActionKind.BET, 30)
            bettor = user
        else:  # the short stack checks before the bet; the other big stack calls
            await table.act(user, ActionKind.CALL)
    assert bettor is not None
    legal = table.legal_for(bettor)
    assert legal.min_raise_to is None and legal.to_call == 8
    assert legal.no_raise_reason is not None and "did not reopen" in legal.no_raise_reason
    view = await table.act(bettor, ActionKind.ALL_IN)
    assert (view.kind, view.amount, view.all_in) == (ActionKind.CALL, 8, False)
    assert cur.hand.player(table.require_seat(bettor).number).bet == 38
    await table.idle()
    assert world.chips(table) == total


async def test_allin_in_pot_limit_raises_the_pot(world: World) -> None:
    """Pot limit 1/2 heads-up, 200 each: the small blind's /allin is the pot raise, to 6
    (call 1 makes the pot 4, raise 4 more: RULES section 5), not 200."""
    table = await _heads_up(world, structure=Structure.POT_LIMIT)
    first = world.to_act(table)
    assert table.legal_for(first).max_raise_to == 6
    view = await table.act(first, ActionKind.ALL_IN)
    assert (view.kind, view.amount, view.all_in) == (ActionKind.RAISE, 6, False)


async def test_allin_in_fixed_limit_raises_one_bet_then_calls_at_the_cap(world: World) -> None:
    """Fixed limit 1/2 heads-up: /allin raises exactly one small bet each time (to 4, 6,
    8); at the cap of four bets the next /allin is the call."""
    table = await _heads_up(world, structure=Structure.FIXED_LIMIT)
    for to in (4, 6, 8):
        view = await table.act(world.to_act(table), ActionKind.ALL_IN)
        assert (view.kind, view.amount) == (ActionKind.RAISE, to)
    view = await table.act(world.to_act(table), ActionKind.ALL_IN)
    assert (view.kind, view.amount) == (ActionKind.CALL, 2)
    cur = table.current
    assert cur is not None and cur.hand.street is Street.FLOP
