"""Mixed tables at the runtime (RULES.md 11, bot/runtime/table/choosing.py): the rotation
changes game every N hands while the button, the blinds and entering players go on as
at a one-game table; dealer's choice picks, times out, and ignores a chooser who sat out."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine.events import ActionKind
from bot.runtime.clock import FakeClock
from bot.runtime.errors import NotAllowed
from bot.runtime.registry import TableRegistry
from bot.runtime.table import choosing
from bot.runtime.table.events import DeckCommitted, GameAsked, Notice
from bot.runtime.table.live import Table
from tests.runtime.conftest import CREATOR, PAUSE, World, name_of
from tests.runtime.fakes import FakeChipBank, FakeHandStore, FakeTableStore, Recorder


def _world() -> World:
    """A world of its own (the same seed as the ``world`` fixture's)."""
    clock, economy, observer = FakeClock(), FakeChipBank(), Recorder()
    hands, tables = FakeHandStore(economy), FakeTableStore(economy)
    registry = TableRegistry(economy=economy, hands=hands, tables=tables, observer=observer,
                             clock=clock, rng=random.Random(7), pause=PAUSE, names=name_of)
    return World(clock, economy, hands, tables, observer, registry)


async def _fold_around(world: World, table: Table) -> None:
    """Everyone folds to the big blind (or the hand is over)."""
    while table.current is not None and table.current.hand.to_act is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()


def _seating(world: World) -> list[tuple[object, ...]]:
    """Each hand's button, dealt seats and entering posters, blinds and stacks."""
    out = []
    for start in world.hands.starts.values():
        out.append((start.button, tuple(s.seat for s in start.seats),
                    tuple(s.seat for s in start.seats if s.posts_big_blind),
                    tuple(s.stack for s in start.seats),
                    start.config["small_blind"], start.config["big_blind"]))
    return out


async def _play(world: World, **settings: object) -> Table:
    """Seven hands folded round; a fourth player sits down after hand 2 and waits for the
    big blind."""
    table = await world.table(**settings)
    await world.seat(table, 2, 3, 4)
    for hand in range(7):
        await world.deal(table)
        await _fold_around(world, table)
        if hand == 1:
            await world.seat(table, 5)
    return table


async def test_section_11_rotation_changes_game_every_n_hands_seating_unchanged() -> None:
    """NLHE, PLO, O8 limit, two hands each: hands 1-2 Hold'em, 3-4 Omaha, 5-6 Omaha Hi-Lo
    fixed limit, 7 Hold'em again; the button, the blinds, the entering player and every
    stack go exactly as at a one-game table dealt the same way."""
    mixed, plain = _world(), _world()
    table = await _play(mixed, games="NLHE, PLO, O8 limit", every=2)
    await _play(plain, variant_key="omaha")
    games = [(s.config["variant_key"], s.config["structure"])
             for s in mixed.hands.starts.values()]
    nl, pl, fl = "no limit", "pot limit", "fixed limit"
    assert games == [("holdem", nl)] * 2 + [("omaha", pl)] * 2 + [("omaha_hilo", fl)] * 2 + [
        ("holdem", nl)]
    assert all("mix" not in s.config for s in mixed.hands.starts.values())  # one game a hand
    assert _seating(mixed) == _seating(plain)
    entered = [n for n, s in mixed.hands.starts.items() if 5 in (x.user_id for x in s.seats)]
    assert entered and entered[0] > 3  # the newcomer waited for the big blind across games
    # the table says what it deals now; its stored settings follow, so a restart knows it
    assert table.config.current_game.key == "holdem/no limit"
    assert mixed.tables.tables[table.table_id]["config"]["variant_key"] == "holdem"
    told = [str(n.phrase) for n in mixed.observer.of(Notice) if n.phrase is not None]
    assert [t for t in told if t.startswith("Now dealing")] == [
        "Now dealing No Limit Texas Hold'em: 2 hands, then the next game.",
        "Now dealing Pot Limit Omaha: 2 hands, then the next game.",
        "Now dealing Fixed Limit Omaha Hi-Lo: 2 hands, then the next game.",
        "Now dealing No Limit Texas Hold'em: 2 hands, then the next game.",
    ]
    # the deck commitment's snapshot names the hand's game
    commits = mixed.observer.of(DeckCommitted)
    assert [c.table.config.variant_key for c in commits][:3] == ["holdem", "holdem", "omaha"]


async def test_a_new_list_starts_from_its_first_game(world: World) -> None:
    """A list changed between hands deals its first game next, then rotates from there."""
    table = await world.table(games="NLHE, PLO", every=3)
    await world.seat(table, 2, 3)
    await world.deal(table)
    await _fold_around(world, table)
    await table.update_settings(CREATOR, games="PLO5, O8")
    assert table.config.mix is not None and table.config.mix.since == 1
    for _ in range(4):
        await world.deal(table)
        await _fold_around(world, table)
    dealt = [s.config["variant_key"] for s in world.hands.starts.values()]
    assert dealt == ["holdem", "omaha5", "omaha5", "omaha5", "omaha_hilo"]


async def _dealers_choice(world: World) -> Table:
    """Dealer's choice at a table of three whose first hand was dealt and folded round."""
    table = await world.table(games="NLHE, PLO, PLO8", mode="dealer's choice")
    await world.seat(table, 2, 3, 4)
    await world.deal(table)
    assert not world.observer.of(GameAsked)  # the first button is drawn: nobody to ask
    assert table.config.variant_key == "holdem"
    await _fold_around(world, table)
    return table


async def _asked(world: World) -> GameAsked:
    await world.clock.advance(PAUSE)
    await asyncio.sleep(0)
    [asked] = world.observer.of(GameAsked)[-1:]
    return asked


async def test_section_11_dealers_choice_the_button_picks(world: World) -> None:
    """The player who will be on the button is asked; their pick is dealt at once and
    announced before the deck is committed; anyone else's answer is refused."""
    table = await _dealers_choice(world)
    asked = await _asked(world)
    assert table.current is None and asked.seconds == choosing.CHOICE_TIME
    chooser = asked.choice.user_id
    other = next(u for u in (2, 3, 4) if u != chooser)
    with pytest.raises(NotAllowed, match="not yours"):
        choosing.answer(table, asked.choice, other, 1)
    assert choosing.answer(table, asked.choice, chooser, 2).key == "omaha_hilo/pot limit"
    with pytest.raises(NotAllowed, match="over"):
        choosing.answer(table, asked.choice, chooser, 1)
    await world.clock.advance(0)  # no waiting: the hand is dealt at once
    await table.idle()
    assert table.current is not None and table.current.hand_no == 2
    assert table.seats[table.current.hand.seat_order[-1]].user_id == chooser  # the button
    assert world.hands.starts[2].config["variant_key"] == "omaha_hilo"
    names = world.observer.names()
    chose = max(i for i, e in enumerate(world.observer.events)
                if isinstance(e, Notice) and "chose" in e.text)
    assert chose < names.index("DeckCommitted", chose)
    assert f"p{chooser} chose Pot Limit Omaha Hi-Lo." in world.observer.events[chose].text


async def test_section_11_no_choice_repeats_the_previous_game(world: World) -> None:
    """Fifteen seconds without a pick: the previous hand's game is dealt again."""
    table = await _dealers_choice(world)
    asked = await _asked(world)
    await world.clock.advance(choosing.CHOICE_TIME - 1)
    assert table.current is None
    await world.clock.advance(1.1)
    await table.idle()
    assert table.current is not None and world.hands.starts[2].config["variant_key"] == "holdem"
    assert not asked.choice.open
    told = [n.text for n in world.observer.of(Notice)]
    assert any(f"p{asked.choice.user_id} did not choose: No Limit Texas Hold'em again." in t
               for t in told)


async def test_section_11_a_chooser_who_sits_out_picks_nothing(world: World) -> None:
    """The player asked sits out before answering: their click is refused, the button
    goes to a player still in, and the previous hand's game is dealt again."""
    table = await _dealers_choice(world)
    asked = await _asked(world)
    chooser = asked.choice.user_id
    await table.sit_out(chooser)
    with pytest.raises(NotAllowed, match="sitting out"):
        choosing.answer(table, asked.choice, chooser, 1)
    await world.clock.advance(choosing.CHOICE_TIME + 0.1)
    await table.idle()
    assert table.current is not None and world.hands.starts[2].config["variant_key"] == "holdem"
    assert chooser not in (table.seats[n].user_id for n in table.current.dealt)
