"""Benchmark: acknowledged writes per second, PostgreSQL against SQLite, same durability.

Run: .venv/bin/python bench/bench_storage_pg.py [--tables N] [--actions N] [--transfers N]
     [--rounds N]

What it measures, plainly: the bot's own storage code (``bot.storage``, group
commit: every write waiting at a moment goes into one transaction, and each
is acknowledged after that COMMIT) on its two backends, with the same burst
of writes: ``--tables`` tables at once, each appending ``--actions`` hand
actions and making ``--transfers`` ledger transfers (grant / removal,
alternating) for its player, one after the other.

Same durability on both sides: an acknowledged write survives a power cut.

* SQLite: WAL with ``synchronous=FULL`` (what the bot uses), a file in a
  temporary folder beside this script;
* PostgreSQL: a throwaway cluster of Debian's binaries (tests/pgcluster.py)
  started with ``fsync=on`` and ``full_page_writes=on``, every session with
  ``synchronous_commit=on``, on the same disk, over a unix socket; write
  batches are ``SERIALIZABLE``;
* PostgreSQL, two connections: the same burst split over two
  :class:`Database` objects on the same database, as two bot processes
  would run it (their batches race and some are run again: counted).

The runs take turns (SQLite, PostgreSQL, PostgreSQL x2, then again) and
each side's best round is printed. Afterwards every database must hold the
same writes: each hand's actions in order, each player's balance and the
bench's ledger totals; and the chip audit must pass. Exit status 1 if not.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_storage import GUILD, _setup_storage
from bot.storage import Database, LedgerKind
from bot.storage.dialect import Conn
from tests.pgcluster import Cluster, start_cluster

Plan = list[tuple[int, int]]  # (hand id, player id) per table


async def _setup(db: Database, tables: int) -> Plan:
    """bench_storage's tables, hands and players (the same writes on both backends)."""
    return [(hand, player) for _, hand, player in await _setup_storage(db, tables)]


async def _one_table(db: Database, hand_id: int, user: int, actions: int, transfers: int) -> None:
    every = max(1, actions // max(1, transfers))
    done = 0
    for i in range(actions):
        await db.hands.append_action(hand_id, {"seat": 1 + i % 2, "kind": "call"}, seq=i)
        if i % every == every - 1 and done < transfers:
            if done % 2 == 0:
                await db.wallets.credit(GUILD, user, 5 + done, kind=LedgerKind.GRANT,
                                        actor_id=1, reason="bench")
            else:
                await db.wallets.debit(GUILD, user, 3, kind=LedgerKind.REMOVE,
                                       actor_id=1, reason="bench")
            done += 1


def _written(conn: Conn) -> tuple[Any, ...]:
    """What the burst left behind, the same whatever the backend."""
    actions = conn.execute(
        "SELECT h.number, COUNT(*), MIN(a.seq), MAX(a.seq) FROM hand_actions a"
        " JOIN hands h ON h.id = a.hand_id GROUP BY h.number ORDER BY h.number"
    ).fetchall()
    balances = conn.execute(
        "SELECT user_id, balance FROM wallets WHERE guild_id = ? ORDER BY user_id", (GUILD,)
    ).fetchall()
    ledger = conn.execute(
        "SELECT kind, COUNT(*), SUM(amount) FROM ledger WHERE reason = 'bench'"
        " GROUP BY kind ORDER BY kind"
    ).fetchall()
    return tuple(tuple(tuple(r) for r in rows) for rows in (actions, balances, ledger))


async def _run(targets: list[str], args: argparse.Namespace) -> tuple[float, tuple[Any, ...], int]:
    """The burst over ``targets`` (one Database each, tables dealt round-robin):
    acknowledged writes per second, what was written, write batches run again."""
    key = os.urandom(32)
    dbs = [await Database.open(t, deck_key=key) for t in targets]
    try:
        plan = await _setup(dbs[0], args.tables)
        start = time.perf_counter()
        await asyncio.gather(*(
            _one_table(dbs[i % len(dbs)], hand, user, args.actions, args.transfers)
            for i, (hand, user) in enumerate(plan)
        ))
        elapsed = time.perf_counter() - start
        assert all(line.ok for line in await dbs[0].audit())
        written = await dbs[0].read(_written)
        conflicts = sum(db.conflicts for db in dbs)
    finally:
        for db in dbs:
            await db.close()
    return args.tables * (args.actions + args.transfers) / elapsed, written, conflicts


def _sides(folder: Path, cluster: Cluster) -> dict[str, Callable[[int], Any]]:
    async def new_pg(n: int, copies: int) -> list[str]:
        name = await cluster.create_database()
        return [cluster.url(name)] * copies

    async def sqlite(n: int) -> list[str]:
        return [str(folder / f"s{n}.sqlite3")]

    return {
        "SQLite (WAL, synchronous=FULL)": sqlite,
        "PostgreSQL (synchronous_commit=on)": lambda n: new_pg(n, 1),
        "PostgreSQL, two connections": lambda n: new_pg(n, 2),
    }


async def _bench(args: argparse.Namespace, folder: Path, cluster: Cluster) -> int:
    best: dict[str, float] = {}
    written: dict[str, set[tuple[Any, ...]]] = {}
    conflicts: dict[str, int] = {}
    for n in range(args.rounds):
        for name, target in _sides(folder, cluster).items():
            rate, result, raced = await _run(await target(n), args)
            best[name] = max(best.get(name, 0.0), rate)
            written.setdefault(name, set()).add(result)
            conflicts[name] = conflicts.get(name, 0) + raced
    same = len({r for results in written.values() for r in results}) == 1
    ops = args.tables * (args.actions + args.transfers)
    print("acknowledged writes per second, bot.storage on both backends, same durability")
    print(f"burst: {args.tables} tables x ({args.actions} actions + {args.transfers} transfers)"
          f" = {ops} acknowledged writes; best of {args.rounds} rounds, taking turns")
    for name, rate in best.items():
        extra = f"  ({conflicts[name]} batches run again)" if "two" in name else ""
        print(f"{name:36s} {rate:10.0f} writes/s{extra}")
    sqlite = best["SQLite (WAL, synchronous=FULL)"]
    print(f"ratio PostgreSQL / SQLite: {best['PostgreSQL (synchronous_commit=on)'] / sqlite:.2f}x;"
          f" two connections / SQLite: {best['PostgreSQL, two connections'] / sqlite:.2f}x")
    print("every database holds the same writes and passes the audit:",
          "yes" if same else f"NO: {written}")
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--transfers", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    cluster = start_cluster(durable=True)
    try:
        with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as tmp:
            return asyncio.run(_bench(args, Path(tmp), cluster))
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
