"""Wallets, the ledger and economy settings.

The module-level functions run inside a write job (a transaction on the
database thread) and are composed by every repository that moves chips:
each transfer changes the balances it touches and writes its one ledger row
in the same transaction, or raises and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.i18n import Option, Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import InsufficientChips, InvalidAmount
from bot.storage.models import (
    MAX_AMOUNT,
    MAX_BALANCE,
    DailyClaim,
    EconomySettings,
    LedgerEntry,
    LedgerKind,
    Wallet,
)

if TYPE_CHECKING:
    from bot.storage.db import Database

MINT = "mint"

#: ``policy(settings, last_at, streak, now) -> (amount, new_streak, next_at)``;
#: raises :class:`DailyNotReady` when it is too early.
DailyPolicy = Callable[[EconomySettings, float | None, int, float], tuple[int, int, float]]


def chips(n: int) -> str:
    """``12,345 chips`` (``1 chip``)."""
    return f"{n:,} chip" + ("" if n == 1 else "s")


#: What a debit is for (``debit_wallet``'s ``doing``): the refusal's message.
_DOING = {"remove": "remove", "buy in for": "buy_in", "top up with": "top_up",
          "pay a buy-in of": "tournament"}


def check_amount(amount: object, what: str = "amount") -> int:
    """The amount as an int, or :class:`InvalidAmount` with a readable reason; ``what``
    names it (``amount``, ``buy_in``, ``top_up``, ``daily_bonus``, ``starting_stack``:
    the catalogs' ``what.*``)."""
    noun = Phrase(f"what.{what}")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(Phrase("refuse.amount_whole", what=noun))
    if amount <= 0:
        raise InvalidAmount(Phrase("refuse.amount_zero", what=noun))
    if amount > MAX_AMOUNT:
        raise InvalidAmount(Phrase("refuse.amount_too_large", what=noun, max=MAX_AMOUNT))
    return amount


def wallet_account(user_id: int) -> str:
    return f"wallet:{user_id}"


def seat_account(table_id: int, user_id: int) -> str:
    return f"seat:{table_id}:{user_id}"


def pool_account(tournament_id: int) -> str:
    return f"pool:{tournament_id}"


def hand_account(hand_id: int) -> str:
    return f"hand:{hand_id}"


def tchips_account(tournament_id: int) -> str:
    return f"tchips:{tournament_id}"


def record(
    conn: Conn,
    guild_id: int,
    kind: LedgerKind,
    amount: int,
    src: str,
    dst: str,
    at: float,
    *,
    user_id: int | None = None,
    actor_id: int | None = None,
    table_id: int | None = None,
    hand_id: int | None = None,
    tournament_id: int | None = None,
    reason: str | None = None,
    request_id: str | None = None,
) -> int:
    """Write one ledger row (the caller changes the balances in the same job)."""
    cur = conn.execute(
        "INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id, actor_id,"
        " table_id, hand_id, tournament_id, reason, request_id)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
        (guild_id, at, str(kind), amount, src, dst, user_id, actor_id, table_id, hand_id,
         tournament_id, reason, request_id),
    )
    return int(cur.fetchone()[0])


def load_settings(conn: Conn, guild_id: int) -> EconomySettings:
    row = conn.execute(
        "SELECT starting_balance, daily_base, daily_step, daily_max_streak"
        " FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    ).fetchone()
    if row is None:
        return EconomySettings(guild_id)
    return EconomySettings(guild_id, row[0], row[1], row[2], row[3])


def _wallet(row: Any) -> Wallet:
    return Wallet(row[0], row[1], row[2], row[3], row[4], row[5])


_WALLET_COLS = "guild_id, user_id, balance, daily_last_at, daily_streak, created_at"


def get_wallet(conn: Conn, guild_id: int, user_id: int) -> Wallet | None:
    row = conn.execute(
        f"SELECT {_WALLET_COLS} FROM wallets WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    ).fetchone()
    return None if row is None else _wallet(row)


def ensure_wallet(conn: Conn, guild_id: int, user_id: int, now: float) -> Wallet:
    """The wallet, created on first use with the server's starting balance (a ledger grant)."""
    found = get_wallet(conn, guild_id, user_id)
    if found is not None:
        return found
    start = load_settings(conn, guild_id).starting_balance
    conn.execute(
        "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
        (guild_id, user_id, start, now),
    )
    if start > 0:
        record(conn, guild_id, LedgerKind.START, start, MINT, wallet_account(user_id), now,
               user_id=user_id, reason="starting balance")
    return Wallet(guild_id, user_id, start, None, 0, now)


def debit_wallet(
    conn: Conn, guild_id: int, user_id: int, amount: int, now: float, *, doing: str
) -> int:
    """Take ``amount`` from the balance (refused if short); returns the new balance."""
    wallet = ensure_wallet(conn, guild_id, user_id, now)
    if wallet.balance < amount:
        raise InsufficientChips(
            Phrase(f"refuse.short.{_DOING[doing]}",
                   have=Phrase("chips.count", count=wallet.balance),
                   amount=Phrase("chips.count", count=amount)),
            available=wallet.balance,
            requested=amount,
        )
    conn.execute(
        "UPDATE wallets SET balance = balance - ? WHERE guild_id = ? AND user_id = ?",
        (amount, guild_id, user_id),
    )
    return wallet.balance - amount


def credit_wallet(
    conn: Conn, guild_id: int, user_id: int, amount: int, now: float
) -> int:
    wallet = ensure_wallet(conn, guild_id, user_id, now)
    if wallet.balance + amount > MAX_BALANCE:
        raise InvalidAmount(Phrase("refuse.balance_too_large"))
    conn.execute(
        "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
        (amount, guild_id, user_id),
    )
    return wallet.balance + amount


def already_done(conn: Conn, guild_id: int, request_id: str | None) -> bool:
    """Whether a transfer with this request id was already recorded (a retried request)."""
    if request_id is None:
        return False
    return (
        conn.execute(
            "SELECT 1 FROM ledger WHERE guild_id = ? AND request_id = ?", (guild_id, request_id)
        ).fetchone()
        is not None
    )


def _entry(row: Any) -> LedgerEntry:
    return LedgerEntry(row[0], row[1], row[2], LedgerKind(row[3]), row[4], row[5], row[6],
                       row[7], row[8], row[9], row[10], row[11], row[12])


_LEDGER_COLS = (
    "id, guild_id, at, kind, amount, src, dst, user_id, actor_id, table_id, hand_id,"
    " tournament_id, reason"
)


class WalletRepo:
    """Balances, grants and removals, the daily bonus, economy settings, history."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def settings(self, guild_id: int) -> EconomySettings:
        return await self._db.read(lambda c: load_settings(c, guild_id))

    async def update_settings(self, guild_id: int, **changes: int) -> EconomySettings:
        """Change ``starting_balance``, ``daily_base``, ``daily_step``, ``daily_max_streak``."""
        allowed = {"starting_balance", "daily_base", "daily_step", "daily_max_streak"}
        unknown = set(changes) - allowed
        if unknown:
            raise InvalidAmount(Phrase("refuse.setting_unknown", names=", ".join(sorted(unknown))))
        for name, value in changes.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidAmount(Phrase("refuse.setting_whole", name=Option(name)))
            low = 1 if name in ("daily_base", "daily_max_streak") else 0
            high = 3650 if name == "daily_max_streak" else MAX_AMOUNT
            if not low <= value <= high:
                raise InvalidAmount(
                    Phrase("refuse.setting_range", name=Option(name), low=low, high=high))
        now = self._db.clock()

        def job(conn: Conn) -> EconomySettings:
            new = replace(load_settings(conn, guild_id), **changes)
            conn.execute(
                "INSERT INTO guild_settings (guild_id, starting_balance, daily_base, daily_step,"
                " daily_max_streak, updated_at) VALUES (?,?,?,?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " starting_balance = excluded.starting_balance,"
                " daily_base = excluded.daily_base, daily_step = excluded.daily_step,"
                " daily_max_streak = excluded.daily_max_streak, updated_at = excluded.updated_at",
                (guild_id, new.starting_balance, new.daily_base, new.daily_step,
                 new.daily_max_streak, now),
            )
            return new

        return await self._db.write(job)

    async def get(self, guild_id: int, user_id: int) -> Wallet | None:
        """The wallet if the player has one (no starting grant)."""
        return await self._db.read(lambda c: get_wallet(c, guild_id, user_id))

    async def open(self, guild_id: int, user_id: int) -> Wallet:
        """The wallet, created with the starting balance on first use."""
        found = await self.get(guild_id, user_id)
        if found is not None:
            return found
        now = self._db.clock()
        return await self._db.write(lambda c: ensure_wallet(c, guild_id, user_id, now))

    async def credit(
        self, guild_id: int, user_id: int, amount: int, *, kind: LedgerKind,
        actor_id: int | None, reason: str | None, request_id: str | None = None,
    ) -> int:
        """Chips entering the economy (grant, adjustment); returns the new balance.

        ``request_id``: a retried request with the same id changes nothing
        and returns the current balance.
        """
        check_amount(amount)
        if kind not in (LedgerKind.GRANT, LedgerKind.ADJUST):
            raise ValueError(f"credit() does not take {kind}")
        now = self._db.clock()

        def job(conn: Conn) -> int:
            if already_done(conn, guild_id, request_id):
                return ensure_wallet(conn, guild_id, user_id, now).balance
            balance = credit_wallet(conn, guild_id, user_id, amount, now)
            record(conn, guild_id, kind, amount, MINT, wallet_account(user_id), now,
                   user_id=user_id, actor_id=actor_id, reason=reason, request_id=request_id)
            return balance

        return await self._db.write(job)

    async def debit(
        self, guild_id: int, user_id: int, amount: int, *, kind: LedgerKind,
        actor_id: int | None, reason: str | None, request_id: str | None = None,
    ) -> int:
        """Chips leaving the economy (removal, adjustment); refused beyond the balance.

        ``request_id`` as for :meth:`credit`.
        """
        check_amount(amount)
        if kind not in (LedgerKind.REMOVE, LedgerKind.ADJUST):
            raise ValueError(f"debit() does not take {kind}")
        now = self._db.clock()

        def job(conn: Conn) -> int:
            if already_done(conn, guild_id, request_id):
                return ensure_wallet(conn, guild_id, user_id, now).balance
            balance = debit_wallet(conn, guild_id, user_id, amount, now, doing="remove")
            record(conn, guild_id, kind, amount, wallet_account(user_id), MINT, now,
                   user_id=user_id, actor_id=actor_id, reason=reason, request_id=request_id)
            return balance

        return await self._db.write(job)

    async def claim_daily(self, guild_id: int, user_id: int, policy: DailyPolicy) -> DailyClaim:
        """Pay the daily bonus that ``policy`` computes, atomically with the streak update."""
        now = self._db.clock()

        def job(conn: Conn) -> DailyClaim:
            wallet = ensure_wallet(conn, guild_id, user_id, now)
            settings = load_settings(conn, guild_id)
            amount, streak, next_at = policy(
                settings, wallet.daily_last_at, wallet.daily_streak, now
            )
            check_amount(amount, "daily_bonus")
            credit_wallet(conn, guild_id, user_id, amount, now)  # MAX_BALANCE, as any credit
            conn.execute(
                "UPDATE wallets SET daily_last_at = ?, daily_streak = ?"
                " WHERE guild_id = ? AND user_id = ?",
                (now, streak, guild_id, user_id),
            )
            record(conn, guild_id, LedgerKind.DAILY, amount, MINT, wallet_account(user_id), now,
                   user_id=user_id, reason=f"daily bonus, streak {streak}")
            return DailyClaim(amount, streak, wallet.balance + amount, next_at)

        return await self._db.write(job)

    async def history(
        self, guild_id: int, user_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[LedgerEntry]:
        """The player's ledger rows, newest first."""
        limit = max(1, min(int(limit), 500))

        def q(conn: Conn) -> list[LedgerEntry]:
            rows = conn.execute(
                f"SELECT {_LEDGER_COLS} FROM ledger WHERE guild_id = ? AND user_id = ?"
                " AND id < ? ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, before_id if before_id is not None else 2**62, limit),
            ).fetchall()
            return [_entry(r) for r in rows]

        return await self._db.read(q)
