"""What a table tells its observer: one frozen dataclass per kind of news.

The table queues these in its :class:`~bot.runtime.table.outbox.Outbox` while it
holds its lock; the observer (the Discord presenter) receives them in order
through :meth:`bot.runtime.ports.TableObserver.observe`. Each carries the
:class:`~bot.runtime.table.views.TableSnapshot` taken when it happened. Only
:class:`CardsDealt` holds hidden cards, for its one player, and keeps them out
of its ``repr`` so they never reach a log line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.events import Street
from bot.i18n import Wording
from bot.runtime.table.views import (
    ActionView,
    HandResultView,
    PrivateCards,
    TableSnapshot,
    TurnView,
)

__all__ = [
    "ActionTaken",
    "ButtonDrawn",
    "CardsDealt",
    "HandBegan",
    "HandSettled",
    "Notice",
    "RunTwiceAsked",
    "StreetDealt",
    "TableClosed",
    "TableEvent",
    "TournamentOver",
    "TurnBegan",
    "TurnReminder",
]


@dataclass(frozen=True)
class ButtonDrawn:
    """The button was drawn for (one card each, the highest wins; RULES.md 3)."""

    table: TableSnapshot
    cards: Mapping[int, Card]
    button: int


@dataclass(frozen=True)
class HandBegan:
    """Blinds and antes are in and the cards are dealt."""

    table: TableSnapshot


@dataclass(frozen=True)
class CardsDealt:
    """Private: ``user_id``'s own cards; nobody else may see them."""

    table: TableSnapshot
    user_id: int
    cards: PrivateCards = field(repr=False)


@dataclass(frozen=True)
class StreetDealt:
    """Board cards were dealt: ``board`` is the board as of ``street``.

    ``run_out``: dealt with no betting left (every live hand is all-in but at
    most one, RULES.md 6): the hands are face up, and one action may deal
    several streets at once, each told separately so they can be shown in turn.
    The snapshot is the table after the action that dealt them. ``run`` 1: a
    street of the second board of a hand run twice (``board`` is that board).
    """

    table: TableSnapshot
    street: Street
    board: tuple[Card, ...] = ()
    run_out: bool = False
    run: int = 0


@dataclass(frozen=True)
class TurnBegan:
    table: TableSnapshot
    turn: TurnView


@dataclass(frozen=True)
class RunTwiceAsked:
    """The players of an all-in run-out are asked whether to run the board twice
    (:mod:`bot.runtime.table.run_twice`): ``token`` goes on the buttons, ``users`` are the
    players asked (seat -> user id), ``clock`` their seconds to answer."""

    table: TableSnapshot
    token: str
    users: dict[int, int]
    clock: float


@dataclass(frozen=True)
class TurnReminder:
    table: TableSnapshot
    turn: TurnView
    seconds_left: int


@dataclass(frozen=True)
class ActionTaken:
    table: TableSnapshot
    action: ActionView


@dataclass(frozen=True)
class HandSettled:
    table: TableSnapshot
    result: HandResultView


@dataclass(frozen=True)
class Notice:
    """A public message (``user_id`` None) or one for a single player.

    ``transient``: only true for a moment (e.g. a player using their time
    bank); the presenter may show it beside the turn and drop it afterwards.
    ``pings``: the users a public notice's mentions notify (a player moved to this table).
    ``logged``: a line of the hand (a run-it-twice answer): the presenter shows it with
    the hand's actions, on the hand's own message, rather than as a message of its own.
    """

    table: TableSnapshot
    text: str
    user_id: int | None = None
    transient: bool = False
    #: The notice not yet worded (``text`` is its English): the presenter words it in
    #: the table's language, or the player's for a notice to one player.
    phrase: Wording | None = None
    pings: tuple[int, ...] = ()
    logged: bool = False


@dataclass(frozen=True)
class TableClosed:
    """The table is closed; ``returned``: user id -> chips sent back to the balance."""

    table: TableSnapshot
    returned: Mapping[int, int]


@dataclass(frozen=True)
class TournamentOver:
    """A sit-and-go has ended (won, or cancelled after its start): every entrant's
    ``(place or None, user id, prize)``, best first, for the results picture."""

    table: TableSnapshot
    tournament_id: int
    game: str  # "Pot Limit Omaha"
    pool: int
    places: tuple[tuple[int | None, int, int], ...]
    cancelled: bool = False


TableEvent = (
    ButtonDrawn
    | HandBegan
    | CardsDealt
    | StreetDealt
    | TurnBegan
    | RunTwiceAsked
    | TurnReminder
    | ActionTaken
    | HandSettled
    | Notice
    | TableClosed
    | TournamentOver
)
