"""Multi-table tournaments on the real storage, played by shoving players on a fake clock:
seating, balancing and breaking, hand for hand, the final table, busts on two tables in
the same round, a restart mid-hand, a cancellation; the audit and the pool after each."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator, Iterable

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind
from bot.engine.variants import Structure
from bot.i18n import Phrase
from bot.runtime.clock import FakeClock
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Ending
from bot.runtime.table.events import Notice
from bot.runtime.table.live import Table
from bot.runtime.tournament.control import Cancelling, cancel
from bot.runtime.tournament.mtt import MttRuntime
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.sit_and_go import SitAndGo, Status, TournamentSettings
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


class Threads:
    """Opens threads: ids 5000, 5001, ... under the channel, remembered with their names."""

    def __init__(self) -> None:
        self.ids = itertools.count(5000)
        self.opened: list[tuple[int, int, str]] = []

    async def __call__(self, guild_id: int, parent: int, name: str) -> int:
        thread = next(self.ids)
        self.opened.append((parent, thread, name))
        return thread


def service(db: Database, clock: FakeClock, rec: Recorder, seed: int = 3) -> TournamentService:
    """The tournaments service (threads opened by :class:`Threads`) on a table registry."""
    ports = StoragePorts(db)
    reg = TableRegistry(
        economy=ports, hands=ports, tables=ports, observer=rec, clock=clock,
        rng=random.Random(seed), pause=PAUSE, names=name_of,
    )
    return TournamentService(reg, ports, Threads())


async def mtt_of(tours: TournamentService, players: Iterable[int], **kw: object) -> MttRuntime:
    """Register ``players`` (all of them: the last entry starts it)."""
    users = list(players)
    settings = TournamentSettings.create(
        buy_in=100, max_entrants=len(users),
        **{"schedule": "turbo", "table_size": 9, "structure": Structure.NO_LIMIT, **kw},  # type: ignore[arg-type]
    )
    rt = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, settings=settings, clock=600)
    assert isinstance(rt, MttRuntime)
    for user in users:
        await rt.join(user)
    return rt


async def shove(table: Table, user: int, rng: random.Random | None = None) -> None:
    """A shove-heavy player: all-in about a third of the time (a call when nobody left
    could call a raise), else check or fold; with no ``rng``, all-in every time."""
    legal = table.legal_for(user)
    if rng is not None and rng.random() > 0.35:
        await table.act(user, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)
        return
    cannot_raise = legal.max_raise_to is None and legal.to_call > 0
    await table.act(user, ActionKind.CALL if cannot_raise else ActionKind.ALL_IN)


async def whose_turn(table: Table) -> int | None:
    async with table.lock:
        cur = table.current
        if cur is None or cur.hand.is_over or cur.hand.to_act is None:
            return None
        return table.seats[cur.hand.to_act].user_id


async def step(rt: MttRuntime, clock: FakeClock, rng: random.Random | None) -> None:
    """One decision at every table waiting for one; else let the pauses run out."""
    acted = False
    for table in list(rt.tables.values()):
        user = await whose_turn(table)
        if user is not None:
            await shove(table, user, rng)
            acted = True
    if not acted:
        await clock.advance(PAUSE)
        await asyncio.sleep(0.001)  # the database thread's turn


async def play_out(
    rt: MttRuntime, clock: FakeClock, rng: random.Random | None = None, steps: int = 50_000
) -> None:
    for _ in range(steps):
        if rt.sng.status is not Status.RUNNING and not rt.tables and not rt.director.tasks:
            return
        await step(rt, clock, rng)
    raise AssertionError("the tournament did not end")


async def balances(db: Database, users: Iterable[int]) -> dict[int, int]:
    economy = Economy(db)
    return {u: await economy.balance(GUILD, u) for u in users}


async def audit_ok(db: Database) -> None:
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]


async def test_45_players_play_to_the_end_on_one_clock_and_the_pool_is_paid_exactly(
    db: Database,
) -> None:
    """45 shoving players at 5 tables of 9 in threads: tables balance and break down to a
    final table, moved players are told by mention, hand for hand on the bubble, every
    place 1..45 is given, the prizes add up to the pool, and the audit holds."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    users = list(range(1000, 1045))
    before = await balances(db, users)
    rt = await mtt_of(tours, users)
    threads = tours.threads
    assert isinstance(threads, Threads)
    assert [(p, n) for p, _, n in threads.opened] == [
        (CHANNEL, f"Tournament #{rt.tournament_id} - table {k}") for k in range(1, 6)]
    assert sorted(len(t.seats) for t in rt.tables.values()) == [9] * 5
    assert {t.channel_id for t in rt.tables.values()} == {t for _, t, _ in threads.opened}
    await play_out(rt, clock, random.Random(1))
    assert rt.sng.finished
    after = await balances(db, users)
    assert sum(after.values()) == sum(before.values())
    prizes = {u: after[u] - before[u] + 100 for u in users}
    assert sum(prizes.values()) == 4500 and prizes == {
        u: rt.sng.prizes.get(u, 0) for u in users}
    assert sorted(set(rt.sng.places.values()))[0] == 1 and len(rt.sng.places) == 45
    stored = await db.tournaments.get(rt.tournament_id)
    assert stored.status == "finished" and stored.pool == 0
    texts = [n.text for n in rec.of(Notice)]
    assert any("you are moved here from table" in t and t.startswith("<@") for t in texts)
    assert any("is broken" in t for t in texts)
    assert sum("This is the final table." in t for t in texts) == 1
    # hand for hand when the field was at one bust before the money (it may jump past it)
    assert any(t.startswith("Hand for hand") for t in texts) == bool(rt.director.rounds)
    check_round_places(rt)
    assert not tours.registry.all() and tours.registry.find(CHANNEL) is None
    await audit_ok(db)


def check_round_places(rt: MttRuntime) -> int:
    """Every hand-for-hand round placed its busts by their stacks at the start of the round's
    hands (bigger higher, equal sharing); returns how many rounds had busts on two tables."""
    across = 0
    for bag, outcome in rt.director.rounds:
        start = {u: s for h in bag for u, s in h.start.items()}
        busted = outcome.busted
        for a, b in itertools.combinations(busted, 2):
            if start[a.user_id] == start[b.user_id]:
                assert a.place == b.place and abs(a.prize - b.prize) <= 1
            else:
                bigger, smaller = (a, b) if start[a.user_id] > start[b.user_id] else (b, a)
                assert bigger.place < smaller.place and bigger.prize >= smaller.prize
        tables = {h.number for h in bag if {p.user_id for p in busted} & set(h.start)}
        across += len(tables) >= 2
    return across


async def test_busts_on_two_tables_in_one_hand_for_hand_round_are_placed_by_stacks(
    db: Database,
) -> None:
    """6 players at 2 tables of 3, 3 places paid: hand for hand from 4 players left (two
    heads-up tables), everyone all-in near the bubble; players busted on different tables
    in the same round are placed by their stacks at the start of that hand (RULES.md 7),
    and every tournament pays its pool (a round busts both tables about one time in four:
    tournaments are played until one does)."""
    users = list(range(2000, 2006))
    before = await balances(db, users)
    found = 0
    for seed in range(25):
        clock, rec = FakeClock(), Recorder()
        tours = service(db, clock, rec, seed=seed)
        rt = await mtt_of(tours, users, table_size=3, payouts=(50, 30, 20), min_entrants=3)
        rng = random.Random(seed)
        for _ in range(50_000):
            if rt.sng.status is not Status.RUNNING and not rt.tables and not rt.director.tasks:
                break
            near = len(rt.sng.stacks) <= rt.director.paid_places + 1
            await step(rt, clock, None if near else rng)
        assert rt.sng.finished
        found += check_round_places(rt)
        if found:
            break
    assert found, "no round busted players on two tables"
    after = await balances(db, users)
    assert sum(after.values()) == sum(before.values())
    await audit_ok(db)


def test_a_round_recorded_as_one_hand_places_by_stacks_and_shares_equal_ones() -> None:
    """What the director does with a round: the hands of two tables recorded together;
    the bigger starting stack finishes higher, equal stacks share their places' prizes."""
    settings = TournamentSettings.create(buy_in=100, max_entrants=6, table_size=3,
                                         payouts=(50, 30, 20), min_entrants=3)
    sng = SitAndGo(settings, FakeClock())
    for user in range(1, 7):
        sng.register(user)
    sng.start()
    sng.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})  # 5 left
    sng.record_hand({3: 1500, 4: 1500}, {3: 3000, 4: 0})  # 4 left: 2 places paid of 3
    # one round: table 1 (1 v 5) and table 2 (3 v 6); 5 and 6 bust with 1500 each
    outcome = sng.record_hand({1: 3000, 5: 1500, 3: 3000, 6: 1500},
                              {1: 4500, 5: 0, 3: 4500, 6: 0}, order=[1, 5, 3, 6])
    assert sorted((p.user_id, p.place, p.shared, p.prize) for p in outcome.busted) == [
        (5, 3, 2, 60), (6, 3, 2, 60)]  # 3rd and 4th shared: (120 + 0) / 2
    sng2 = SitAndGo(settings, FakeClock())
    for user in range(1, 7):
        sng2.register(user)
    sng2.start()
    sng2.record_hand({1: 1500, 2: 1500}, {1: 2000, 2: 1000})
    outcome = sng2.record_hand({1: 2000, 5: 1500, 2: 1000, 6: 1500},
                               {1: 3500, 5: 0, 2: 2500, 6: 0})
    assert [(p.user_id, p.place) for p in outcome.busted] == [(5, 5), (6, 5)]
    outcome = sng2.record_hand({1: 3500, 2: 2500, 3: 1500, 4: 1500},
                               {1: 6000, 2: 0, 3: 3000, 4: 0})
    assert [(p.user_id, p.place, p.prize) for p in outcome.busted] == [(2, 3, 120), (4, 4, 0)]


async def test_a_restart_in_the_middle_of_hands_resumes_every_table(db: Database) -> None:
    """20 players at 3 tables, a few hands played, then the bot stops with a hand running at
    every table: after the restart each hand goes on with the same cards, the stacks and
    places are kept, and the tournament is played to the end and paid exactly."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    users = list(range(3000, 3020))
    before = await balances(db, users)
    rt = await mtt_of(tours, users, table_size=8)
    assert len(rt.tables) == 3
    rng = random.Random(5)
    while rt.sng.hands_played < 3:
        await step(rt, clock, rng)
    assert len(rt.tables) >= 2
    for _ in range(1000):  # until a hand runs at every table, one decision made in each
        running = [t.current for t in rt.tables.values()]
        if all(c is not None and c.seq > 0 and not c.hand.is_over for c in running):
            break
        for table in list(rt.tables.values()):
            cur = table.current
            if cur is not None and cur.seq == 0 and (user := await whose_turn(table)):
                await shove(table, user, rng)
        await clock.advance(PAUSE)
        await asyncio.sleep(0.001)
    else:
        raise AssertionError("no moment with a hand running at every table")
    holes = {t.table_id: {n: t.current.hand.player(n).hole for n in t.current.dealt}
             for t in rt.tables.values() if t.current is not None}
    stacks = dict(rt.sng.stacks)
    places = dict(rt.sng.places)
    await stop(tours)
    assert not rt.director.tasks

    clock2, rec2 = FakeClock(100_000.0), Recorder()
    tours2 = service(db, clock2, rec2)
    restored = await tours2.restore()
    rt2 = tours2.in_channel(CHANNEL)
    assert isinstance(rt2, MttRuntime) and rt2 is not rt
    assert {t.table_id for t in restored} == set(holes)
    for table in restored:
        cur = table.current
        assert cur is not None and {n: cur.hand.player(n).hole for n in cur.dealt} == holes[
            table.table_id]
    assert rt2.sng.stacks == stacks and rt2.sng.places == places
    await play_out(rt2, clock2, rng)
    assert rt2.sng.finished
    after = await balances(db, users)
    assert sum(after.values()) == sum(before.values())
    assert sum(after[u] - before[u] + 100 for u in users) == 2000
    await audit_ok(db)


async def test_a_cancellation_after_the_start_pays_the_pool_by_the_stated_rule(
    db: Database,
) -> None:
    """The rule is stated before registration; cancelled with hands running, the
    tournament ends when they end: players out in a paid place would keep their prize,
    the rest of the pool goes to the players still in by their chips, every table closes."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    users = list(range(4000, 4018))
    before = await balances(db, users)
    rt = await mtt_of(tours, users)
    assert len(rt.tables) == 2
    rng = random.Random(2)
    while rt.sng.hands_played < 3 or all(t.current is None for t in rt.tables.values()):
        await step(rt, clock, rng)
    assert rt.sng.status is Status.RUNNING
    with pytest.raises(Exception, match="only a server manager or the players still in"):
        await cancel(rt, StoragePorts(db), CREATOR)  # the creator alone, after the start
    assert await cancel(rt, StoragePorts(db), 4000) is Cancelling.AGREED  # one of 18
    over = await cancel(rt, StoragePorts(db), CREATOR, is_manager=True)
    assert over is Cancelling.AFTER_HANDS
    stacks_then = None
    await play_out(rt, clock, rng)
    assert rt.sng.status is Status.CANCELLED
    stored = await db.tournaments.get(rt.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    after = await balances(db, users)
    assert sum(after.values()) == sum(before.values())
    prizes = {u: after[u] - before[u] + 100 for u in users}
    alive = dict(rt.sng.stacks)
    assert stacks_then is None and sum(prizes.values()) == 1800
    assert all(prizes[u] > 0 for u in alive)
    assert all(prizes[u] == 0 for u in users if u not in alive)  # nobody out was paid yet
    texts = [n.text for n in rec.of(Notice)]
    assert any("will be cancelled when the hands in progress end" in t for t in texts)
    assert any(t.startswith("The tournament is cancelled. Prizes:") for t in texts)
    [paid] = {n.phrase for n in rec.of(Notice)
              if isinstance(n.phrase, Phrase) and n.phrase.key == "notice.sng_cancelled"}
    shown = paid.to("pt-BR")  # each prize with the locale's separator, listed the pt-BR way
    assert shown.startswith("O torneio foi cancelado. Prêmios: ") and " e " in shown, shown
    big = [p for u, p in prizes.items() if p >= 1000]
    assert all(f" {p // 1000}.{p % 1000:03d}" in shown for p in big), shown
    assert not tours.registry.all()
    await audit_ok(db)


async def test_a_lost_thread_plays_its_hand_out_and_cancels_the_tournament_after_it(
    db: Database,
) -> None:
    """A table's thread is deleted mid-hand (RULES.md 7): that hand is played out by the
    clock's rule and recorded, the table deals no more and tells nothing more; the other
    table's players finish their hand; then the tournament is cancelled as after its
    start (the pool split by stacks among the players still in) and every table closes."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    users = list(range(5000, 5018))
    before = await balances(db, users)
    rt = await mtt_of(tours, users)
    rng = random.Random(9)
    while rt.sng.hands_played < 2 or any(t.current is None for t in rt.tables.values()):
        await step(rt, clock, rng)
    one, two = rt.tables.values()
    assert one.current is not None and two.current is not None
    lost = one.current
    await one.idle()
    told = [e for e in rec.events if e.table.table_id == one.table_id]

    [gone] = await tours.registry.abandon_channel(one.channel_id, "the thread was deleted")

    assert gone.ending is Ending.CANCELLING and gone.hand == lost.hand_no and not gone.returned
    assert (await db.hands.get(lost.hand_id)).status == "finished"
    assert rt.sng.status is Status.RUNNING and two.current is not None and not one.closed
    await play_out(rt, clock, rng)  # the other table's hand goes on, then the tournament ends
    assert one.closed and two.closed and rt.sng.status is Status.CANCELLED
    assert [e for e in rec.events if e.table.table_id == one.table_id] == told
    after = await balances(db, users)
    assert sum(after.values()) == sum(before.values())
    prizes = {u: after[u] - before[u] + 100 for u in users if after[u] - before[u] + 100}
    stacks = dict(rt.sng.stacks)  # the players still in; nobody out was in a paid place
    total = sum(stacks.values())
    assert total == 18 * 1_500 and sum(prizes.values()) == 1_800 and set(prizes) == set(stacks)
    # each its share of the pool rounded down, the few chips left over to the biggest stacks
    assert all(0 <= prizes[u] - 1_800 * s // total <= 1 for u, s in stacks.items())
    assert gone.later is not None and await gone.later.wait() == prizes  # for the lost table
    assert not tours.registry.all() and tours.registry.find(CHANNEL) is None
    assert (await db.tournaments.get(rt.tournament_id)).status == "cancelled"
    await audit_ok(db)
