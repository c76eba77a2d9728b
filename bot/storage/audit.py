"""The chip audit: proves that no chip was created, lost or counted twice.

Per server:

1. money held == money granted: the sum of balances, chips on cash tables and
   tournament prize pools equals everything that entered the economy
   (starting balances, grants, daily bonuses, adjustments) minus what left it
   (removals);
2. every account equals its ledger history: each wallet's balance, each
   seat's stack (cash and tournament chips) and each pool is the sum of the
   ledger rows into it minus those out of it;
3. every settled hand's pot nets to zero, and no running hand has moved chips.
"""

from __future__ import annotations

from collections import defaultdict

from bot.storage.dialect import Conn
from bot.storage.models import AuditLine


def run_audit(conn: Conn) -> list[AuditLine]:
    """Audit every server found in the database (one consistent snapshot)."""
    conn.execute("BEGIN")
    try:
        return _audit(conn)
    finally:
        conn.execute("COMMIT")


def _audit(conn: Conn) -> list[AuditLine]:
    flows: dict[tuple[int, str], int] = defaultdict(int)
    for guild, src, dst, total in conn.execute(
        "SELECT guild_id, src, dst, SUM(amount) FROM ledger GROUP BY guild_id, src, dst"
    ):
        flows[guild, src] -= total
        flows[guild, dst] += total

    held: dict[tuple[int, str], int] = {}
    balances: dict[int, int] = defaultdict(int)
    stacks: dict[int, int] = defaultdict(int)
    pools: dict[int, int] = defaultdict(int)
    for guild, user, balance in conn.execute("SELECT guild_id, user_id, balance FROM wallets"):
        held[guild, f"wallet:{user}"] = balance
        balances[guild] += balance
    for guild, table, user, stack, kind in conn.execute(
        "SELECT p.guild_id, s.table_id, s.user_id, s.stack, p.kind FROM seats s"
        " JOIN poker_tables p ON p.id = s.table_id"
    ):
        held[guild, f"seat:{table}:{user}"] = stack
        if kind == "cash":
            stacks[guild] += stack
    for guild, tid, pool in conn.execute("SELECT guild_id, id, pool FROM tournaments"):
        held[guild, f"pool:{tid}"] = pool
        pools[guild] += pool
    running = {
        (guild, f"hand:{hid}")
        for guild, hid in conn.execute("SELECT guild_id, id FROM hands WHERE status = 'running'")
    }

    problems: dict[int, list[str]] = defaultdict(list)
    guilds = {g for g, _ in flows} | {g for g, _ in held}
    for key in sorted(set(flows) | set(held)):
        guild, account = key
        kind = account.split(":", 1)[0]
        if kind in ("mint", "tchips"):
            continue
        expected = flows.get(key, 0)
        actual = held.get(key, 0)
        if kind == "hand":
            if key in running and expected != 0:
                problems[guild].append(f"running {account} has moved {expected} chips")
            elif expected != 0:
                problems[guild].append(f"{account} pot does not net to zero ({expected})")
            continue
        if expected != actual:
            problems[guild].append(f"{account} holds {actual}, its ledger says {expected}")

    lines = []
    for guild in sorted(guilds):
        minted = -flows.get((guild, "mint"), 0)
        total = balances[guild] + stacks[guild] + pools[guild]
        found = problems[guild]
        if total != minted:
            found.insert(0, f"held {total} != granted {minted} (difference {total - minted})")
        lines.append(AuditLine(guild, balances[guild], stacks[guild], pools[guild], minted,
                               tuple(found)))
    return lines
