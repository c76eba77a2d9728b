"""What a table tells its observer: one frozen dataclass per kind of news.

The table queues these in its :class:`~bot.runtime.table.outbox.Outbox` while it
holds its lock; the observer (the Discord presenter) receives them in order
through :meth:`bot.runtime.ports.TableObserver.observe`. Each carries the
:class:`~bot.runtime.table.views.TableSnapshot` taken when it happened. Only
:class:`CardsDealt` holds hidden cards, for its one player, and keeps them out
of its ``repr`` so they never reach a log line.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.events import Street
from bot.i18n import Phrase, Wording
from bot.runtime.clock import Clock
from bot.runtime.errors import NotAllowed
from bot.runtime.mix import Game
from bot.runtime.table.views import (
    ActionView,
    HandResultView,
    PrivateCards,
    TableSnapshot,
    TurnView,
    Way,
)

__all__ = [
    "ActionTaken",
    "ButtonDrawn",
    "CardsDealt",
    "CardsShownAfter",
    "DeckCommitted",
    "GameAsked",
    "GameChoice",
    "HandBegan",
    "HandSettled",
    "Notice",
    "RabbitHunted",
    "Receipt",
    "RunTwiceAsked",
    "StreetDealt",
    "TableClosed",
    "TableEvent",
    "TimeBankStarted",
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


class Receipt:
    """Whether a :class:`DeckCommitted` message reached the channel: the observer calls
    :meth:`posted` with the message's id (and where it is, when not in the table's
    channel: its commitment thread), or :meth:`failed`; the table waits for either
    (:meth:`wait`) before any card is seen. Only the first answer counts. An observer
    that :meth:`took` the message answers for sure (posted, or failed when it cannot):
    the table waits for it past its wait rather than give up a message on its way."""

    def __init__(self) -> None:
        self._answer: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._taken = False
        #: Where the message was posted: a thread's id (None: the table's channel).
        self.channel_id: int | None = None

    def posted(self, message_id: int, channel_id: int | None = None) -> None:
        if not self._answer.done():
            self.channel_id = channel_id
            self._answer.set_result(message_id)

    def failed(self) -> None:
        if not self._answer.done():
            self._answer.set_result(None)

    def took(self) -> None:
        """The observer has the message queued or on its way, and will answer."""
        self._taken = True

    @property
    def pending(self) -> bool:
        """Nobody answered yet (and the table still waits): the message may still go."""
        return not self._answer.done()

    async def wait(self, seconds: float) -> int | None:
        """The posted message's id, or None when it failed or, unless it was taken, took
        longer than ``seconds`` (then it is not sent any more: :attr:`pending` turns
        False)."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._answer), seconds)
        except TimeoutError:
            if self._taken:
                return await self._answer
            self.failed()
            return None


@dataclass(frozen=True)
class DeckCommitted:
    """Hand ``hand_no``'s deck is shuffled and committed to (``root``, RULES.md and
    :mod:`bot.engine.commitment`): the root must be public before any card is dealt.
    The table waits on ``receipt`` and deals only once the message is posted."""

    table: TableSnapshot
    hand_no: int
    root: str
    receipt: Receipt = field(repr=False, compare=False)


class GameChoice:
    """The dealer's-choice question to ``user_id``: which of ``games`` the next hand deals.
    Only the first answer counts, and none after the wait is over."""

    def __init__(self, user_id: int, games: tuple[Game, ...]) -> None:
        self.user_id = user_id
        self.games = games
        self.token = secrets.token_hex(4)
        self._answer: asyncio.Future[Game | None] = asyncio.get_running_loop().create_future()

    @property
    def open(self) -> bool:
        return not self._answer.done()

    def answer(self, user_id: int, index: int) -> Game:
        """``user_id`` picks game ``index`` of the list; refused politely when it is not
        their question, the wait is over, or no such game is offered."""
        if user_id != self.user_id:
            raise NotAllowed(Phrase("refuse.choice.not_yours"))
        if not self.open:
            raise NotAllowed(Phrase("refuse.choice.over"))
        if not 0 <= index < len(self.games):
            raise NotAllowed(Phrase("refuse.choice.over"))
        game = self.games[index]
        self._answer.set_result(game)
        return game

    async def wait(self, clock: Clock, seconds: float) -> Game | None:
        """The game picked, or None when ``seconds`` pass first (then no answer counts)."""
        try:
            await clock.wait_for(self._answer, seconds)
        finally:
            if not self._answer.done():
                self._answer.set_result(None)
        return self._answer.result()


@dataclass(frozen=True)
class GameAsked:
    """Dealer's choice (RULES.md 11): the player on the button is asked, privately, which
    game of the list the next hand deals; ``choice`` takes their answer
    (:class:`~bot.runtime.table.choosing.GameChoice`) within ``seconds``."""

    table: TableSnapshot
    choice: GameChoice = field(compare=False)
    seconds: float


@dataclass(frozen=True)
class HandBegan:
    """Blinds and antes are in and the cards are dealt. ``resumed``: a hand taken up again
    after a restart, its bets since the blinds already in (``committed`` is no longer what
    was posted)."""

    table: TableSnapshot
    resumed: bool = False


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
    players asked (seat -> user id), ``clock`` their seconds to answer; ``waited``: asked
    again once the dealer hears the table (RULES.md 8), with the time left: why the clock
    waited (``bot.runtime.hearing.GATEWAY`` or ``STORAGE``; "" when it did not)."""

    table: TableSnapshot
    token: str
    users: dict[int, int]
    clock: float
    waited: str = ""


@dataclass(frozen=True)
class TurnReminder:
    table: TableSnapshot
    turn: TurnView
    seconds_left: int


@dataclass(frozen=True)
class TimeBankStarted:
    """The player to act ran out of their decision clock: ``seconds`` of time bank now
    run (RULES.md 8), so the turn's deadline moves to the bank's end."""

    table: TableSnapshot
    turn: TurnView
    seconds: float


@dataclass(frozen=True)
class ActionTaken:
    table: TableSnapshot
    action: ActionView


async def _nobody_listens() -> None:
    """A result nobody keeps track of (a table without a store to tell)."""


@dataclass(frozen=True)
class HandSettled:
    table: TableSnapshot
    result: HandResultView
    #: The observer calls it once Discord confirmed the result in the table's channel: the
    #: store then knows it was posted, so a restart does not post it again (issue 33,
    #: :mod:`bot.runtime.table.late_results`).
    posted: Callable[[], Awaitable[None]] = field(
        default=_nobody_listens, repr=False, compare=False)


@dataclass(frozen=True)
class RabbitHunted:
    """The rabbit hunt of hand ``hand_no`` (RULES.md 10, asked by ``name``): ``rabbit`` are
    the board cards it would have dealt after ``board``, not played."""

    table: TableSnapshot
    hand_no: int
    name: str
    board: tuple[Card, ...]
    rabbit: tuple[Card, ...]


@dataclass(frozen=True)
class CardsShownAfter:
    """``name`` shows cards of their hand ``hand_no`` to the table once it is over
    (RULES.md 10): ``cards`` are their hole cards in order, ``None`` for each one still
    hidden; ``board`` the hand's board."""

    table: TableSnapshot
    hand_no: int
    seat: int
    name: str
    cards: tuple[Card | None, ...]
    board: tuple[Card, ...]


@dataclass(frozen=True)
class Notice:
    """A public message (``user_id`` None) or one for a single player.

    ``transient``: only true for a moment; the presenter may show it beside the
    turn and drop it afterwards (the time bank's start is :class:`TimeBankStarted`).
    ``pings``: the users a public notice's mentions notify (a player moved to this table).
    ``ways``: for a notice to one player, the steps offered to them with it (buttons;
    :mod:`bot.runtime.table.ways`).
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
    ways: tuple[Way, ...] = ()
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
    games: tuple[Game, ...]  # its game, or a rotation's list (RULES.md 11), in order
    pool: int
    places: tuple[tuple[int | None, int, int], ...]
    cancelled: bool = False


TableEvent = (
    DeckCommitted
    | GameAsked
    | ButtonDrawn
    | HandBegan
    | CardsDealt
    | StreetDealt
    | TurnBegan
    | RunTwiceAsked
    | TurnReminder
    | TimeBankStarted
    | ActionTaken
    | HandSettled
    | RabbitHunted
    | CardsShownAfter
    | Notice
    | TableClosed
    | TournamentOver
)
