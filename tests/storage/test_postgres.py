"""PostgreSQL across processes: two databases opened on the same URL.

Each :class:`Database` has its own connection on its own thread, as two bot
processes would; they pay the daily bonus and move chips for the same player
at the same time. Whatever the interleaving, no chip is created or lost: the
balances are what the successful operations say, and the audit holds as
seen from both sides. (The SQLite cases of the same guarantees are in
test_ledger.py and test_invariants.py; SQLite serializes writers with
``BEGIN IMMEDIATE``.)
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.economy import DAY, daily_policy
from bot.storage import (
    DailyNotReady,
    Database,
    EconomyError,
    LedgerKind,
    StorageError,
    StorageUnavailable,
)
from bot.storage.dialect import Conn, numbered, postgres_ddl
from bot.storage.migrate import load_migrations
from tests.pgcluster import Cluster

from .blackhole import Blackhole
from .helpers import FakeClock, assert_audit_ok

G, ALICE, MOD = 7, 201, 999


@pytest.fixture
async def two(pg_url: str, clock: FakeClock) -> AsyncIterator[tuple[Database, Database]]:
    """Two connections ("processes") on one fresh PostgreSQL database."""
    key = os.urandom(32)
    a = await Database.open(pg_url, clock=clock, deck_key=key)
    b = await Database.open(pg_url, clock=clock, deck_key=key)
    try:
        yield a, b
        await assert_audit_ok(a)
        await assert_audit_ok(b)
    finally:
        await a.close()
        await b.close()


async def test_a_race_is_detected_and_the_loser_runs_again(
    two: tuple[Database, Database],
) -> None:
    """Both read the balance, then both write it: one gets 40001 and is run again."""
    a, b = two
    await a.wallets.open(G, ALICE)
    both_read = threading.Barrier(2, timeout=10)
    runs: list[str] = []

    def add(who: str, amount: int) -> object:
        def job(conn: Conn) -> int:
            first = who not in runs
            runs.append(who)
            balance = conn.execute(
                "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (G, ALICE)
            ).fetchone()[0]
            if first:
                both_read.wait()  # the other transaction has read the same balance
            conn.execute(
                "UPDATE wallets SET balance = ? WHERE guild_id = ? AND user_id = ?",
                (balance + amount, G, ALICE),
            )
            conn.execute(
                "INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id)"
                " VALUES (?, 0, 'grant', ?, 'mint', ?, ?)", (G, amount, f"wallet:{ALICE}", ALICE)
            )
            return int(balance + amount)

        return job

    await asyncio.gather(a.write(add("a", 5)), b.write(add("b", 7)))  # type: ignore[arg-type]
    assert a.conflicts + b.conflicts == 1
    assert sorted(runs) == ["a", "a", "b"] or sorted(runs) == ["a", "b", "b"]
    wallet = await b.wallets.get(G, ALICE)
    assert wallet is not None and wallet.balance == 10_000 + 5 + 7


async def test_daily_bonus_is_paid_once_per_day_across_processes(
    two: tuple[Database, Database], clock: FakeClock
) -> None:
    """Both processes claim at the same moment, 20 days running: one claim per day."""
    a, b = two
    paid = 0
    for _ in range(20):
        results = await asyncio.gather(
            a.wallets.claim_daily(G, ALICE, daily_policy),
            b.wallets.claim_daily(G, ALICE, daily_policy),
            return_exceptions=True,
        )
        claims = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, DailyNotReady)]
        assert (len(claims), len(refused)) == (1, 1), results
        paid += claims[0].amount
        clock.advance(DAY)
    wallet = await a.wallets.get(G, ALICE)
    assert wallet is not None and wallet.balance == 10_000 + paid
    assert wallet.daily_streak == 20


async def test_chips_moved_from_both_sides_are_never_created_or_lost(
    two: tuple[Database, Database],
) -> None:
    """Grants, removals, buy-ins, top-ups and cash-outs of one player from two
    connections at once: the balance plus the stack is what they add up to."""
    a, b = two
    table = await a.tables.create(G, 100, MOD, {"variant": "omaha"})
    expected = 10_000

    async def grants(db: Database) -> int:
        total = 0
        for i in range(30):
            try:
                if i % 3 == 2:
                    await db.wallets.debit(G, ALICE, 700, kind=LedgerKind.REMOVE,
                                           actor_id=MOD, reason="race")
                    total -= 700
                else:
                    await db.wallets.credit(G, ALICE, 300, kind=LedgerKind.GRANT,
                                            actor_id=MOD, reason="race")
                    total += 300
            except EconomyError:
                pass
        return total

    async def seat_moves(db: Database) -> None:
        for _ in range(15):
            try:
                await db.tables.buy_in(table.id, ALICE, 1, 2_000)
                await db.tables.top_up(table.id, ALICE, 500)
                await db.tables.cash_out(table.id, ALICE)
            except EconomyError:
                pass

    moved = await asyncio.gather(grants(a), seat_moves(b), grants(b), seat_moves(a))
    expected += sum(m for m in moved if isinstance(m, int))
    wallet = await a.wallets.get(G, ALICE)
    stack = sum(s.stack for s in await b.tables.seats(table.id))
    assert wallet is not None and wallet.balance >= 0
    assert wallet.balance + stack == expected


def test_migrations_in_postgres_types() -> None:
    """The translation keeps 64-bit ids and times, and an identity for ``id``."""
    ddl = postgres_ddl(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, at REAL, b BLOB)"
        " WITHOUT ROWID;"
    )
    assert ddl == (
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        " n BIGINT NOT NULL, at DOUBLE PRECISION, b BYTEA);"
    )
    assert numbered("SELECT ? WHERE a = '?' AND b = ?") == "SELECT $1 WHERE a = '?' AND b = $2"


async def test_a_lost_connection_fails_one_write_and_the_next_reconnects(
    two: tuple[Database, Database],
) -> None:
    """The server ends b's session: b's next write fails as a StorageError and changes
    nothing; the one after runs on a new connection."""
    a, b = two
    await b.wallets.open(G, ALICE)
    pid = await b.read(lambda c: c.execute("SELECT pg_backend_pid()").fetchone()[0])
    ended = await a.read(
        lambda c: c.execute("SELECT pg_terminate_backend(?)", (pid,)).fetchone()[0]
    )
    assert ended is True
    with pytest.raises(StorageError, match="lost the connection"):
        await b.wallets.credit(G, ALICE, 50, kind=LedgerKind.GRANT, actor_id=MOD, reason="x")
    assert (await a.wallets.get(G, ALICE)).balance == 10_000  # type: ignore[union-attr]
    assert await b.wallets.credit(
        G, ALICE, 50, kind=LedgerKind.GRANT, actor_id=MOD, reason="x"
    ) == 10_050
    assert await b.read(lambda c: c.execute("SELECT pg_backend_pid()").fetchone()[0]) != pid


async def test_an_unreachable_server_is_one_clear_error(tmp_path: Path) -> None:
    """No server behind the URL: a StorageError naming it, password masked."""
    url = f"postgresql://omaha:hunter2@/omaha?host={tmp_path}&port=5999"
    masked = "cannot connect to postgresql://omaha:\\*\\*\\*@"
    with pytest.raises(StorageError, match=masked) as err:
        await Database.open(url, deck_key=os.urandom(32))
    assert "hunter2" not in str(err.value)


async def test_two_processes_migrating_at_once_apply_each_migration_once(pg_url: str) -> None:
    """Both open a fresh database at the same moment: the advisory lock lets one migrate,
    the other finds the schema done; each version is recorded once."""
    opened = await asyncio.gather(
        *(Database.open(pg_url, deck_key=os.urandom(32)) for _ in range(3))
    )
    try:
        rows = await opened[0].read(
            lambda c: c.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
        )
        assert [r[0] for r in rows] == list(range(1, len(load_migrations()) + 1))
        assert [len(await db.audit()) for db in opened] == [0, 0, 0]
    finally:
        for db in opened:
            await db.close()


SILENCE = 0.5  # the database timeout of the blackhole's cases


def backend_pid(conn: Conn) -> int:
    return int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])


@pytest.fixture
async def silent(pg_cluster: Cluster, pg_url: str) -> AsyncIterator[tuple[Blackhole, Database]]:
    """A fresh database opened through a proxy that can drop every packet, with a
    timeout of :data:`SILENCE` seconds."""
    with Blackhole(pg_cluster) as hole:
        db = await Database.open(hole.url(urlsplit(pg_url).path.lstrip("/")),
                                 deck_key=os.urandom(32), command_timeout=SILENCE)
        try:
            yield hole, db
            await assert_audit_ok(db)
        finally:
            hole.restore()
            await db.close()


async def test_a_silent_server_fails_jobs_within_the_timeout_and_is_left_for_a_new_one(
    silent: tuple[Blackhole, Database],
) -> None:
    """Every packet dropped: a write and eight reads at once all fail as "unavailable"
    within about the timeout (they do not wait for one silence each: 4.5 s), the write
    changes nothing; the network back, the outage ends by itself, on a new connection."""
    hole, db = silent
    await db.wallets.open(G, ALICE)
    pid = await db.read(backend_pid)
    hole.drop()
    started = time.monotonic()
    outcomes = await asyncio.gather(
        db.wallets.credit(G, ALICE, 50, kind=LedgerKind.GRANT, actor_id=MOD, reason="x"),
        *(db.read(backend_pid) for _ in range(8)), return_exceptions=True)
    assert time.monotonic() - started < 2.0
    assert all(isinstance(o, StorageUnavailable) for o in outcomes), outcomes
    assert any(f"did not answer within {SILENCE:g} s" in str(o) for o in outcomes), outcomes
    assert db.outage.down
    hole.restore()
    await asyncio.wait_for(db.writable(), 10)
    assert (await db.wallets.get(G, ALICE)).balance == 10_000  # type: ignore[union-attr]
    assert await db.wallets.credit(
        G, ALICE, 50, kind=LedgerKind.GRANT, actor_id=MOD, reason="x") == 10_050
    assert await db.read(backend_pid) != pid
