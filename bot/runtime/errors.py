"""Domain errors of the table runtime.

Every error carries a message a player can read; the cogs show it
ephemerally, in the reader's language, and nothing changes. A refusal is
raised with a :class:`~bot.i18n.Phrase` (a message id and its values):
``error.phrase.to(locale)`` words it, ``str(error)`` is the English. Messages
never mention hole cards or the deck order.
"""

from __future__ import annotations

from bot.i18n import Wording


class TableError(Exception):
    """A request the table refuses; ``str(error)`` is the polite explanation (English)."""

    def __init__(self, message: str | Wording) -> None:
        self.phrase = message if isinstance(message, Wording) else None
        self.message = str(message)
        super().__init__(self.message)


class TableSettingsError(TableError):
    """Table settings that do not make a playable game."""


class NoTable(TableError):
    """There is no open table where the request was made."""


class NotSeated(TableError):
    """The player is not seated at this table."""


class NotYourTurn(TableError):
    """A player tried to act when the decision is someone else's (or stale)."""


class IllegalMove(TableError):
    """The engine refused the action (amount out of range, check facing a bet...)."""


class NotAllowed(TableError):
    """The player may not do this (not the creator, not between hands...)."""


class InsufficientFunds(TableError):
    """The player's balance does not cover the buy-in or top-up."""


class StoreUnavailable(TableError):
    """The dealer cannot write now (the database's disk is full, read-only, or down):
    nothing of the request was kept; the storage port raises it. Meanwhile no clock runs
    and no hand is dealt (:mod:`bot.runtime.hearing`); the table goes on once it can."""
