"""After a hand, until the next deal (bot.runtime.table.after_hand, RULES.md 10): the 7-2
bounty told in the result, the rabbit hunt and showing cards, through the runtime."""

from __future__ import annotations

import pytest

from bot.engine.cards import parse_cards
from bot.engine.dealing import deal_positions
from bot.engine.events import ActionKind
from bot.engine.hand import VARIANTS
from bot.i18n import Phrase
from bot.runtime.errors import TableError
from bot.runtime.table import after_hand
from bot.runtime.table.events import CardsShownAfter, HandSettled, RabbitHunted
from bot.runtime.table.live import Table
from tests.rigged import Rigged, draw_order, hand_order
from tests.runtime.conftest import World

USERS = (2, 3, 4)  # seats 1, 2, 3; the button on seat 3 (user 4)
OPTIONS = {"variant_key": "holdem", "structure": "no limit", "seven_deuce": 5,
           "rabbit_hunt": True, "showing": True}


async def _dealt(world: World, holes: list[str], board: str = "", **settings: object) -> Table:
    """A Hold'em table of users 2, 3, 4 (200 chips each) dealt ``holes`` (seats 1, 2, 3)."""
    world.registry.rng = Rigged(draw_order(3, 2), hand_order(holes, board))
    table = await world.table(**{**OPTIONS, **settings})  # type: ignore[arg-type]
    await world.seat(table, *USERS)
    await world.deal(table)
    assert table.current is not None and table.current.hand.to_act == 3
    return table


async def _steal(world: World, holes: list[str], **settings: object) -> Table:
    """Seat 3 (user 4) raises to 10 before the flop, the blinds fold."""
    table = await _dealt(world, holes, **settings)
    await world.act(table, ActionKind.RAISE, 10)
    await world.act(table, ActionKind.FOLD)
    await world.act(table, ActionKind.FOLD)
    await table.idle()
    return table


def _refusal(exc: pytest.ExceptionInfo[TableError]) -> str:
    assert isinstance(exc.value.phrase, Phrase)
    return exc.value.phrase.key


async def test_the_bounty_is_paid_told_and_no_chip_is_made(world: World) -> None:
    chips = len(USERS) * world.economy.default_balance
    table = await _steal(world, ["AsAh", "KsKh", "7c2d"])
    [settled] = world.observer.of(HandSettled)
    result = settled.result
    assert result.lines[-1] == "p4 shows 7c 2d and collects the 7-2 bounty: 20 (p2 10, p3 10)"
    assert (result.bounties[0].amount, result.payouts, result.net) == (
        20, {3: 5}, {1: -11, 2: -12, 3: 23})
    assert {n: s.stack for n, s in table.seats.items()} == {1: 189, 2: 188, 3: 223}
    assert world.hands.settled[1] == {2: 189, 3: 188, 4: 223}
    assert world.chips(table) == chips


async def test_the_rabbit_is_posted_once_for_the_table(world: World) -> None:
    """Any player dealt in asks; the cards are the board's places of the committed deck;
    a second ask, a stranger's, or one after the next deal is refused politely."""
    table = await _steal(world, ["AsAh", "KsKh", "7c2d"])
    [settled] = world.observer.of(HandSettled)
    assert settled.result.rabbit_hunt and settled.result.showing
    with pytest.raises(TableError) as stranger:
        after_hand.check_rabbit(table, 99, 1)
    assert _refusal(stranger) == "refuse.after_hand.not_dealt"
    reply = await after_hand.rabbit_hunt(table, 3, 1)
    assert str(reply) == "The rabbit hunt of hand #1 is on the table for everyone."
    await table.idle()
    [hunted] = world.observer.of(RabbitHunted)
    order = world.hands.starts[1].deck
    places = deal_positions(3, VARIANTS["holdem"])["board"]
    assert (hunted.name, hunted.board, hunted.rabbit) == (
        "p3", (), tuple(order[i] for i in places))
    with pytest.raises(TableError) as again:
        await after_hand.rabbit_hunt(table, 2, 1)
    assert _refusal(again) == "refuse.rabbit.done"
    assert world.hands.shown == {}  # a rabbit hunt stores nothing
    await world.deal(table)
    assert table.finished is None
    with pytest.raises(TableError) as late:
        after_hand.check_show(table, 2, 1)
    assert _refusal(late) == "refuse.after_hand.over"


async def test_showing_one_card_then_the_rest(world: World) -> None:
    """User 3 (folded) shows the Kh, then the rest: stored with the hand each time, told
    with the hidden card as None; the 7-2 shown by the bot has nothing left to show."""
    table = await _steal(world, ["AsAh", "KsKh", "7c2d"])
    assert str(await after_hand.show(table, 3, 1, pick=1)) == "You show K♥ to the table."
    await table.idle()
    [told] = world.observer.of(CardsShownAfter)
    assert (told.seat, told.name, told.cards) == (2, "p3", (None, parse_cards("Kh")[0]))
    with pytest.raises(TableError) as twice:
        after_hand.check_show(table, 3, 1, pick=1)
    assert _refusal(twice) == "refuse.show.shown"
    assert str(await after_hand.show(table, 3, 1)) == "You show K♠ to the table."
    assert world.hands.shown[1] == [(2, parse_cards("Kh")), (2, parse_cards("Ks"))]
    for user in (3, 4):
        with pytest.raises(TableError) as done:
            after_hand.check_show(table, user, 1)
        assert _refusal(done) == "refuse.show.all_shown"
    with pytest.raises(TableError) as bad:
        after_hand.check_show(table, 2, 1, pick=5)
    assert _refusal(bad) == "refuse.show.no_such_card"


async def test_a_showdown_has_no_rabbit_and_its_players_show_nothing(world: World) -> None:
    """Checked down to a showdown: no rabbit; the players shown down may not show after it."""
    table = await _dealt(world, ["AsKd", "QsJd", "9c8d"], "7h7d2s3cTh")
    await world.act(table, ActionKind.CALL)
    await world.act(table, ActionKind.CALL)
    await world.act(table, ActionKind.CHECK)
    while table.current is not None:
        await world.act(table, ActionKind.CHECK)
    await table.idle()
    [settled] = world.observer.of(HandSettled)
    assert not settled.result.rabbit_hunt and not settled.result.showing
    with pytest.raises(TableError) as rabbit:
        after_hand.check_rabbit(table, 2, 1)
    assert _refusal(rabbit) == "refuse.rabbit.none"
    with pytest.raises(TableError) as shown:
        after_hand.check_show(table, 2, 1)
    assert _refusal(shown) == "refuse.show.none"


async def test_a_table_without_the_options_refuses_them(world: World) -> None:
    table = await _steal(world, ["AsAh", "KsKh", "9c8d"], seven_deuce=0, rabbit_hunt=False,
                         showing=False)
    [settled] = world.observer.of(HandSettled)
    assert settled.result.bounties == () and not settled.result.rabbit_hunt
    with pytest.raises(TableError) as rabbit:
        after_hand.check_rabbit(table, 2, 1)
    assert str(rabbit.value) == "This table has no rabbit hunt."
    with pytest.raises(TableError) as show:
        after_hand.check_show(table, 2, 1)
    assert _refusal(show) == "refuse.show.off"
