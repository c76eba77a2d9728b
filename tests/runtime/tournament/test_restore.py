"""A restart in the middle of a sit-and-go: it resumes (same deck, level, places), or,
when its stored facts do not fit, it alone is refunded and the players are told."""

from __future__ import annotations

import json
import os
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind
from bot.engine.variants import Structure
from bot.runtime.clock import FakeClock
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import HandSettled, Notice
from bot.runtime.table.live import Table
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.sit_and_go import TournamentSettings
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import name_of, stop
from tests.runtime.fakes import Recorder
from tests.runtime.tournament.test_table_policy import (
    CHANNEL,
    CREATOR,
    GUILD,
    PAUSE,
    deal,
    service,
    settle,
    sng_of,
    to_act,
)

PLAYERS = (2, 3, 4)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """A fresh database: SQLite, then PostgreSQL (tests/pgcluster.py)."""
    database = await Database.open(database_target, deck_key=os.urandom(32))
    yield database
    await database.close()


async def shove(table: Table, user: int) -> None:
    """All-in, or a call when nobody left could call a raise."""
    legal = table.legal_for(user)
    cannot_raise = legal.max_raise_to is None and legal.to_call > 0
    await table.act(user, ActionKind.CALL if cannot_raise else ActionKind.ALL_IN)


async def shove_to_the_end(table: Table, clock: FakeClock, hands: int = 200) -> None:
    """Everyone all-in every hand until one player holds every chip."""
    for _ in range(hands):
        await deal(table, clock)
        if table.closed:
            return
        cur = table.current
        assert cur is not None
        while (user := await to_act(table, cur)) is not None:
            await shove(table, user)
        await settle(table)
    raise AssertionError("the tournament did not end")


async def audit_ok(db: Database) -> None:
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]



async def spoil_settings(db: Database, tournament_id: int, settings: dict[str, object]) -> None:
    """Store settings that no longer make a tournament (payouts that do not add up)."""

    def spoil(conn: object) -> None:
        conn.execute(  # type: ignore[attr-defined]
            "UPDATE tournaments SET settings = ? WHERE id = ?",
            (json.dumps(settings), tournament_id),
        )

    await db.write(spoil)

async def test_a_restart_mid_hand_resumes_the_hand_on_its_deck_and_the_level_clock(
    db: Database,
) -> None:
    """Two hands played, 7 minutes on a turbo clock, a hand cut mid-street: after the
    restart the same hand goes on with the same cards, level 2 with about 3 minutes left, the
    places already decided are kept, and the tournament is played out and paid exactly."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in PLAYERS}
    settings = TournamentSettings.create(buy_in=100, max_entrants=3, schedule="turbo",
                                         structure=Structure.NO_LIMIT)
    rt = await tours.create(  # a 10-minute turn clock: nobody times out here
        guild_id=GUILD, channel_id=CHANNEL, creator_id=1, settings=settings, clock=600
    )
    for user in PLAYERS:
        await rt.join(user)
    table = rt.table
    assert table is not None
    for minutes in (3, 4):  # two hands checked and called down, 3 and 4 minutes long
        await deal(table, clock)
        cur = table.current
        assert cur is not None
        await clock.advance(minutes * 60 - PAUSE)
        while (user := await to_act(table, cur)) is not None:
            legal = table.legal_for(user)
            await table.act(user, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        await settle(table)
    played = rt.sng.clock_seconds  # about 7 minutes (the pauses between hands add a few s)
    assert 7 * 60 <= played < 8 * 60
    await deal(table, clock)
    cur = table.current
    assert cur is not None
    first = await to_act(table, cur)
    assert first is not None
    await table.act(first, ActionKind.CALL)
    holes = {n: cur.hand.player(n).hole for n in cur.dealt}
    saved = await db.tournaments.interrupted()
    assert saved[0].hands_played == 2 and saved[0].level_elapsed == pytest.approx(played)
    stacks = {s.user_id: s.stack for s in table.seats.values()}
    await stop(tours)

    clock2, rec2 = FakeClock(10_000.0), Recorder()
    tours2 = service(db, clock2, rec2)
    restored = await tours2.restore()
    assert [t.table_id for t in restored] == [table.table_id]
    table2, rt2 = restored[0], tours2.in_channel(CHANNEL)
    cur2 = table2.current
    assert cur2 is not None and cur2.hand_no == cur.hand_no
    assert {n: cur2.hand.player(n).hole for n in cur2.dealt} == holes
    assert cur2.seq == 1 and rt2.sng.hands_played == 2
    assert rt2.sng.level_index == 1  # level 2 with the time that was left in it
    assert rt2.sng.until_next_level() == pytest.approx(10 * 60 - played)
    assert rt2.sng.stacks == stacks
    await table2.idle()
    texts = [n.text for n in rec2.of(Notice)]
    assert any("tournament goes on" in t and "level 2" in t for t in texts), texts
    assert any(f"Hand #{cur.hand_no} resumes" in t for t in texts)
    while (user := await to_act(table2, cur2)) is not None:
        await shove(table2, user)
    await settle(table2)
    await shove_to_the_end(table2, clock2)
    stored = await db.tournaments.get(rt2.tournament_id)
    assert stored.status == "finished" and stored.pool == 0
    after = {u: await economy.balance(GUILD, u) for u in PLAYERS}
    assert sum(after.values()) == sum(before.values())
    assert after[rt2.sng.winner or 0] == before[rt2.sng.winner or 0] + 200
    await audit_ok(db)
    await stop(tours2)


async def test_a_restart_keeps_registration_open_with_the_same_entrants(
    db: Database,
) -> None:
    """A tournament still registering reopens; the last entry then starts it."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    rt = await sng_of(tours)
    await rt.join(2)
    await rt.join(3)
    await stop(tours)
    tours2 = service(db, clock, Recorder())
    assert await tours2.restore() == []
    rt2 = tours2.in_channel(CHANNEL)
    assert rt2.tournament_id == rt.tournament_id and rt2.sng.entrants == [2, 3]
    assert await rt2.join(4) is True
    assert rt2.table is not None and len(rt2.table.seats) == 3
    await audit_ok(db)
    await stop(tours2)


async def test_a_tournament_that_cannot_be_resumed_alone_is_refunded_and_told(
    db: Database,
) -> None:
    """Stored settings made unreadable: that tournament is cancelled and refunded, the
    channel is told with every player mentioned, and no chip is lost."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in PLAYERS}
    rt = await sng_of(tours)
    for user in PLAYERS:
        await rt.join(user)
    assert rt.table is not None
    await deal(rt.table, clock)
    await stop(tours)

    await spoil_settings(db, rt.tournament_id, {"payouts": [70, 20]})
    rec2 = Recorder()
    tours2 = service(db, FakeClock(), rec2)
    assert await tours2.restore() == []
    assert tours2.registry.find(CHANNEL) is None
    assert (await db.tournaments.get(rt.tournament_id)).status == "cancelled"
    assert {u: await economy.balance(GUILD, u) for u in PLAYERS} == before
    assert not await db.hands.list_unfinished() and not await db.tables.list_open()
    texts = [n.text for n in rec2.of(Notice)]
    assert len(texts) == 1 and "could not be resumed" in texts[0]
    assert all(f"<@{u}>" in texts[0] for u in PLAYERS) and "100" in texts[0]
    await audit_ok(db)


async def two_shove_the_rest_fold(table: Table, cur: object) -> None:
    """The first two players to act go all-in, everyone else folds."""
    shoved = 0
    while (user := await to_act(table, cur)) is not None:
        if shoved < 2:
            shoved += 1
            await shove(table, user)
        else:
            legal = table.legal_for(user)
            await table.act(user, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)


async def test_ten_players_all_in_every_hand_share_the_places_and_the_pool_exactly(
    db: Database,
) -> None:
    """Ten players all-in every hand: the first hand with a winner busts the others at
    equal stacks, who share 2nd to 10th; 1,000 chips are paid exactly (RULES.md 7)."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    economy = Economy(db)
    players = tuple(range(2, 12))
    before = {u: await economy.balance(GUILD, u) for u in players}
    rt = await sng_of(tours, entrants=10, structure=Structure.NO_LIMIT)
    for user in players:
        await rt.join(user)
    assert rt.table is not None
    await shove_to_the_end(rt.table, clock)
    prizes, places = rt.sng.prizes, rt.sng.places
    assert sum(prizes.values()) == 1000 and sorted(places.values())[0] == 1
    assert (await db.tournaments.get(rt.tournament_id)).pool == 0
    after = {u: await economy.balance(GUILD, u) for u in players}
    assert all(after[u] - before[u] == prizes.get(u, 0) - 100 for u in players)
    shares = [prizes.get(u, 0) for u in players if places[u] != 1]
    # the seeded deck gives one winner: nine players share 2nd, 500 chips split nine ways
    assert set(places.values()) == {1, 2}, places
    assert sorted(shares) == [55] * 4 + [56] * 5
    await audit_ok(db)


async def test_ten_players_shove_every_hand_with_a_restart_after_the_first_busts(
    db: Database,
) -> None:
    """Ten players all-in every hand on a fake clock; once places are decided, the bot
    dies mid-hand; the places stay, the hand ends on its deck and the prize pool of
    1,000 is paid 50/30/20 exactly, to the right places."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    economy = Economy(db)
    players = tuple(range(2, 12))
    before = {u: await economy.balance(GUILD, u) for u in players}
    rt = await sng_of(tours, entrants=10, structure=Structure.NO_LIMIT)
    for user in players:
        await rt.join(user)
    table = rt.table
    assert table is not None
    for _ in range(100):
        await deal(table, clock)
        cur = table.current
        assert cur is not None
        if rt.sng.placements:
            break
        await two_shove_the_rest_fold(table, cur)
        await settle(table)
    placed = dict(rt.sng.places)
    assert placed and table.current is not None and len(rt.sng.stacks) >= 3
    holes = {n: table.current.hand.player(n).hole for n in table.current.dealt}
    await stop(tours)

    clock2 = FakeClock(50.0)
    tours2 = service(db, clock2, Recorder())
    (table2,) = await tours2.restore()
    rt2 = tours2.in_channel(CHANNEL)
    assert rt2.sng.places == placed
    assert table2.current is not None
    assert {n: table2.current.hand.player(n).hole for n in table2.current.dealt} == holes
    cur2 = table2.current
    while (user := await to_act(table2, cur2)) is not None:
        await shove(table2, user)
    await settle(table2)
    await shove_to_the_end(table2, clock2)
    stored = await db.tournaments.get(rt2.tournament_id)
    assert stored.status == "finished" and stored.pool == 0
    prizes = rt2.sng.prizes
    assert sum(prizes.values()) == 1000
    by_place = {p.place: p.prize for p in rt2.sng.placements.values() if p.shared == 1}
    assert by_place.get(1) == 500
    assert all(by_place.get(n, v) == v for n, v in ((2, 300), (3, 200)))
    after = {u: await economy.balance(GUILD, u) for u in players}
    assert sum(after.values()) == sum(before.values())
    assert all(after[u] - before[u] == prizes.get(u, 0) - 100 for u in players)
    await audit_ok(db)


async def test_an_unresumable_tournament_is_told_in_its_language(db: Database) -> None:
    """The refund notice speaks the tournament's stored language (Portuguese here); the
    stored cancellation reason stays as it was."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    rt = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, language="pt-BR",
        settings=TournamentSettings.create(buy_in=100, max_entrants=3, schedule="turbo"))
    for user in PLAYERS:
        await rt.join(user)
    assert rt.table is not None
    await deal(rt.table, clock)
    await stop(tours)

    await spoil_settings(db, rt.tournament_id, {"payouts": [70, 20], "language": "pt-BR"})
    rec2 = Recorder()
    tours2 = service(db, FakeClock(), rec2)
    assert await tours2.restore() == []
    [notice] = rec2.of(Notice)
    assert notice.table.config.language == "pt-BR" and notice.phrase is not None
    text = notice.phrase.to(notice.table.config.language)
    start = f"O bot reiniciou e o torneio #{rt.tournament_id} não pôde ser retomado ("
    assert text.startswith(start), text
    assert "cada buy-in de 100 fichas foi devolvido: " in text, text
    assert all(f"<@{u}>" in text for u in PLAYERS)
    await audit_ok(db)


class Killed(Exception):
    """The bot killed right after a settlement's commit (``settle.stored``)."""


class KilledAtTheLastSettlement(StoragePorts):
    """The real ports, dying once the settlement that leaves one player with chips is
    stored: its result never posted, its places and prizes never decided."""

    async def settle(self, hand_id: int, **kwargs: Any) -> None:
        await super().settle(hand_id, **kwargs)
        if sum(1 for stack in kwargs["hand"].result.final_stacks.values() if stack) == 1:
            raise Killed


async def test_a_kill_after_the_last_hand_posts_its_result_before_the_winner(
    db: Database,
) -> None:
    """The tournament's last hand settled, the bot killed before its result: after the
    restart the result comes first (posted after a restart), then the winner."""
    clock, ports = FakeClock(), KilledAtTheLastSettlement(db)
    tours = TournamentService(TableRegistry(
        economy=ports, hands=ports, tables=ports, observer=Recorder(), clock=clock,
        rng=random.Random(3), pause=PAUSE, names=name_of), ports)
    rt = await sng_of(tours, structure=Structure.NO_LIMIT)
    for user in PLAYERS:
        await rt.join(user)
    table = rt.table
    assert table is not None
    with pytest.raises(Killed):
        await shove_to_the_end(table, clock)
    await stop(tours)

    rec = Recorder()
    (table2,) = await service(db, FakeClock(50.0), rec).restore()
    await table2.idle()
    said = [e for e in rec.events if isinstance(e, HandSettled | Notice)]
    assert isinstance(said[0], HandSettled) and said[0].result.after_restart, said
    assert any("wins the tournament" in str(n.text) for n in said[1:]), said
    assert table2.closed and await db.results.unposted(table2.table_id) == []
    await audit_ok(db)
