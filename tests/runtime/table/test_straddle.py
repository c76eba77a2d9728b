"""The straddle at a live table (RULES.md 10, bot/runtime/table/straddle.py), on the runtime
alone: the setting, each player's standing choice, the hands that post it, a restart. The
button and the picture through the offline Discord: ``tests/adapter/test_seat_buttons.py``."""

from __future__ import annotations

import pytest

from bot.engine.events import ActionKind, BlindPosted
from bot.i18n import Phrase
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableError, TableSettingsError
from bot.runtime.table.live import Table
from bot.runtime.table.straddle import choose, straddle_ways
from bot.runtime.table.views import Way
from tests.runtime.conftest import CREATOR, PAUSE, World, name_of
from tests.runtime.table.test_requests import play_out


def blinds(table: Table) -> list[tuple[int, int, str]]:
    assert table.current is not None
    return [(e.seat, e.amount, e.blind) for e in table.current.hand.events
            if isinstance(e, BlindPosted)]


async def straddle_table(world: World, *users: int, **settings: object) -> Table:
    """A straddle table with ``users`` seated (200 chips each), nothing dealt yet."""
    table = await world.table(straddle=True, **settings)
    await world.seat(table, *users, buyin=200)
    return table


def test_the_setting_is_off_by_default_and_refused_at_fixed_limit() -> None:
    assert TableConfig.create().straddle is False
    assert TableConfig.from_dict({"variant_key": "omaha"}).straddle is False  # older configs
    assert TableConfig.create(structure="no limit", straddle=True).straddle is True
    with pytest.raises(TableSettingsError) as refused:
        TableConfig.create(structure="fixed limit", straddle=True)
    assert refused.value.phrase.key == "refuse.straddle_fixed_limit"
    on = TableConfig.create(straddle=True)
    with pytest.raises(TableSettingsError):
        on.changed(structure="fixed limit")
    assert on.changed(structure="fixed limit", straddle=False).straddle is False


async def test_players_choose_and_the_player_under_the_gun_straddles(world: World) -> None:
    """Blinds 1-2 at no limit: the straddle is 4, the minimum raise to 8, action starts left
    of the straddler, who is shown on the table's snapshot."""
    table = await straddle_table(world, 2, 3, 4, 5, structure="no limit")
    for user in (2, 3, 4, 5):
        assert straddle_ways(table, user) == (Way("straddle"),)
        assert await choose(table, user, True) == Phrase("reply.straddle_on", amount=4)
        assert straddle_ways(table, user) == (Way("nostraddle"),)
        assert world.economy.straddles[(table.table_id, user)] is True
    await world.deal(table)
    hand = table.current.hand
    straddler = hand.straddle_seat
    assert straddler is not None and straddler == hand.seat_order[2]
    assert blinds(table)[-1] == (straddler, 4, "straddle")
    snap = table.snapshot()
    assert snap.straddle == straddler and snap.at(straddler).bet == 4
    assert hand.to_act == hand.seat_order[3]
    legal = table.legal_for(world.to_act(table))
    assert (legal.to_call, legal.min_raise_to) == (4, 8)
    stored = world.hands.starts[table.current.hand_id].seats
    assert all(s.straddle for s in stored)
    chips = world.chips(table)
    await play_out(world, table)
    assert world.chips(table) == chips


async def test_pot_limit_maximum_is_to_15(world: World) -> None:
    table = await straddle_table(world, 2, 3, 4, 5, structure="pot limit")
    for user in (2, 3, 4, 5):
        await choose(table, user, True)
    await world.deal(table)
    legal = table.legal_for(world.to_act(table))
    assert (legal.pot, legal.min_raise_to, legal.max_raise_to) == (7, 8, 15)


async def test_the_straddler_has_the_option_when_nobody_raised(world: World) -> None:
    table = await straddle_table(world, 2, 3, 4, structure="no limit")
    for user in (2, 3, 4):
        await choose(table, user, True)
    await world.deal(table)
    hand = table.current.hand
    straddler = hand.straddle_seat
    assert straddler == hand.button  # three players: the button is under the gun
    await world.act(table, ActionKind.CALL)  # the small blind
    await world.act(table, ActionKind.CALL)  # the big blind
    assert hand.to_act == straddler
    legal = table.legal_for(world.to_act(table))
    assert legal.can_check and legal.min_raise_to == 8


async def test_only_players_who_chose_it_straddle_and_heads_up_nobody(world: World) -> None:
    table = await straddle_table(world, 2, 3)
    await choose(table, 2, True)
    await choose(table, 3, True)
    await world.deal(table)
    assert table.current.hand.straddle_seat is None
    assert [b for _, _, b in blinds(table)] == ["small", "big"]
    await play_out(world, table)
    await world.seat(table, 4, buyin=200)
    await choose(table, 3, False)
    await choose(table, 2, False)
    for _ in range(6):  # nobody has chosen it: no straddle, whoever is under the gun
        await world.deal(table)
        assert table.current.hand.straddle_seat is None
        await play_out(world, table)


async def test_a_changed_choice_counts_from_the_next_deal(world: World) -> None:
    table = await straddle_table(world, 2, 3, 4, 5)
    await world.deal(table)
    assert table.current.hand.straddle_seat is None
    for user in (2, 3, 4, 5):
        await choose(table, user, True)  # during the hand
    assert table.current.hand.straddle_seat is None
    await play_out(world, table)
    await world.deal(table)
    assert table.current.hand.straddle_seat is not None


async def test_no_choice_where_the_table_plays_no_straddles(world: World) -> None:
    table = await world.table()
    await world.seat(table, 2, 3)
    assert straddle_ways(table, 2) == ()
    with pytest.raises(TableError) as refused:
        await choose(table, 2, True)
    assert refused.value.phrase.key == "refuse.straddle_off"
    assert (table.table_id, 2) not in world.economy.straddles
    with pytest.raises(TableError):  # not seated
        await choose(await straddle_table(world, channel=101), 2, True)


async def test_the_choice_waits_while_the_setting_is_off(world: World) -> None:
    table = await straddle_table(world, 2, 3, 4, 5)
    for user in (2, 3, 4, 5):
        await choose(table, user, True)
    await table.update_settings(CREATOR, straddle=False)
    assert straddle_ways(table, 2) == ()
    await world.deal(table)
    assert table.current.hand.straddle_seat is None
    assert not any(s.straddle for s in world.hands.starts[table.current.hand_id].seats)
    await play_out(world, table)
    with pytest.raises(TableSettingsError):
        await table.update_settings(CREATOR, structure="fixed limit", straddle=True)
    await table.update_settings(CREATOR, straddle=True)
    await world.deal(table)
    assert table.current.hand.straddle_seat is not None


async def test_an_entering_player_pays_a_big_blind_not_a_straddle(world: World) -> None:
    """Not a blind owed (RULES.md 3 and 10): a player sitting down posts a full big blind."""
    table = await straddle_table(world, 2, 3, 4, 5)
    await world.deal(table)
    await play_out(world, table)
    await table.join(6, "p6", 200, post_big_blind=True)
    await choose(table, 6, True)
    await world.deal(table)
    six = table.seat_of(6).number
    assert [(a, b) for s, a, b in blinds(table) if s == six] in ([(2, "newcomer")], [(2, "big")])
    assert table.current.hand.straddle_seat is None  # nobody else chose to straddle


async def test_leaving_takes_the_choice_with_the_seat(world: World) -> None:
    table = await straddle_table(world, 2, 3)
    await choose(table, 2, True)
    await table.leave(2)
    assert (table.table_id, 2) not in world.economy.straddles
    await world.seat(table, 2, buyin=200)
    assert table.seat_of(2).straddle is False
    assert straddle_ways(table, 2) == (Way("straddle"),)


async def test_a_restart_keeps_the_choices_and_the_straddled_hand(world: World) -> None:
    table = await straddle_table(world, 2, 3, 4, 5, structure="no limit")
    for user in (2, 3, 4):
        await choose(table, user, True)
    await world.deal(table)
    while table.current.hand.straddle_seat is None:
        await play_out(world, table)
        await world.deal(table)
    straddler = table.current.hand.straddle_seat
    await world.act(table, ActionKind.RAISE, 8)
    pot, to_act = table.snapshot().pot, world.to_act(table)
    await table.shutdown()
    registry = type(world.registry)(
        economy=world.economy, hands=world.hands, tables=world.tables, observer=world.observer,
        clock=world.clock, pause=PAUSE, names=name_of,
    )
    [again] = await registry.restore()
    assert {s.user_id for s in again.seats.values() if s.straddle} == {2, 3, 4}
    assert again.current is not None and again.current.hand.straddle_seat == straddler
    assert again.snapshot().pot == pot
    assert again.seats[again.current.hand.to_act].user_id == to_act


async def test_a_mixed_table_straddles_in_its_no_and_pot_limit_hands(world: World) -> None:
    """RULES.md 10 and 11: a mixed table's fixed-limit hands have no straddle, and store
    settings a restart reads back; a list of fixed-limit games only refuses the setting."""
    with pytest.raises(TableSettingsError):
        TableConfig.create(games="LHE, O8 limit", straddle=True)
    table = await straddle_table(world, 2, 3, 4, 5, games="NLHE, O8 limit", every=1)
    for user in (2, 3, 4, 5):
        await choose(table, user, True)
    seen = {}
    for _ in range(4):
        await world.deal(table)
        hand = table.current.hand
        seen[hand.config.structure.value] = hand.straddle_seat is not None
        stored = TableConfig.from_dict(dict(world.hands.starts[table.current.hand_id].config))
        assert stored.straddle == (hand.config.structure.value != "fixed limit")
        await play_out(world, table)
    assert seen == {"no limit": True, "fixed limit": False}
