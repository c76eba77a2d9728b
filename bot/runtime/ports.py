"""The runtime's ports: what it needs from storage and what it tells the presenter.

Storage (``bot/storage`` and ``bot/economy.py``) implements :class:`ChipBank`
and :class:`HandStore`; the Discord presenter (``bot/adapter/presenter.py``)
implements :class:`TableObserver`. Both are plain :class:`typing.Protocol`
classes so the runtime never imports either side.

Everything handed to the observer is an immutable snapshot (see
``bot.runtime.table.views``) taken under the table's lock, so the presenter may take
its time rendering while the table plays on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.cards import Card
from bot.engine.hand_state import HandState
from bot.runtime.table.events import DeckCommitted, TableEvent


class ChipBank(Protocol):
    """Chips between a player's balance and a table (one ledger transaction each)."""

    async def buy_in(
        self, *, guild_id: int, table_id: int, user_id: int, seat: int, amount: int
    ) -> None:
        """Seat the player with ``amount`` from their balance; raise InsufficientFunds if short."""
        ...

    async def top_up(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        """Add ``amount`` from the balance to the player's stack at the table."""
        ...

    async def cash_out(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        """Unseat the player and move their whole stack (``amount``) back to their balance."""
        ...

    async def return_minimum(self, *, table_id: int, user_id: int) -> int:
        """The fewest chips the player may sit down with at this table now: the biggest
        stack they left a cash table of the same game and blinds in the server with less
        than an hour ago, else 0 (RULES.md 7)."""
        ...

    async def set_sitting_out(self, *, table_id: int, user_id: int, sitting_out: bool) -> None: ...

    async def set_straddle(self, *, table_id: int, user_id: int, straddle: bool) -> None:
        """Keep the player's standing choice to straddle under the gun (RULES.md 10)."""
        ...

    async def set_time_bank(self, *, table_id: int, user_id: int, seconds: float | None) -> None:
        """Keep the seconds of time bank the player has left (None: the whole bank), so
        that a restart does not refill it (RULES.md 8)."""
        ...


@dataclass(frozen=True)
class StoredTable:
    """An open table as storage remembers it (for start-up)."""

    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    config: Mapping[str, Any]
    seats: tuple[tuple[int, int, int, bool], ...]  # (seat, user_id, stack, sitting_out)
    hands_dealt: int = 0
    straddles: frozenset[int] = frozenset()  # the seats whose players chose to straddle
    #: seat -> seconds of time bank left, for the seats that spent some (RULES.md 8)
    time_banks: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredTournament:
    """A sit-and-go that was registering or running when the bot stopped (for start-up)."""

    tournament_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    buy_in: int
    starting_stack: int
    settings: Mapping[str, Any]
    running: bool  # False: still registering
    entrants: tuple[int, ...]  # in registration order
    places: Mapping[int, int] = field(default_factory=dict)  # players already out
    hands_played: int = 0
    level_elapsed: float = 0.0  # blind-clock seconds when the last hand ended
    table: StoredTable | None = None  # the running tournament's table
    last_start: Mapping[int, int] = field(default_factory=dict)  # last hand's start stacks


class TableStore(Protocol):
    async def create_table(
        self, *, guild_id: int, channel_id: int, creator_id: int, config: Mapping[str, Any]
    ) -> int:
        """Record a new open table and return its id (one open table per channel)."""
        ...

    async def update_table(self, table_id: int, config: Mapping[str, Any]) -> None: ...

    async def close_table(self, table_id: int) -> None: ...

    async def abandon_table(self, table_id: int) -> Mapping[int, int]:
        """Close a cash table that cannot go on (its hand in progress played out first), in
        one transaction: cash out every seat. ``user -> chips back in the balance``."""
        ...

    async def open_tables(self) -> Sequence[StoredTable]: ...


class CapStore(Protocol):
    """Each server's own caps on open cash tables (:mod:`bot.runtime.caps`)."""

    async def stored_caps(self) -> Mapping[int, tuple[int | None, int | None]]:
        """``guild_id -> (per_member, per_server)`` of every server that set its own
        (None: that cap follows the operator's default)."""
        ...

    async def store_caps(
        self, guild_id: int, per_member: int | None, per_server: int | None
    ) -> None:
        """Keep a server's caps (None: the operator's default)."""
        ...


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    user_id: int
    stack: int
    posts_big_blind: bool = False
    straddle: bool = False  # chose to straddle under the gun (the engine says if they do)


@dataclass(frozen=True)
class HandStart:
    """What defines a hand before its actions (enough to replay it)."""

    table_id: int
    hand_no: int
    config: Mapping[str, Any]
    seats: tuple[StoredSeat, ...]
    button: int
    deck: tuple[Card, ...]  # secret until the hand is over; storage keeps it private
    #: The deck commitment's salts (bot.engine.commitment): as secret as the deck.
    salts: tuple[bytes, ...] = field(default=(), repr=False)
    #: The id of the message that made the commitment's root public before the deal
    #: (None for hands stored before it was kept), and where it is: the table's
    #: commitment thread (None: the table's channel).
    commitment_message: int | None = None
    commitment_channel: int | None = None


@dataclass(frozen=True)
class StoredAction:
    seq: int
    seat: int
    kind: str  # fold, check, call, bet, raise, allin
    amount: int | None = None  # "to" total for bet and raise
    source: str = "player"  # player, timeout, pre-action, leave, sitout


@dataclass(frozen=True)
class UnfinishedHand:
    hand_id: int
    start: HandStart
    actions: tuple[StoredAction, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class UnpostedResult:
    """A settled hand whose result was never seen in its table's channel (the bot was
    stopped in between): replayed from its record to post it after the restart."""

    hand_id: int
    start: HandStart
    actions: tuple[StoredAction, ...] = field(default_factory=tuple)


class HandStore(Protocol):
    """The hand record: written before each action is acknowledged."""

    async def start_hand(self, start: HandStart) -> int:
        """Record a new hand (deck included) and return its id."""
        ...

    async def append_action(self, hand_id: int, action: StoredAction) -> None: ...

    async def settle(
        self,
        hand_id: int,
        *,
        table_id: int,
        variant: str,
        hand: HandState,
        seat_users: Mapping[int, int],
        result: Mapping[str, Any],
    ) -> None:
        """The hand is over: move its chips between the seats in one transaction.

        ``hand`` is the finished hand (its ``result`` holds every final
        stack); ``seat_users`` maps
        seat numbers dealt in to user ids; ``result`` is a JSON-able summary.
        """
        ...

    async def record_show(self, hand_id: int, seat: int, cards: tuple[Card, ...]) -> None:
        """Add to a finished hand the cards ``seat`` showed after it (RULES.md 10), as its
        next action (kind ``show``): part of its public history from then on."""
        ...

    async def cancel_hand(self, hand_id: int) -> None:
        """Forget an unfinished hand: stacks stay as they were before it."""
        ...

    async def unfinished_hands(self, table_id: int) -> Sequence[UnfinishedHand]: ...

    async def result_posted(self, hand_id: int) -> None:
        """The settled hand's result is in its table's channel."""
        ...

    async def unposted_results(self, table_id: int) -> Sequence[UnpostedResult]:
        """The table's settled hands, after the last one whose result was seen posted,
        whose results were not, in order (:mod:`bot.runtime.table.late_results`)."""
        ...

    async def closed_with_results(self) -> Sequence[StoredTable]:
        """The closed tables (no seats) with settled hands whose results are still pending
        (:func:`bot.runtime.table.late_results.closed_results`)."""
        ...


class TableObserver(Protocol):
    """Told what happens at a table, in order (:mod:`bot.runtime.table.events`).

    Implemented by the Discord presenter. Called from the table's outbox task,
    outside the table's lock; an exception is logged and the game goes on.
    """

    async def observe(self, event: TableEvent) -> None: ...


class NullObserver:
    """An observer that ignores everything (a table nobody watches). Nothing can be
    made public through it, so its tables never deal: a deck commitment fails."""

    async def observe(self, event: TableEvent) -> None:
        if isinstance(event, DeckCommitted):
            event.receipt.failed()
