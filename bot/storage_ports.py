"""The runtime's ports implemented on the real storage (``bot.storage`` + ``bot.economy``).

:class:`StoragePorts` is the :class:`~bot.runtime.ports.ChipBank`,
:class:`~bot.runtime.ports.HandStore`, :class:`~bot.runtime.ports.TableStore` and
:class:`~bot.runtime.ports.CapStore`
the bot runs with. Storage's player-readable errors become the runtime's
:class:`~bot.runtime.errors.TableError` so the cogs have one kind to answer; a database
that cannot be written now (:class:`~bot.storage.StorageUnavailable`) becomes
:class:`~bot.runtime.errors.StoreUnavailable`, which the tables wait out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.economy import summarize_hand
from bot.engine.cards import Card
from bot.engine.hand_state import HandState
from bot.runtime.cash_nights import CashNight
from bot.runtime.errors import InsufficientFunds, StoreUnavailable, TableError
from bot.runtime.ports import (
    HandStart,
    StoredAction,
    StoredSeat,
    StoredTable,
    StoredTournament,
    UnfinishedHand,
    UnpostedResult,
)
from bot.storage import (
    Database,
    EconomyError,
    HandRecord,
    HandSeatIn,
    HandSeatRecord,
    InsufficientChips,
    SeatRecord,
    StorageUnavailable,
    TableRecord,
)
from bot.storage.cash_nights import CashNightRecord, CashNightRepo
from bot.storage.tournament_state import InterruptedTournament


@asynccontextmanager
async def _polite() -> AsyncIterator[None]:
    try:
        yield
    except StorageUnavailable as exc:
        raise StoreUnavailable(exc.phrase) from None
    except InsufficientChips as exc:
        raise InsufficientFunds(exc.phrase or str(exc)) from None
    except EconomyError as exc:
        raise TableError(exc.phrase or str(exc)) from None


class StoragePorts:
    """ChipBank + HandStore + TableStore + CapStore over one :class:`bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- ChipBank --------------------------------------------------------------
    async def buy_in(
        self, *, guild_id: int, table_id: int, user_id: int, seat: int, amount: int
    ) -> None:
        async with _polite():
            await self.db.tables.buy_in(table_id, user_id, seat, amount)

    async def top_up(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        async with _polite():
            await self.db.tables.top_up(table_id, user_id, amount)

    async def cash_out(self, *, guild_id: int, table_id: int, user_id: int, amount: int) -> None:
        async with _polite():
            returned = await self.db.tables.cash_out(table_id, user_id)
        if returned != amount:  # the runtime and the ledger disagree: never hide it
            raise RuntimeError(
                f"table {table_id}: cashed out {returned} for user {user_id}, expected {amount}"
            )

    async def return_minimum(self, *, table_id: int, user_id: int) -> int:
        async with _polite():
            return await self.db.tables.return_minimum(table_id, user_id)

    async def set_sitting_out(self, *, table_id: int, user_id: int, sitting_out: bool) -> None:
        async with _polite():
            await self.db.tables.set_sitting_out(table_id, user_id, sitting_out)

    async def set_straddle(self, *, table_id: int, user_id: int, straddle: bool) -> None:
        async with _polite():
            await self.db.tables.set_straddle(table_id, user_id, straddle)

    async def set_time_bank(self, *, table_id: int, user_id: int, seconds: float | None) -> None:
        async with _polite():
            await self.db.tables.set_time_bank(table_id, user_id, seconds)

    # -- HandStore -------------------------------------------------------------
    async def start_hand(self, start: HandStart) -> int:
        async with _polite():
            record = await self.db.hands.start(
                start.table_id,
                variant=str(start.config["variant_key"]),
                settings=dict(start.config),
                button=start.button,
                seats=[HandSeatIn(s.seat, s.user_id, s.stack, s.posts_big_blind, s.straddle)
                       for s in start.seats],
                deck=start.deck,
                salts=start.salts or None,
                commitment_message=start.commitment_message,
                commitment_channel=start.commitment_channel,
            )
        return record.id

    async def append_action(self, hand_id: int, action: StoredAction) -> None:
        stored = {"seat": action.seat, "kind": action.kind, "amount": action.amount,
                  "source": action.source}
        async with _polite():
            await self.db.hands.append_action(hand_id, stored, seq=action.seq)

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
        summary = summarize_hand(hand, seat_users, variant)
        async with _polite():
            await self.db.hands.finish(hand_id, summary, dict(result))

    async def record_show(self, hand_id: int, seat: int, cards: tuple[Card, ...]) -> None:
        async with _polite():
            await self.db.hands.append_shown(hand_id, seat, cards)

    async def cancel_hand(self, hand_id: int) -> None:
        async with _polite():
            await self.db.hands.cancel(hand_id, "could not be resumed after a restart")

    async def unfinished_hands(self, table_id: int) -> Sequence[UnfinishedHand]:
        out: list[UnfinishedHand] = []
        for record in await self.db.hands.list_unfinished(table_id):
            stored = await self.db.hands.load_unfinished(record.id)
            start = _hand_start(stored.hand, stored.seats, stored.deck, stored.salts)
            await self.db.hands.mark_resumed(record.id)
            out.append(UnfinishedHand(record.id, start, _stored_actions(stored.actions)))
        return out

    async def result_posted(self, hand_id: int) -> None:
        async with _polite():
            await self.db.results.posted(hand_id)

    async def unposted_results(self, table_id: int) -> Sequence[UnpostedResult]:
        out: list[UnpostedResult] = []
        for hand in await self.db.results.unposted(table_id):
            seats = await self.db.hands.seats(hand.id)
            start = _hand_start(hand, seats, await self.db.hands.reveal_deck(hand.id), ())
            actions = [a for a in await self.db.hands.actions(hand.id) if a["kind"] != "show"]
            out.append(UnpostedResult(hand.id, start, _stored_actions(actions)))
        return out

    async def closed_with_results(self) -> Sequence[StoredTable]:
        return [_stored_table(t, ()) for t in await self.db.results.closed()]

    # -- TournamentPorts ---------------------------------------------------------
    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, buy_in: int,
        starting_stack: int, settings: Mapping[str, Any],
    ) -> int:
        async with _polite():
            record = await self.db.tournaments.create(
                guild_id, channel_id, creator_id, buy_in=buy_in, starting_stack=starting_stack,
                settings=settings,
            )
        return record.id

    async def reschedule_tournament(self, tournament_id: int, starts_at: float) -> None:
        async with _polite():
            await self.db.tournaments.reschedule(tournament_id, starts_at)

    # -- CashNightStore -----------------------------------------------------------
    async def create_cash_night(
        self, *, guild_id: int, channel_id: int, creator_id: int, starts_at: float,
        weekly: str | None, about: str, language: str,
    ) -> CashNight:
        return _night(await CashNightRepo(self.db).create(
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
            starts_at=starts_at, weekly=weekly, about=about, language=language))

    async def set_cash_night_status(self, night_id: int, status: str) -> None:
        await CashNightRepo(self.db).set_status(night_id, status)

    async def reschedule_cash_night(self, night_id: int, starts_at: float) -> None:
        await CashNightRepo(self.db).reschedule(night_id, starts_at)

    async def open_cash_nights(self) -> list[CashNight]:
        return [_night(r) for r in await CashNightRepo(self.db).open_nights()]

    async def enter(self, tournament_id: int, user_id: int) -> None:
        async with _polite():
            await self.db.tournaments.enter(tournament_id, user_id)

    async def unregister(self, tournament_id: int, user_id: int) -> None:
        async with _polite():
            await self.db.tournaments.leave(tournament_id, user_id)

    async def create_tournament_table(
        self, *, guild_id: int, channel_id: int, creator_id: int, tournament_id: int,
        config: Mapping[str, Any],
    ) -> int:
        async with _polite():
            record = await self.db.tables.create(
                guild_id, channel_id, creator_id, config, tournament_id=tournament_id
            )
        return record.id

    async def start(self, tournament_id: int, table_id: int, seat_of: Mapping[int, int]) -> Any:
        async with _polite():
            return await self.db.tournaments.start(tournament_id, table_id, seat_of)

    async def eliminate(self, tournament_id: int, user_id: int, place: int) -> None:
        async with _polite():
            await self.db.tournaments.eliminate(tournament_id, user_id, place)

    async def finish(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> Any:
        async with _polite():
            return await self.db.tournaments.finish(tournament_id, places, prizes)

    async def cancel_tournament(self, tournament_id: int, reason: str = "cancelled") -> None:
        async with _polite():
            await self.db.tournaments.cancel(tournament_id, reason)

    async def enter_late(
        self, tournament_id: int, table_id: int, user_id: int, seat_no: int
    ) -> None:
        async with _polite():
            await self.db.tournaments.enter_late(tournament_id, table_id, user_id, seat_no)

    async def cancel_with_prizes(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> None:
        async with _polite():
            await self.db.tournaments.cancel_with_prizes(tournament_id, places, prizes)

    async def save_progress(
        self, tournament_id: int, hands_played: int, level_elapsed: float
    ) -> None:
        async with _polite():
            await self.db.tournaments.save_progress(tournament_id, hands_played, level_elapsed)

    async def mtt_start(
        self, tournament_id: int, seating: Mapping[int, Mapping[int, int]]
    ) -> None:
        async with _polite():
            await self.db.mtt.start(tournament_id, seating)

    async def mtt_move(
        self, tournament_id: int, user_id: int, from_table: int, to_table: int, to_seat: int
    ) -> None:
        async with _polite():
            await self.db.mtt.move(tournament_id, user_id, from_table, to_table, to_seat)

    async def mtt_tables(self, tournament_id: int) -> list[tuple[int, StoredTable]]:
        return [(t.number, _stored_table(t.table, t.seats))
                for t in await self.db.mtt.tables(tournament_id)]

    async def mtt_last_starts(self, tournament_id: int) -> Mapping[int, int]:
        return await self.db.mtt.last_starts(tournament_id)

    async def interrupted_tournaments(self) -> Sequence[StoredTournament]:
        return [_stored_tournament(t) for t in await self.db.tournaments.interrupted()]

    async def cancel_unresumable(self, tournament_id: int, reason: str) -> None:
        async with _polite():
            await self.db.tournaments.cancel_unresumable(tournament_id, reason)

    # -- CapStore --------------------------------------------------------------
    async def stored_caps(self) -> Mapping[int, tuple[int | None, int | None]]:
        return await self.db.caps.all()

    async def store_caps(
        self, guild_id: int, per_member: int | None, per_server: int | None
    ) -> None:
        async with _polite():
            await self.db.caps.set(guild_id, per_member, per_server)

    # -- TableStore ------------------------------------------------------------
    async def create_table(
        self, *, guild_id: int, channel_id: int, creator_id: int, config: Mapping[str, Any]
    ) -> int:
        async with _polite():
            record = await self.db.tables.create(guild_id, channel_id, creator_id, config)
        return record.id

    async def update_table(self, table_id: int, config: Mapping[str, Any]) -> None:
        async with _polite():
            await self.db.tables.update_settings(table_id, config)

    async def close_table(self, table_id: int) -> None:
        async with _polite():
            await self.db.tables.close(table_id)

    async def abandon_table(self, table_id: int) -> Mapping[int, int]:
        async with _polite():
            return await self.db.tables.abandon(table_id)

    async def open_tables(self) -> Sequence[StoredTable]:
        """The open cash tables (tournament tables come with their tournament)."""
        out: list[StoredTable] = []
        for record in await self.db.tables.list_open():
            if record.kind != "cash":
                continue
            out.append(_stored_table(record, await self.db.tables.seats(record.id)))
        return out


def _stored_table(record: TableRecord, seats: Sequence[SeatRecord]) -> StoredTable:
    return StoredTable(
        table_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        creator_id=record.creator_id,
        config=dict(record.settings),
        seats=tuple((s.seat_no, s.user_id, s.stack, s.sitting_out) for s in seats),
        hands_dealt=record.hands_dealt,
        straddles=frozenset(s.seat_no for s in seats if s.straddle),
        time_banks={s.seat_no: s.time_bank for s in seats if s.time_bank is not None},
    )


def _night(r: CashNightRecord) -> CashNight:
    return CashNight(r.id, r.guild_id, r.channel_id, r.creator_id, r.starts_at, r.weekly,
                     r.about, r.language, r.status)


def _stored_tournament(it: InterruptedTournament) -> StoredTournament:
    t = it.tournament
    return StoredTournament(
        tournament_id=t.id, guild_id=t.guild_id, channel_id=t.channel_id,
        creator_id=t.creator_id, buy_in=t.buy_in, starting_stack=t.starting_stack,
        settings=dict(t.settings), running=t.status == "running", entrants=t.entrants,
        places=dict(it.places), hands_played=it.hands_played, level_elapsed=it.level_elapsed,
        table=None if it.table is None else _stored_table(it.table, it.seats),
        last_start=dict(it.last_start),
    )


def _hand_start(hand: HandRecord, seats: Sequence[HandSeatRecord], deck: tuple[Card, ...],
                salts: tuple[bytes, ...]) -> HandStart:
    """A stored hand as the runtime replays it: its settings, seats, button and deck."""
    return HandStart(
        table_id=hand.table_id,
        hand_no=hand.number,
        config=dict(hand.settings),
        seats=tuple(StoredSeat(s.seat_no, s.user_id, s.start_stack, s.posts_big_blind, s.straddle)
                    for s in seats),
        button=hand.button,
        deck=deck,
        salts=salts,
        commitment_message=hand.commitment_message,
        commitment_channel=hand.commitment_channel,
    )


def _stored_actions(actions: Sequence[Mapping[str, Any]]) -> tuple[StoredAction, ...]:
    return tuple(
        StoredAction(seq=i, seat=int(a["seat"]), kind=str(a["kind"]),
                     amount=None if a.get("amount") is None else int(a["amount"]),
                     source=str(a.get("source", "player")))
        for i, a in enumerate(actions)
    )
