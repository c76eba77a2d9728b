"""``python -m bot migrate-to postgresql://...``: a SQLite database copied into PostgreSQL."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.engine.cards import Card, Deck
from bot.storage import (
    Database,
    HandSeatIn,
    HandSummary,
    LedgerKind,
    Metric,
    SeatResult,
    TurnPings,
)
from bot.storage.cash_nights import CashNightRepo
from bot.storage.cli import main
from bot.storage.transfer import TABLES

from .helpers import FakeClock, read_elsewhere

G, A, B, C = 3, 31, 32, 33


async def _played(path: Path, clock: FakeClock) -> tuple[Card, ...]:
    """A database with a row in every table: the server's settings and table caps, grants,
    a daily bonus, a cash table with a settled hand and a running one (whose deck is
    returned), a player who left another cash table with chips (the return rule), a paid
    sit-and-go and one still registering, a player's notification choices, a second session
    at the cash table, a server's season and its time zone."""
    db = await Database.open(path, clock=clock)
    try:
        await db.wallets.update_settings(G, starting_balance=5_000)
        await db.caps.set(G, 4, None)
        await db.wallets.credit(G, A, 700, kind=LedgerKind.GRANT, actor_id=B, reason="gift")
        await db.wallets.claim_daily(G, B, lambda s, last, streak, now: (100, 1, now + 1))
        table = await db.tables.create(G, 10, A, {"variant": "omaha"})
        for user, seat in ((A, 1), (B, 2)):
            await db.tables.buy_in(table.id, user, seat, 1_000)
        seats = [HandSeatIn(1, A, 1_000), HandSeatIn(2, B, 1_000)]
        hand = await db.hands.start(table.id, variant="omaha", settings={}, button=1,
                                    seats=seats, deck=Deck().order)
        await db.hands.append_action(hand.id, {"seat": 1, "action": "raise"})
        await db.hands.finish(hand.id, HandSummary("omaha", (
            SeatResult(1, A, won=400, net=200, vpip=True, showdown=True, won_showdown=True),
            SeatResult(2, B, won=0, net=-200, vpip=True, showdown=True),
        )), {"board": "x"})
        deck = Deck().order
        await db.hands.start(table.id, variant="omaha", settings={}, button=2,
                             seats=[HandSeatIn(1, A, 1_200), HandSeatIn(2, B, 800)], deck=deck)
        await db.sessions.begin(table.id, A)
        await db.seasons.start(G, "Spring", A)
        other = await db.tables.create(G, 13, C, {"variant": "omaha"})
        await db.tables.buy_in(other.id, C, 1, 500)
        await db.tables.cash_out(other.id, C)
        t = await db.tournaments.create(G, 11, A, buy_in=100, starting_stack=1_500,
                                        settings={"variant": "omaha"})
        for user in (A, B, C):
            await db.tournaments.enter(t.id, user)
        ttable = await db.tables.create(G, 11, A, {"t": 1}, tournament_id=t.id)
        await db.tournaments.start(t.id, ttable.id, {A: 1, B: 2, C: 3})
        await db.tournaments.finish(t.id, {A: 1, B: 2, C: 3}, {A: 300})
        waiting = await db.tournaments.create(G, 12, B, buy_in=50, starting_stack=1_000,
                                              settings={"variant": "omaha"})
        await db.tournaments.enter(waiting.id, C)
        await db.state.put("commands:global", "0" * 64)
        await db.prefs.set(G, A, turn_pings=TurnPings.LOW)
        await db.timezones.set(G, "Europe/Rome")
        await CashNightRepo(db).create(guild_id=G, channel_id=13, creator_id=A,
                                       starts_at=1.0e9, weekly=None, about="", language="en")
    finally:
        await db.close()
    return deck


async def test_migrate_to_copies_every_row_and_audits_both_sides(
    tmp_path: Path, pg_url: str, clock: FakeClock, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every table arrives with the same rows; the bot then goes on on PostgreSQL
    (new ids after the copied ones); a second copy into the now full database is
    refused and changes nothing."""
    path = tmp_path / "bot.sqlite3"
    deck = await _played(path, clock)
    source = await Database.open(path, deck_key=os.urandom(32), migrate=False)
    try:
        before = {t: await read_elsewhere(source, f"SELECT * FROM {t} ORDER BY 1, 2")
                  for t in TABLES}
    finally:
        await source.close()
    assert all(before.values()), [t for t, rows in before.items() if not rows]

    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert await _run_cli(["migrate-to", pg_url]) == 0
    line = capsys.readouterr().out.strip()
    assert line.endswith("audit OK on both sides") and "\n" not in line
    assert f"copied {sum(len(r) for r in before.values())} rows" in line

    target = await Database.open(pg_url, clock=clock, key_path=str(path) + ".key")
    try:
        for table, rows in before.items():
            after = await read_elsewhere(target, f"SELECT * FROM {table} ORDER BY 1, 2")
            assert after == rows, table
        page = await target.stats.leaderboard(G, Metric.NET_WON)
        assert [(r.user_id, r.value) for r in page.rows] == [(A, 200), (B, -200)]
        ledger_ids = [r[0] for r in before["ledger"]]
        await target.wallets.credit(G, C, 5, kind=LedgerKind.GRANT, actor_id=A, reason="more")
        newest = (await target.wallets.history(G, C, limit=1))[0]
        assert newest.id == max(ledger_ids) + 1
        running = await target.hands.list_unfinished()
        assert len(running) == 1  # the running hand, its sealed deck opened with the key:
        assert (await target.hands.load_unfinished(running[0].id)).deck == deck
        assert all(line.ok for line in await target.audit())
    finally:
        await target.close()

    assert await _run_cli(["migrate-to", pg_url, "--db", str(path)]) == 2
    assert "is not empty" in capsys.readouterr().err


async def _run_cli(argv: list[str]) -> int:
    """The command in a thread: it runs its own event loop, as from a shell."""
    return await asyncio.to_thread(main, argv)


def test_migrate_to_refuses_a_target_that_is_not_postgresql(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.sqlite3"
    assert main(["migrate", "--db", str(path)]) == 0
    assert main(["migrate-to", "mysql://db/x", "--db", str(path)]) == 2
    assert "postgresql://" in capsys.readouterr().err
