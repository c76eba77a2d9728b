"""A tournament nobody plays any more stops (bot/runtime/tournament/idle.py, issue 29).

On the real storage and a fake clock: players who never act time out, are sat out and
folded at once; after 20 hands in a row without a decision of a player's own the
tournament is cancelled by RULES.md 7's rule (prizes by stacks), the tables are told
why, every chip is accounted for and the tables close.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind
from bot.i18n import Phrase
from bot.runtime.clock import FakeClock
from bot.runtime.decisions import Source
from bot.runtime.table.events import Notice
from bot.runtime.table.live import Table
from bot.runtime.tournament.blinds import BlindLevel, BlindSchedule, LevelUnit
from bot.runtime.tournament.idle import IDLE_HANDS, IdleHands
from bot.runtime.tournament.mtt import MttRuntime
from bot.runtime.tournament.sit_and_go import Status, TournamentSettings
from bot.runtime.tournament.table_policy import TournamentPolicy
from bot.storage import Database
from tests.runtime.fakes import Recorder
from tests.runtime.tournament import test_mtt
from tests.runtime.tournament.test_table_policy import (
    CHANNEL,
    CREATOR,
    GUILD,
    REAL_WAIT,
    service,
    settle,
    to_act,
)

#: Seconds per decision (no time bank) at these tables: every step of the fake clock
#: passes it, and the pause between hands.
CLOCK = 5.0
#: One level for the whole test: the stacks move only by the blinds folded.
FLAT = BlindSchedule("flat", (BlindLevel(10, 20),), 1000, LevelUnit.HANDS)


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    yield database
    await database.close()


def test_the_count_is_hands_in_a_row_without_a_decision_of_a_players_own() -> None:
    idle = IdleHands()
    assert [idle.after(False) for _ in range(IDLE_HANDS - 1)] == [False] * (IDLE_HANDS - 1)
    assert idle.after(True) is False and idle.count == 0  # one decision: from zero again
    assert not any(idle.after(False) for _ in range(IDLE_HANDS - 1))
    assert idle.after(False) is True  # the 20th in a row, once
    assert idle.after(False) is False
    assert [Source.own(s.value) for s in Source] == [True, False, False, True, False]


async def run_down(tables: list[Table], clock: FakeClock) -> None:
    """Let every clock and pause run out until the tables close (nobody acts)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + REAL_WAIT
    while not all(t.closed for t in tables):
        assert loop.time() < deadline, "the tables did not stop"
        await clock.advance(CLOCK)
        await asyncio.sleep(0.001)  # the database thread's turn


def notices(rec: Recorder, key: str) -> list[Notice]:
    return [n for n in rec.of(Notice) if isinstance(n.phrase, Phrase) and n.phrase.key == key]


async def test_a_dead_sit_and_go_is_cancelled_after_20_idle_hands(db: Database) -> None:
    """Heads-up, buy-in 300: the first hand's small blind folds by their own decision
    (1,490 against 1,510), then nobody acts: each small blind times out (then is sat out)
    and folds. The 20th hand of that ends it: the stacks are as after the first hand (20
    folds, 10 each way), the pool of 600 is split by them, 298 and 302, the table is told
    why, then the prizes, and closes; the audit holds."""
    clock, rec = FakeClock(), Recorder()
    tours = service(db, clock, rec)
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in (2, 3)}
    rt = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, clock=int(CLOCK), time_bank=0,
        settings=TournamentSettings.create(buy_in=300, max_entrants=2, schedule=FLAT))
    await rt.join(2)
    await rt.join(3)
    table = rt.table
    assert table is not None and isinstance(table.policy, TournamentPolicy)
    while table.current is None:
        await clock.advance(CLOCK)
        await asyncio.sleep(0.001)
    first = table.current
    small_blind = await to_act(table, first)
    assert small_blind is not None
    await table.act(small_blind, ActionKind.FOLD)
    await settle(table)
    after_first = {s.user_id: s.stack for s in table.seats.values()}
    assert after_first[small_blind] == 1_490 and table.policy.idle.count == 0

    await run_down([table], clock)

    assert rt.sng.status is Status.CANCELLED and rt.sng.hands_played == 1 + IDLE_HANDS
    assert dict(rt.sng.stacks) == after_first
    prizes = {u: 600 * stack // 3_000 for u, stack in after_first.items()}
    assert sorted(prizes.values()) == [298, 302]
    after = {u: await economy.balance(GUILD, u) for u in (2, 3)}
    assert after == {u: before[u] - 300 + prizes[u] for u in (2, 3)}
    stored = await db.tournaments.get(rt.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    texts = [n.text for n in rec.of(Notice)]
    told = texts.index(
        "Nobody has made a decision of their own for 20 hands in a row (every action was a"
        " timeout or a sitting-out player's): the tournament is cancelled as after its start"
        " (prizes already won are kept, the rest is split by stacks).")
    assert texts[told + 1].startswith("The tournament is cancelled. Prizes: ")
    assert "302" in texts[told + 1] and "298" in texts[told + 1]
    assert len(notices(rec, "notice.sng_idle")) == 1
    assert tours.registry.find(CHANNEL) is None and not tours.all()
    await test_mtt.audit_ok(db)


async def test_a_dead_multi_table_tournament_is_cancelled_on_every_table(db: Database) -> None:
    """Six players at two tables of three, nobody acting: the hands of both tables count
    in the order they end; the 20th cancels the tournament by the rule on both (each told
    why), the pool of 600 is paid by stacks, every table closes; the audit holds."""
    clock, rec = FakeClock(), Recorder()
    tours = test_mtt.service(db, clock, rec)
    users = list(range(4000, 4006))
    before = await test_mtt.balances(db, users)
    settings = TournamentSettings.create(buy_in=100, max_entrants=6, table_size=3)
    rt = await tours.create(guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
                            settings=settings, clock=int(CLOCK), time_bank=0)
    assert isinstance(rt, MttRuntime)
    for user in users:
        await rt.join(user)
    tables = list(rt.tables.values())
    assert len(tables) == 2

    await run_down(tables, clock)
    await asyncio.gather(*rt.director.tasks)  # the cancellation's task ends

    assert rt.sng.status is Status.CANCELLED
    assert IDLE_HANDS <= rt.sng.hands_played < IDLE_HANDS + len(tables)  # hands in flight end
    told = notices(rec, "notice.sng_idle")
    assert sorted(n.table.table_id for n in told) == sorted(t.table_id for t in tables)
    assert len(notices(rec, "notice.sng_cancelled")) == len(tables)
    after = await test_mtt.balances(db, users)
    assert sum(after.values()) == sum(before.values())
    paid = {u: after[u] - before[u] + 100 for u in users}
    total = sum(rt.sng.stacks.values())
    assert total == 6 * settings.starting_stack and sum(paid.values()) == 600
    assert all(abs(paid[u] * total - 600 * stack) < total for u, stack in rt.sng.stacks.items())
    stored = await db.tournaments.get(rt.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    assert not tours.registry.all() and not tours.all()
    await test_mtt.audit_ok(db)
