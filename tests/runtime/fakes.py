"""In-memory stand-ins for the runtime's ports, and a recording observer.

The real storage (aiosqlite) replaces ``FakeChipBank``/``FakeHandStore``/
``FakeTableStore`` where it is available (see ``test_storage_adapter``); these
fakes keep the hand-loop tests independent of SQL and fast. They enforce what
the real ones do: no chips created or lost, an action stored only for a
running hand, one open table per channel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.engine.cards import Card
from bot.engine.hand_state import HandState
from bot.i18n import Phrase
from bot.runtime.errors import InsufficientFunds, StoreUnavailable
from bot.runtime.ports import (
    HandStart,
    StoredAction,
    StoredTable,
    UnfinishedHand,
    UnpostedResult,
)
from bot.runtime.table.events import DeckCommitted, HandSettled, TableEvent

E = TypeVar("E")


@dataclass
class FakeChipBank:
    balances: dict[int, int] = field(default_factory=dict)
    seated: dict[tuple[int, int], int] = field(default_factory=dict)  # (table, user) -> stack
    sitting_out: dict[tuple[int, int], bool] = field(default_factory=dict)
    straddles: dict[tuple[int, int], bool] = field(default_factory=dict)  # (table, user)
    time_banks: dict[tuple[int, int], float | None] = field(default_factory=dict)
    #: (table, user) -> the stack they left with (the hour's window is storage's to time)
    left_with: dict[tuple[int, int], int] = field(default_factory=dict)
    default_balance: int = 10_000

    def balance(self, user_id: int) -> int:
        return self.balances.setdefault(user_id, self.default_balance)

    async def buy_in(
        self, *, guild_id: int, table_id: int, user_id: int, seat: int, amount: int
    ) -> None:
        if self.balance(user_id) < amount:
            raise InsufficientFunds(f"You have only {self.balance(user_id):,} chips.")
        assert (table_id, user_id) not in self.seated
        self.balances[user_id] -= amount
        self.seated[(table_id, user_id)] = amount
        self.left_with.pop((table_id, user_id), None)

    async def top_up(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        if self.balance(user_id) < amount:
            raise InsufficientFunds(f"You have only {self.balance(user_id):,} chips.")
        self.balances[user_id] -= amount
        self.seated[(table_id, user_id)] += amount

    async def cash_out(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        stack = self.seated.pop((table_id, user_id))
        self.straddles.pop((table_id, user_id), None)  # the choice goes with the seat
        self.time_banks.pop((table_id, user_id), None)  # and the time bank
        assert stack == amount, (stack, amount)
        self.balances[user_id] = self.balance(user_id) + amount
        if amount:
            self.left_with[(table_id, user_id)] = amount

    async def return_minimum(self, *, table_id: int, user_id: int) -> int:
        return self.left_with.get((table_id, user_id), 0)

    async def set_sitting_out(self, *, table_id: int, user_id: int, sitting_out: bool) -> None:
        self.sitting_out[(table_id, user_id)] = sitting_out

    async def set_straddle(self, *, table_id: int, user_id: int, straddle: bool) -> None:
        assert (table_id, user_id) in self.seated
        self.straddles[(table_id, user_id)] = straddle

    async def set_time_bank(self, *, table_id: int, user_id: int, seconds: float | None) -> None:
        if (table_id, user_id) in self.seated:
            self.time_banks[(table_id, user_id)] = seconds

    def total(self) -> int:
        return sum(self.balances.values()) + sum(self.seated.values())


@dataclass
class FakeHandStore:
    economy: FakeChipBank | None = None
    starts: dict[int, HandStart] = field(default_factory=dict)
    actions: dict[int, list[StoredAction]] = field(default_factory=dict)
    settled: dict[int, dict[int, int]] = field(default_factory=dict)
    cancelled: set[int] = field(default_factory=set)
    fail_next_append: bool = False
    #: Writes it takes before it can write no more (the disk full, the database down),
    #: refusing them as the real port does; None: it always can.
    writes_left: int | None = None
    #: Cards shown after each finished hand: (seat, cards), in order.
    shown: dict[int, list[tuple[int, tuple[Card, ...]]]] = field(default_factory=dict)
    #: Settled hands whose results the observer has not said were posted.
    pending: set[int] = field(default_factory=set)

    def _write(self) -> None:
        if self.writes_left is not None:
            if self.writes_left <= 0:
                raise StoreUnavailable(Phrase("error.cannot_write"))
            self.writes_left -= 1

    async def start_hand(self, start: HandStart) -> int:
        self._write()
        hand_id = len(self.starts) + 1
        self.starts[hand_id] = start
        self.actions[hand_id] = []
        return hand_id

    async def append_action(self, hand_id: int, action: StoredAction) -> None:
        if self.fail_next_append:
            self.fail_next_append = False
            raise OSError("disk full")
        self._write()
        assert hand_id not in self.settled and hand_id not in self.cancelled
        assert action.seq == len(self.actions[hand_id]), "actions are stored in order"
        self.actions[hand_id].append(action)

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
        self._write()
        assert hand_id not in self.settled
        stacks = {seat_users[seat]: stack for seat, stack in hand.result.final_stacks.items()}
        self.settled[hand_id] = stacks
        self.pending.add(hand_id)
        if self.economy is not None:
            for user_id, stack in stacks.items():
                self.economy.seated[(table_id, user_id)] = stack

    async def record_show(self, hand_id: int, seat: int, cards: tuple[Card, ...]) -> None:
        assert hand_id in self.settled, "cards are shown after the hand only"
        self.shown.setdefault(hand_id, []).append((seat, cards))

    async def cancel_hand(self, hand_id: int) -> None:
        self.cancelled.add(hand_id)

    async def unfinished_hands(self, table_id: int) -> Sequence[UnfinishedHand]:
        return [
            UnfinishedHand(h, s, tuple(self.actions[h]))
            for h, s in self.starts.items()
            if s.table_id == table_id and h not in self.settled and h not in self.cancelled
        ]

    async def result_posted(self, hand_id: int) -> None:
        self.pending.discard(hand_id)

    async def unposted_results(self, table_id: int) -> Sequence[UnpostedResult]:
        settled = sorted((s.hand_no, h) for h, s in self.starts.items()
                         if s.table_id == table_id and h in self.settled)
        posted = max((n for n, h in settled if h not in self.pending), default=0)
        return [UnpostedResult(h, self.starts[h], tuple(self.actions[h]))
                for n, h in settled if h in self.pending and n > posted]


@dataclass
class FakeTableStore:
    economy: FakeChipBank | None = None
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)

    async def create_table(
        self, *, guild_id: int, channel_id: int, creator_id: int, config: Mapping[str, Any]
    ) -> int:
        table_id = len(self.tables) + 1
        self.tables[table_id] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "creator_id": creator_id,
            "config": dict(config),
        }
        return table_id

    async def update_table(self, table_id: int, config: Mapping[str, Any]) -> None:
        self.tables[table_id]["config"] = dict(config)

    async def close_table(self, table_id: int) -> None:
        self.closed.add(table_id)

    async def open_tables(self) -> Sequence[StoredTable]:
        out = []
        for tid, t in self.tables.items():
            if tid in self.closed:
                continue
            seats = []
            straddles = set()
            banks: dict[int, float] = {}
            if self.economy is not None:
                for (table_id, user_id), stack in self.economy.seated.items():
                    if table_id == tid:
                        seats.append((len(seats) + 1, user_id, stack, False))
                        if self.economy.straddles.get((table_id, user_id)):
                            straddles.add(len(seats))
                        bank = self.economy.time_banks.get((table_id, user_id))
                        if bank is not None:
                            banks[len(seats)] = bank
            out.append(
                StoredTable(
                    tid, t["guild_id"], t["channel_id"], t["creator_id"], t["config"], tuple(seats),
                    straddles=frozenset(straddles), time_banks=banks,
                )
            )
        return out


class Recorder:
    """A TableObserver that keeps every event it is told, in order, and posts every deck
    commitment at once (message ids 1, 2, ...) unless ``refuse_commitments``, and every
    result unless ``lose_results`` (as a kill before the post would)."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []
        self.refuse_commitments = False
        self.lose_results = False
        self.posted: list[int] = []

    def names(self) -> list[str]:
        return [type(e).__name__ for e in self.events]

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    async def observe(self, event: TableEvent) -> None:
        self.events.append(event)
        if isinstance(event, DeckCommitted):
            if self.refuse_commitments:
                event.receipt.failed()
            else:
                self.posted.append(len(self.posted) + 1)
                event.receipt.posted(self.posted[-1])
        elif isinstance(event, HandSettled) and not self.lose_results:
            await event.posted()
