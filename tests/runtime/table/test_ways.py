"""The ways forward of each seat state (issue 23: no dead ends), on the runtime alone; the
buttons and the messages that carry them: ``tests/adapter/test_seat_buttons.py``."""

from __future__ import annotations

from bot.i18n import Phrase
from bot.runtime.table.events import Notice
from bot.runtime.table.views import Way
from bot.runtime.table.ways import ways_forward
from tests.runtime.conftest import World
from tests.runtime.table.test_requests import play_out, started


def kinds(ways: tuple[Way, ...]) -> list[str]:
    return [w.kind for w in ways]


async def test_playing_and_strangers_have_nothing_to_do(world: World) -> None:
    table = await started(world, 2, 3)
    assert ways_forward(table, 2) == ()
    assert ways_forward(table, 99) == ()


async def test_waiting_for_the_big_blind_may_post_it(world: World) -> None:
    table = await started(world, 2, 3)
    await table.join(4, "p4", 100)
    assert kinds(ways_forward(table, 4)) == ["post"]
    assert await table.sit_in(4, post_big_blind=True) == Phrase("reply.will_post_big_blind")
    assert ways_forward(table, 4) == ()


async def test_sitting_out_may_sit_in_and_post_what_is_owed(world: World) -> None:
    table = await started(world, 2, 3, 4)
    await play_out(world, table)
    await table.sit_out(4)
    assert kinds(ways_forward(table, 4)) == ["sitin"]
    for _ in range(4):  # the big blind passes the empty seat: a big blind is owed
        await world.deal(table)
        await play_out(world, table)
        if table.seat_of(4).needs_big_blind:
            break
    assert kinds(ways_forward(table, 4)) == ["sitin", "post"]
    assert await table.sit_in(4, post_big_blind=True) == Phrase("reply.back")
    assert ways_forward(table, 4) == ()


async def test_leaving_may_stay_until_the_hand_ends(world: World) -> None:
    table = await started(world, 2, 3, 4)
    user = next(u for u in (2, 3, 4) if u != world.to_act(table))
    await table.leave(user)
    assert kinds(ways_forward(table, user)) == ["stay"]
    assert await table.sit_in(user) == Phrase("reply.staying")
    assert ways_forward(table, user) == ()
    await play_out(world, table)
    assert table.seat_of(user) is not None  # still seated, chips kept


async def test_a_bust_may_top_up_the_most_or_the_least_or_leave(world: World) -> None:
    """Cash: top up to the maximum or the minimum buy-in, or leave; told privately with
    these ways, and publicly that the player is out of chips."""
    table = await started(world, 2, 3, structure="no limit", min_buyin=40, max_buyin=200)
    for _ in range(30):
        await play_out(world, table, shove=True)
        busted = [s for s in table.seats.values() if s.stack == 0]
        if busted:
            break
        await world.deal(table)
    user = busted[0].user_id
    assert ways_forward(table, user) == (Way("topup", 200), Way("topup", 40), Way("leave"))
    told = [e for e in world.observer.events if isinstance(e, Notice) and e.user_id == user]
    assert told[-1].ways == ways_forward(table, user)
    assert "/table topup" in told[-1].text and "/table leave" in told[-1].text
    assert await table.top_up(user, 40) == Phrase("reply.back_in", count=40)  # stopped table
    assert ways_forward(table, user) == ()


async def test_one_buy_in_size_is_offered_once(world: World) -> None:
    table = await started(world, 2, 3, structure="no limit", min_buyin=100, max_buyin=100)
    for _ in range(30):
        await play_out(world, table, shove=True)
        if any(s.stack == 0 for s in table.seats.values()):
            break
        await world.deal(table)
    user = next(s.user_id for s in table.seats.values() if s.stack == 0)
    assert ways_forward(table, user) == (Way("topup", 100), Way("leave"))
