"""Wallets and the ledger: every movement is one row, refusals change nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    InsufficientChips,
    InvalidAmount,
    LedgerKind,
)
from bot.storage.ledger import check_amount

from .helpers import FakeClock

G, ALICE, BOB, MOD = 1, 101, 102, 900


async def test_first_use_pays_the_starting_balance_as_a_ledger_row(db: Database) -> None:
    """A new player's wallet starts at 10,000 and the ledger says where it came from."""
    wallet = await db.wallets.open(G, ALICE)
    assert wallet.balance == 10_000
    history = await db.wallets.history(G, ALICE)
    assert [(e.kind, e.amount, e.src, e.dst) for e in history] == [
        (LedgerKind.START, 10_000, "mint", f"wallet:{ALICE}")
    ]
    assert (await db.wallets.open(G, ALICE)).balance == 10_000  # not paid twice


async def test_starting_balance_follows_the_server_setting(db: Database) -> None:
    """Each server sets its own starting balance; balances are per server."""
    await db.wallets.update_settings(2, starting_balance=250)
    assert (await db.wallets.open(2, ALICE)).balance == 250
    assert (await db.wallets.open(G, ALICE)).balance == 10_000


async def test_zero_starting_balance_writes_no_ledger_row(db: Database) -> None:
    """A server that starts players at 0 creates the wallet without a zero-chip transfer."""
    await db.wallets.update_settings(3, starting_balance=0)
    assert (await db.wallets.open(3, ALICE)).balance == 0
    assert await db.wallets.history(3, ALICE) == []


@pytest.mark.parametrize("amount", [0, -5, 10**15 + 1, 2.5, True, "100"])
async def test_bad_amounts_are_refused_and_change_nothing(db: Database, amount: object) -> None:
    """Zero, negative, absurd or non-integer amounts raise InvalidAmount; nothing is written."""
    await db.wallets.open(G, ALICE)
    for call in (db.wallets.credit, db.wallets.debit):
        kind = LedgerKind.GRANT if call == db.wallets.credit else LedgerKind.REMOVE
        with pytest.raises(InvalidAmount) as err:
            await call(G, ALICE, amount, kind=kind, actor_id=MOD, reason="x")  # type: ignore[arg-type]
        assert "chips" in str(err.value) or "zero" in str(err.value)
    assert (await db.wallets.open(G, ALICE)).balance == 10_000
    assert len(await db.wallets.history(G, ALICE)) == 1


async def test_removal_beyond_the_balance_is_refused(db: Database) -> None:
    """Removing more than the balance raises InsufficientChips with both figures."""
    await db.wallets.open(G, ALICE)
    with pytest.raises(InsufficientChips) as err:
        await db.wallets.debit(G, ALICE, 10_001, kind=LedgerKind.REMOVE, actor_id=MOD, reason="r")
    assert err.value.available == 10_000 and err.value.requested == 10_001
    assert "10,000 chips" in str(err.value)
    assert (await db.wallets.open(G, ALICE)).balance == 10_000


async def test_grant_and_remove_keep_actor_and_reason(db: Database) -> None:
    """A manager's grant and removal are ledger rows carrying who and why."""
    assert await db.wallets.credit(
        G, ALICE, 500, kind=LedgerKind.GRANT, actor_id=MOD, reason="tournament winner"
    ) == 10_500
    assert await db.wallets.debit(
        G, ALICE, 10_500, kind=LedgerKind.REMOVE, actor_id=MOD, reason="alt account"
    ) == 0
    newest = await db.wallets.history(G, ALICE, limit=2)
    assert [(e.kind, e.amount, e.actor_id, e.reason) for e in newest] == [
        (LedgerKind.REMOVE, 10_500, MOD, "alt account"),
        (LedgerKind.GRANT, 500, MOD, "tournament winner"),
    ]


async def test_balance_cannot_go_negative_even_through_raw_sql(db: Database) -> None:
    """The schema itself refuses a negative balance (a second line of defence)."""
    await db.wallets.open(G, ALICE)

    def corrupt(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE wallets SET balance = -1 WHERE user_id = ?", (ALICE,))

    with pytest.raises(sqlite3.IntegrityError):
        await db.write(corrupt)
    assert (await db.wallets.open(G, ALICE)).balance == 10_000


async def test_concurrent_removals_never_overdraw(db: Database) -> None:
    """Fifty concurrent removals of 300 from 10,000: exactly 33 succeed, balance 100."""
    import asyncio

    await db.wallets.open(G, ALICE)
    results = await asyncio.gather(
        *(db.wallets.debit(G, ALICE, 300, kind=LedgerKind.REMOVE, actor_id=MOD, reason="r")
          for _ in range(50)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, int) for r in results) == 33
    assert all(isinstance(r, (int, InsufficientChips)) for r in results)
    assert (await db.wallets.open(G, ALICE)).balance == 100


async def test_update_settings_validates(db: Database) -> None:
    """Settings outside their range or unknown names are refused."""
    with pytest.raises(InvalidAmount):
        await db.wallets.update_settings(G, daily_base=0)
    with pytest.raises(InvalidAmount):
        await db.wallets.update_settings(G, rake=5)
    new = await db.wallets.update_settings(G, daily_step=50, daily_max_streak=3)
    assert (new.daily_step, new.daily_max_streak, new.daily_base) == (50, 3, 1_000)
    assert await db.wallets.settings(G) == new


async def test_audit_detects_a_balance_changed_behind_the_ledger(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A chip created outside the ledger makes the audit fail and name the account."""
    db = await Database.open(tmp_path / "a.sqlite3", clock=clock)
    try:
        await db.wallets.open(G, ALICE)
        await db.wallets.open(G, BOB)

        def sneak(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE wallets SET balance = balance + 7 WHERE user_id = ?", (BOB,))

        await db.write(sneak)
        (line,) = await db.audit()
        assert not line.ok
        assert "held 20007 != granted 20000" in str(line)
        assert f"wallet:{BOB} holds 10007, its ledger says 10000" in str(line)
    finally:
        await db.close()


async def test_audit_detects_a_chip_moved_between_wallets_without_a_row(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Totals can balance while accounts do not: the per-account check catches it."""
    db = await Database.open(tmp_path / "b.sqlite3", clock=clock)
    try:
        await db.wallets.open(G, ALICE)
        await db.wallets.open(G, BOB)

        def shift(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE wallets SET balance = balance - 5 WHERE user_id = ?", (ALICE,))
            conn.execute("UPDATE wallets SET balance = balance + 5 WHERE user_id = ?", (BOB,))

        await db.write(shift)
        (line,) = await db.audit()
        assert not line.ok and "held" not in str(line).split("granted")[1]
        assert f"wallet:{ALICE}" in str(line) and f"wallet:{BOB}" in str(line)
    finally:
        await db.close()


async def test_a_retried_request_moves_chips_once(db: Database) -> None:
    """The same request id twice (a retry after a timeout) grants, removes, tops up only once."""
    assert await db.wallets.credit(G, ALICE, 300, kind=LedgerKind.GRANT, actor_id=MOD,
                                   reason="r", request_id="i-1") == 10_300
    assert await db.wallets.credit(G, ALICE, 300, kind=LedgerKind.GRANT, actor_id=MOD,
                                   reason="r", request_id="i-1") == 10_300
    assert await db.wallets.debit(G, ALICE, 100, kind=LedgerKind.REMOVE, actor_id=MOD,
                                  reason="r", request_id="i-2") == 10_200
    assert await db.wallets.debit(G, ALICE, 100, kind=LedgerKind.REMOVE, actor_id=MOD,
                                  reason="r", request_id="i-2") == 10_200
    # the same id in another server is another request
    assert await db.wallets.credit(G + 1, ALICE, 300, kind=LedgerKind.GRANT, actor_id=MOD,
                                   reason="r", request_id="i-1") == 10_300
    table = await db.tables.create(G, 42, ALICE, {})
    await db.tables.buy_in(table.id, ALICE, 1, 1_000)
    for _ in range(2):
        seat = await db.tables.top_up(table.id, ALICE, 500, request_id="i-3")
        assert seat.stack == 1_500
    assert (await db.wallets.open(G, ALICE)).balance == 8_700
    assert len(await db.wallets.history(G, ALICE, limit=50)) == 5


@pytest.mark.parametrize(
    ("amount", "what", "locale", "words"),
    [
        (0, "buy_in", "en", "The buy-in must be more than zero."),
        (1.5, "top_up", "pt-BR", "use um número inteiro de fichas"),
        (10**16, "daily_bonus", "es-ES", "1.000.000.000.000.000"),
    ],
)
def test_amount_refusals_speak_the_readers_language(
    amount: object, what: str, locale: str, words: str
) -> None:
    """An amount storage refuses says what it is and why, worded in the reader's language."""
    with pytest.raises(InvalidAmount) as refused:
        check_amount(amount, what)
    assert refused.value.phrase is not None
    assert words in refused.value.phrase.to(locale), refused.value.phrase.to(locale)
