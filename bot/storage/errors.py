"""Errors raised by the storage layer and the economy.

Every :class:`EconomyError` carries a message a player can read as it is
("You have 120 chips; you cannot buy in for 500."). Nothing is changed when
one is raised: the transaction that detected it is rolled back.

Refusals are raised with a :class:`~bot.i18n.Phrase` (message id and values) that
the cogs word in the reader's language (``error.phrase``); ``str(error)`` is the
English. Messages never contain hole cards or deck order.
"""

from __future__ import annotations

from bot.i18n import Phrase, Wording


class StorageError(Exception):
    """Something is wrong with the database itself (unreadable, wrong key, ...)."""


class StorageUnavailable(StorageError):
    """The database cannot be written (or reached) now: a full disk, a read-only file
    system, an I/O error, PostgreSQL down (:mod:`.outage`). Nothing of the request was
    kept; it may be made again once the database is back. ``phrase`` is what the player
    reads ("The dealer cannot write right now; your action was not taken...")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.phrase = Phrase("error.cannot_write")


class DeckKeyError(StorageError):
    """A sealed deck could not be opened: wrong key or tampered data."""


class EconomyError(Exception):
    """A request about chips that was refused; ``str(error)`` is player-readable."""

    def __init__(self, message: str | Wording = "", *args: object) -> None:
        self.phrase = message if isinstance(message, Wording) else None
        super().__init__(str(message), *args)


class InvalidAmount(EconomyError):
    """Zero, negative, non-integer or absurd amounts."""


class InsufficientChips(EconomyError):
    """The balance (or stack, or pool) is smaller than the amount asked for."""

    def __init__(self, message: str | Wording, *, available: int, requested: int) -> None:
        super().__init__(message)
        self.available = available
        self.requested = requested


class DailyNotReady(EconomyError):
    """The daily bonus was already claimed in the last 24 hours."""

    def __init__(self, message: str | Wording, *, next_at: float) -> None:
        super().__init__(message)
        self.next_at = next_at


class TableRecordError(EconomyError):
    """A table or seat request that does not fit the table's state."""


class SeatTaken(TableRecordError):
    """The seat is occupied, or the player already sits at the table."""


class NoSeatRecord(TableRecordError):
    """The player has no seat at this table."""


class InHand(TableRecordError):
    """The player is in the hand being played; the request must wait for its end."""


class BuyInOutOfRange(TableRecordError):
    """A buy-in or top-up outside the table's minimum and maximum."""


class UnknownTable(TableRecordError):
    """No open table with that id or channel."""


class HandStateError(StorageError):
    """A hand operation that does not fit the hand's state (already finished, ...)."""


class TournamentError(EconomyError):
    """A tournament request that does not fit the tournament's state."""


class WriteConflict(StorageError):
    """PostgreSQL refused a transaction that raced another (SQLSTATE 40001 or 40P01).

    The write batch is rolled back and run again; callers see it only when
    every retry failed.
    """
