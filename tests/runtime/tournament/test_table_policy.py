"""Sit-and-go play on the real storage: levels, sitting out, busts, prizes and the audit."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind
from bot.engine.variants import Structure
from bot.i18n import Phrase
from bot.runtime.clock import FakeClock
from bot.runtime.errors import StoreUnavailable, TableError
from bot.runtime.mix import Game
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import Notice, TournamentOver
from bot.runtime.table.live import Table
from bot.runtime.tournament.blinds import BlindLevel, BlindSchedule, LevelUnit
from bot.runtime.tournament.control import Cancelling, cancel
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.sit_and_go import TournamentRuleError, TournamentSettings
from bot.runtime.tournament.table_policy import SitAndGoRuntime, ordinal
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import name_of, stop
from tests.runtime.fakes import Recorder

GUILD, CHANNEL, CREATOR = 10, 100, 1
PAUSE = 2.0


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    yield database
    await database.close()


def service(db: Database, clock: FakeClock, observer: Recorder) -> TournamentService:
    """The tournaments service on a table registry, both on the real storage."""
    ports = StoragePorts(db)
    reg = TableRegistry(
        economy=ports, hands=ports, tables=ports, observer=observer, clock=clock,
        rng=random.Random(3), pause=PAUSE, names=name_of,
    )
    return TournamentService(reg, ports)


#: Seconds of real time a test waits for the database (a loaded machine's fsyncs are slow;
#: a count of polls is not a time).
REAL_WAIT = 60.0


async def settle(table: Table) -> None:
    """Wait (really, a few seconds at most) for the database work of the running step: a
    hand being recorded holds the table's lock; once the next deal's pause sleeps on the
    fake clock (the lock free), only :func:`deal` moves it on."""
    for _ in range(3000):
        if (table.current is not None or not table.pending_deal or table.closed
                or not table.lock.locked()):
            break
        await asyncio.sleep(0.001)
    await table.idle()


async def to_act(table: Table, cur: object) -> int | None:
    """Whose decision the hand waits for (read under the lock, so automatic ones are done)."""
    async with table.lock:
        if table.current is not cur or table.current is None or table.current.hand.is_over:
            return None
        n = table.current.hand.to_act
        return None if n is None else table.seats[n].user_id


async def deal(table: Table, clock: FakeClock) -> None:
    """Let the pause run out until the next hand is dealt (or the table has closed).

    The next hand is scheduled only once the last one is settled in the database,
    which takes real time: wait for it (bounded), and once the deal's pause is asleep on
    the fake clock (a sleeper due within :data:`PAUSE`), move the clock to exactly its
    end: never further, so the blind levels do not age on a loaded machine, and never
    before the pause began.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + REAL_WAIT
    while loop.time() < deadline:
        cur = table.current
        if table.closed or (cur is not None and not cur.hand.is_over):
            break
        wake = clock.next_wake()
        if table.pending_deal and wake is not None and wake - clock.now() <= PAUSE:
            await clock.advance(wake - clock.now())
        await asyncio.sleep(0.001)
    await settle(table)


async def sng_of(tours: TournamentService, entrants: int = 3, **kw: object) -> SitAndGoRuntime:
    settings = TournamentSettings.create(
        buy_in=100, max_entrants=entrants, **{"schedule": "turbo", **kw}  # type: ignore[arg-type]
    )
    return await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, settings=settings
    )


async def test_a_turbo_played_to_the_end_pays_the_prizes_and_keeps_every_chip(
    db: Database,
) -> None:
    """Three players all-in every hand: places, 100% to the winner, balances and audit right."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in (2, 3, 4)}
    sng = await sng_of(tours, structure=Structure.NO_LIMIT)
    assert await sng.join(2) is False and await sng.join(3) is False
    assert await economy.balance(GUILD, 2) == before[2] - 100
    assert await sng.join(4) is True
    table = sng.table
    assert table is not None and tours.registry.find(CHANNEL) is table
    assert sorted(s.stack for s in table.seats.values()) == [1500, 1500, 1500]
    for _ in range(60):
        await deal(table, clock)
        if table.closed:
            break
        cur = table.current
        assert cur is not None
        assert cur.hand.config.big_blind == sng.sng.game().big_blind
        while (user := await to_act(table, cur)) is not None:
            await table.act(user, ActionKind.ALL_IN)
        await settle(table)
    assert table.closed and sng.sng.finished
    winner = sng.sng.winner
    assert winner is not None
    after = {u: await economy.balance(GUILD, u) for u in (2, 3, 4)}
    assert after[winner] == before[winner] + 200
    assert sum(after.values()) == sum(before.values())
    stored = await db.tournaments.get(sng.tournament_id)
    assert stored.status == "finished" and stored.pool == 0
    assert sorted(sng.sng.places.values())[0] == 1
    notices = [n.text for n in rec.of(Notice)]
    assert any("wins the tournament and 300 chips" in t for t in notices)
    assert any("is out in 3rd place" in t or "shared by 2" in t for t in notices)
    assert tours.registry.find(CHANNEL) is None
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]


async def test_blinds_follow_the_level_and_sitting_out_players_are_dealt_in(
    db: Database,
) -> None:
    """Each hand uses the level in force when it is dealt, a new level is announced once,
    and a player sitting out is still dealt in and checked or folded at once."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    by_hand = BlindSchedule("by hand", (BlindLevel(15, 30), BlindLevel(25, 50)), 1,
                            LevelUnit.HANDS)
    sng = await sng_of(tours, entrants=2, schedule=by_hand)
    await sng.join(2)
    await sng.join(3)
    table = sng.table
    assert table is not None
    await table.sit_out(2)
    for big in (30, 50):
        await deal(table, clock)
        cur = table.current
        assert cur is not None and cur.hand.config.big_blind == big
        assert {table.seats[n].user_id for n in cur.dealt} == {2, 3}
        while (user := await to_act(table, cur)) is not None:
            assert user == 3  # the player sitting out is never asked
            legal = table.legal_for(user)
            await table.act(user, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        await settle(table)
    notices = [n.text for n in rec.of(Notice)]
    assert sum("Blinds are now 25/50 (level 2)" in t for t in notices) == 1
    assert sum(s.stack for s in table.seats.values()) == 3000


async def test_section_11_a_sit_and_go_rotates_its_games_at_the_levels_blinds(
    db: Database,
) -> None:
    """A rotation of NLHE and Omaha Hi-Lo fixed limit, two hands each: the games follow the
    list, every hand posts the level in force (fixed limit: its small blind half the big
    blind, for every game), and each hand is recorded under its own game."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    by_hand = BlindSchedule("by hand", (BlindLevel(15, 30), BlindLevel(25, 50)), 3,
                            LevelUnit.HANDS)
    sng = await sng_of(tours, entrants=2, schedule=by_hand, games="NLHE, O8 limit", every=2)
    assert sng.sng.settings.games and sng.config.mix is not None
    await sng.join(2)
    await sng.join(3)
    table = sng.table
    assert table is not None
    dealt = []
    for _ in range(5):
        await deal(table, clock)
        cur = table.current
        assert cur is not None
        game = cur.hand.config
        dealt.append((game.variant.key, game.structure.value, game.small_blind, game.big_blind))
        while (user := await to_act(table, cur)) is not None:
            await table.act(user, ActionKind.FOLD)
        await settle(table)
    assert dealt == [("holdem", "no limit", 15, 30), ("holdem", "no limit", 15, 30),
                     ("omaha_hilo", "fixed limit", 15, 30), ("omaha_hilo", "fixed limit", 25, 50),
                     ("holdem", "no limit", 25, 50)]
    stored = [r.hand.variant for r in await db.history.recent(GUILD, limit=10)]
    assert stored == ["holdem", "omaha_hilo", "omaha_hilo", "holdem", "holdem"]
    assert sum(s.stack for s in table.seats.values()) == 3000
    # cancelled: the results name the rotation's games, not the one the last hand dealt
    assert await cancel(sng, StoragePorts(db), CREATOR, is_manager=True) is Cancelling.DONE
    [over] = rec.of(TournamentOver)
    assert over.cancelled and over.table.config.current_game == Game("holdem", Structure.NO_LIMIT)
    assert over.games == (Game("holdem", Structure.NO_LIMIT),
                          Game("omaha_hilo", Structure.FIXED_LIMIT))
    with pytest.raises(TournamentRuleError, match="Six-card Omaha seats at most 7"):
        TournamentSettings.create(buy_in=10, max_entrants=8, games="NLHE, PLO6")
    await stop(tours)


async def test_refusals_change_nothing(db: Database) -> None:
    """Twice, full, short of chips, leaving after the start, cash-table moves: all refused."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    economy = Economy(db)
    sng = await sng_of(tours, entrants=2)
    await sng.join(2)
    with pytest.raises(TournamentRuleError, match="already registered"):
        await sng.join(2)
    await economy.adjust(GUILD, 5, -(await economy.balance(GUILD, 5)) + 10, actor_id=1,
                         reason="test")
    with pytest.raises(TableError, match="100"):
        await sng.join(5)
    assert await economy.balance(GUILD, 5) == 10 and sng.sng.entrants == [2]
    with pytest.raises(TournamentRuleError, match="not registered"):
        await sng.leave(3)
    bal = await economy.balance(GUILD, 2)
    await sng.leave(2)
    assert await economy.balance(GUILD, 2) == bal + 100 and sng.sng.entrants == []
    await sng.join(2)
    await sng.join(3)
    with pytest.raises(TournamentRuleError, match="closed"):
        await sng.join(4)
    with pytest.raises(TournamentRuleError, match="started"):
        await sng.leave(2)
    table = sng.table
    assert table is not None
    for refused in (table.leave(2), table.top_up(2, 10), table.join(4, "p4")):
        with pytest.raises(TableError):
            await refused
    with pytest.raises(TableError):
        await tours.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
            settings=TournamentSettings.create(buy_in=5),
        )


def test_ordinal() -> None:
    """Places read 1st, 2nd, 3rd, 4th, 11th, 22nd."""
    expected = ["1st", "2nd", "3rd", "4th", "11th", "22nd"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 22)] == expected


async def test_the_start_seats_entrants_by_the_names_given_at_registration(
    db: Database,
) -> None:
    """The entry that fills the tournament looks no name up (on Discord that is a request)."""
    asked: list[int] = []

    async def names(guild_id: int, user_id: int) -> str:
        asked.append(user_id)
        return f"looked-up {user_id}"

    ports = StoragePorts(db)
    reg = TableRegistry(
        economy=ports, hands=ports, tables=ports, observer=Recorder(), clock=FakeClock(),
        rng=random.Random(3), pause=PAUSE, names=names,
    )
    tours = TournamentService(reg, ports)
    sng = await sng_of(tours, entrants=3)
    await sng.join(2, "Alice")
    await sng.join(3, "Bob")
    await sng.leave(3)
    await sng.join(3)  # no name given: the start looks this one up
    assert await sng.join(4, "Carol") is True
    table = sng.table
    assert table is not None
    assert sorted(s.name for s in table.seats.values()) == ["Alice", "Carol", "looked-up 3"]
    assert asked == [3]
    await stop(tours)


@pytest.mark.parametrize("write", ["save_progress", "finish"])
async def test_a_bust_whose_place_cannot_be_written_is_written_once_the_dealer_can(
    db: Database, monkeypatch: pytest.MonkeyPatch, write: str,
) -> None:
    """The hand that busts a player is settled, then the database stops taking writes
    before its first write for the tournament (the blind clock's progress), or before
    its last (the prizes, the busts written): its busts, places and prizes are written
    once it can again, each once, before any deal, and the tournament ends."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    sng = await sng_of(tours, structure=Structure.NO_LIMIT)
    for user in (2, 3, 4):
        await sng.join(user)
    table = sng.table
    assert table is not None
    store = type(tours.store)
    saved = getattr(store, write)
    failed: list[int] = []

    async def down_once(self: object, *args: object) -> object:
        if not failed and sng.sng.places:
            failed.append(sng.sng.hands_played)
            tours.registry.storage_down()
            raise StoreUnavailable(Phrase("error.cannot_write"))
        return await saved(self, *args)

    monkeypatch.setattr(store, write, down_once)
    for _ in range(60):
        await deal(table, clock)
        if failed and table.current is None and not table.closed:
            await tours.registry.storage_up()
            await settle(table)
            await deal(table, clock)
        if table.closed:
            break
        cur = table.current
        assert cur is not None
        while (user := await to_act(table, cur)) is not None:
            await table.act(user, ActionKind.ALL_IN)
        await settle(table)
    assert failed and table.closed and sng.sng.finished
    places = await db.read(lambda c: c.execute(
        "SELECT place FROM tournament_entries ORDER BY place").fetchall())
    assert [row[0] for row in places] == sorted(sng.sng.places.values())
    assert None not in [row[0] for row in places]
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]
