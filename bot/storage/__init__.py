"""Storage: wallets and the ledger, tables, hands, statistics.

SQLite through aiosqlite (the default), or PostgreSQL through asyncpg for a
``postgresql://`` URL; what differs is listed in :mod:`.dialect`.
Open with ``db = await Database.open(path_or_url)``; repositories hang off it:
``db.wallets``, ``db.tables``, ``db.hands``, ``db.tournaments``, ``db.stats``,
``db.caps`` (a server's caps on open tables), ``db.sessions`` (a cash table's sessions:
the night's ledger), ``db.seasons``;
``await db.audit()`` proves that no chip was created or lost. Every query of
the project lives in this package; callers get dataclasses from
:mod:`bot.storage.models`.
"""

from bot.storage.db import DEFAULT_DB_NAME, Database
from bot.storage.errors import (
    BuyInOutOfRange,
    DailyNotReady,
    DeckKeyError,
    EconomyError,
    HandStateError,
    InHand,
    InsufficientChips,
    InvalidAmount,
    NoSeatRecord,
    SeatTaken,
    StorageError,
    StorageUnavailable,
    TableRecordError,
    TournamentError,
    UnknownTable,
)
from bot.storage.models import (
    MAX_AMOUNT,
    AuditLine,
    DailyClaim,
    EconomySettings,
    HandNet,
    HandRecord,
    HandSeatIn,
    HandSeatRecord,
    HandSummary,
    HoleCards,
    LeaderboardPage,
    LeaderboardRecord,
    LedgerEntry,
    LedgerKind,
    Metric,
    Period,
    PlayerPrefs,
    PlayerStats,
    Reminders,
    RevealedDeal,
    Season,
    SeatRecord,
    SeatResult,
    SessionLedger,
    SessionLine,
    TableRecord,
    Tournament,
    TournamentFinish,
    TournamentStats,
    TurnPings,
    UnfinishedHandRecord,
    Wallet,
)

__all__ = [
    "DEFAULT_DB_NAME", "MAX_AMOUNT", "AuditLine", "BuyInOutOfRange", "DailyClaim",
    "DailyNotReady", "Database", "DeckKeyError", "EconomyError", "EconomySettings",
    "HandNet", "HandRecord", "HandSeatIn", "HandSeatRecord", "HandStateError", "HandSummary",
    "HoleCards",
    "InHand",
    "InsufficientChips", "InvalidAmount", "LeaderboardPage", "LeaderboardRecord", "LedgerEntry",
    "LedgerKind", "Metric", "NoSeatRecord", "Period", "PlayerPrefs", "PlayerStats",
    "Reminders", "RevealedDeal", "Season", "SeatRecord", "SeatResult",
    "SeatTaken", "SessionLedger", "SessionLine", "StorageError", "StorageUnavailable",
    "TableRecord",
    "TableRecordError", "Tournament", "TournamentError",
    "TournamentFinish", "TournamentStats", "TurnPings",
    "UnfinishedHandRecord", "UnknownTable", "Wallet",
]
