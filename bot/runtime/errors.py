"""Domain errors of the table runtime.

Every error carries a message a player can read; the cogs show it
ephemerally and nothing changes. Messages never mention hole cards or the
deck order.
"""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; ``str(error)`` is the polite explanation."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SettingsError(TableError):
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
