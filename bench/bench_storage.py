"""Benchmark: group commit against one commit per write, in a burst of writes.

Run: .venv/bin/python bench/bench_storage.py [--tables N] [--actions N] [--transfers N]

What it measures, plainly: how much faster the bot's storage acknowledges a
burst of durable writes by committing many of them together (group commit:
one transaction and one fsync for every write waiting at that moment) than
by committing each write on its own (one transaction and one fsync per
write), which is what plain ``sqlite3`` code does. It is not a comparison of
two SQLite drivers or of two query speeds: the ratio is mostly fsyncs saved.

Work: N tables at once; each table, one operation after the other (as a real
table does under its lock), appends ``--actions`` hand actions and makes
``--transfers`` ledger transfers (grant / removal, alternating) for its
player. Every operation is acknowledged only once it is committed
(``synchronous=FULL`` in WAL mode: committed = survives a power cut).

* storage, group commit: ``bot.storage`` (aiosqlite, one writer task that
  runs the operations waiting at each moment in one transaction, a savepoint
  each, and acknowledges them after the shared COMMIT);
* storage, one commit per write: the same code with batches of one;
* sqlite3, one commit per write (the peer): the same operations with plain
  ``sqlite3`` on the same schema, one transaction (and fsync) per operation,
  in one thread with no asyncio;
* sqlite3 NORMAL, one commit per write (reference only): the same with
  ``synchronous=NORMAL``, whose commits may be lost in a power cut: a weaker
  guarantee.

Each database is fresh, in the same folder. All four must leave the same
writes behind (hand actions, per hand in order; the bench's ledger rows and
their totals): checked after the runs. The figure is operations per second
and the ratio group commit / sqlite3 one commit per write (target >= 0.5).
Exit status 1 if the databases differ or the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.storage.db
from bot.engine.cards import Deck
from bot.storage import Database, HandSeatIn, LedgerKind
from bot.storage.db import configure
from bot.storage.migrate import migrate_connection

GUILD = 1


async def _setup_storage(db: Database, tables: int) -> list[tuple[int, int, int]]:
    """Per table: (table id, hand id, player id)."""
    out = []
    for t in range(tables):
        table = await db.tables.create(GUILD, 10_000 + t, 1, {"bench": True})
        a, b = 100_000 + 2 * t, 100_001 + 2 * t
        await db.tables.buy_in(table.id, a, 1, 1_000)
        await db.tables.buy_in(table.id, b, 2, 1_000)
        hand = await db.hands.start(
            table.id, variant="omaha", settings={"bench": True}, button=1,
            seats=[HandSeatIn(1, a, 1_000), HandSeatIn(2, b, 1_000)], deck=Deck().order,
        )
        out.append((table.id, hand.id, a))
    return out


async def _storage_run(path: Path, tables: int, actions: int, transfers: int,
                       batch: int) -> tuple[float, float]:
    bot.storage.db.MAX_BATCH = batch
    db = await Database.open(path)
    try:
        plan = await _setup_storage(db, tables)
        jobs0 = db.batches

        async def one_table(hand_id: int, user: int) -> None:
            every = max(1, actions // max(1, transfers))
            done_transfers = 0
            for i in range(actions):
                await db.hands.append_action(hand_id, {"seat": 1 + i % 2, "kind": "call"}, seq=i)
                if i % every == every - 1 and done_transfers < transfers:
                    if done_transfers % 2 == 0:
                        await db.wallets.credit(GUILD, user, 5, kind=LedgerKind.GRANT,
                                                actor_id=1, reason="bench")
                    else:
                        await db.wallets.debit(GUILD, user, 5, kind=LedgerKind.REMOVE,
                                               actor_id=1, reason="bench")
                    done_transfers += 1

        start = time.perf_counter()
        await asyncio.gather(*(one_table(h, u) for _, h, u in plan))
        elapsed = time.perf_counter() - start
        batches = db.batches - jobs0
        lines = await db.audit()
        assert all(line.ok for line in lines), lines
    finally:
        await db.close()
        bot.storage.db.MAX_BATCH = 512
    ops = tables * (actions + transfers)
    return ops / elapsed, ops / max(1, batches)


def _sqlite_run(path: Path, tables: int, actions: int, transfers: int,
                synchronous: str) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    configure(conn)
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    migrate_connection(conn, time.time())
    now = time.time()
    plan = []
    conn.execute("BEGIN")
    for t in range(tables):
        cur = conn.execute(
            "INSERT INTO poker_tables (guild_id, channel_id, creator_id, settings, created_at)"
            " VALUES (?,?,?,?,?)", (GUILD, 10_000 + t, 1, "{}", now))
        table_id = cur.lastrowid
        a, b = 100_000 + 2 * t, 100_001 + 2 * t
        for user in (a, b):
            conn.execute("INSERT INTO wallets (guild_id, user_id, balance, created_at)"
                         " VALUES (?,?,?,?)", (GUILD, user, 10_000, now))
        cur = conn.execute(
            "INSERT INTO hands (guild_id, table_id, number, variant, settings, button,"
            " deck_sealed, started_at) VALUES (?,?,?,?,?,?,?,?)",
            (GUILD, table_id, 1, "omaha", "{}", 1, b"x", now))
        plan.append((cur.lastrowid, a))
    conn.execute("COMMIT")

    def append(hand_id: int, seq: int) -> None:
        conn.execute("BEGIN IMMEDIATE")
        status = conn.execute("SELECT status FROM hands WHERE id = ?", (hand_id,)).fetchone()[0]
        assert status == "running"
        nxt = conn.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?",
                           (hand_id,)).fetchone()[0]
        assert nxt == seq
        conn.execute("INSERT INTO hand_actions (hand_id, seq, at, action) VALUES (?,?,?,?)",
                     (hand_id, seq, time.time(), '{"kind":"call","seat":1}'))
        conn.execute("COMMIT")

    def transfer(user: int, amount: int) -> None:
        conn.execute("BEGIN IMMEDIATE")
        balance = conn.execute("SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?",
                               (GUILD, user)).fetchone()[0]
        assert balance + amount >= 0
        conn.execute("UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
                     (amount, GUILD, user))
        src, dst = ("mint", f"wallet:{user}") if amount > 0 else (f"wallet:{user}", "mint")
        conn.execute("INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id,"
                     " actor_id, reason) VALUES (?,?,?,?,?,?,?,?,?)",
                     (GUILD, time.time(), "grant" if amount > 0 else "remove", abs(amount),
                      src, dst, user, 1, "bench"))
        conn.execute("COMMIT")

    every = max(1, actions // max(1, transfers))
    start = time.perf_counter()
    # Interleave the tables round-robin, as the concurrent burst does.
    done = [0] * len(plan)
    for i in range(actions):
        for k, (hand_id, user) in enumerate(plan):
            append(hand_id, i)
            if i % every == every - 1 and done[k] < transfers:
                transfer(user, 5 if done[k] % 2 == 0 else -5)
                done[k] += 1
    elapsed = time.perf_counter() - start
    conn.close()
    return tables * (actions + transfers) / elapsed


def written(path: Path) -> tuple[object, ...]:
    """What the burst left behind: hand actions per hand in order, and the bench's ledger."""
    conn = sqlite3.connect(path)
    try:
        actions = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT hand_id), SUM(seq), MIN(seq), MAX(seq)"
            " FROM hand_actions").fetchone()
        gaps = conn.execute(
            "SELECT COUNT(*) FROM (SELECT hand_id FROM hand_actions GROUP BY hand_id"
            " HAVING COUNT(*) <> MAX(seq) + 1)").fetchone()
        ledger = conn.execute(
            "SELECT kind, COUNT(*), SUM(amount), COUNT(DISTINCT user_id) FROM ledger"
            " WHERE reason = 'bench' GROUP BY kind ORDER BY kind").fetchall()
    finally:
        conn.close()
    return tuple(actions), tuple(gaps), tuple(map(tuple, ledger))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--transfers", type=int, default=6)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as tmp:
        folder = Path(tmp)
        ours, per_batch = asyncio.run(_storage_run(folder / "s.sqlite3", args.tables,
                                                   args.actions, args.transfers, 512))
        single, _ = asyncio.run(_storage_run(folder / "s1.sqlite3", args.tables,
                                             args.actions, args.transfers, 1))
        peer = _sqlite_run(folder / "p.sqlite3", args.tables, args.actions, args.transfers,
                           "FULL")
        normal = _sqlite_run(folder / "n.sqlite3", args.tables, args.actions, args.transfers,
                             "NORMAL")
        results = {name: written(folder / name) for name in
                   ("s.sqlite3", "s1.sqlite3", "p.sqlite3", "n.sqlite3")}
    same = len(set(results.values())) == 1
    ops = args.tables * (args.actions + args.transfers)
    print("group commit against one commit per write (every write durable before it is"
          " acknowledged)")
    print(f"burst: {args.tables} tables x ({args.actions} actions + {args.transfers} transfers)"
          f" = {ops} acknowledged writes")
    print(f"storage, group commit             {ours:10.0f} ops/s  ({per_batch:.0f} writes per"
          " commit)")
    print(f"storage, one commit per write     {single:10.0f} ops/s")
    print(f"sqlite3, one commit per write     {peer:10.0f} ops/s  (the peer)")
    print(f"sqlite3 NORMAL, one commit/write  {normal:10.0f} ops/s  (weaker durability,"
          " reference only)")
    print(f"ratio group commit / sqlite3 one commit per write: {ours / peer:.2f}x"
          " (target >= 0.5x)")
    print(f"ratio group commit / one commit per write, same storage code: {ours / single:.2f}x")
    print(f"ratio group commit / sqlite3 NORMAL: {ours / normal:.2f}x")
    print("the four databases hold the same writes:", "yes" if same else f"NO: {results}")
    return 0 if same and ours / peer >= 0.5 else 1

if __name__ == "__main__":
    sys.exit(main())
