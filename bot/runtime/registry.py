"""The registry of live tables: one per channel, created, found, restored after a restart.

It knows tables only (:mod:`bot.runtime.tournament.service` keeps the tournaments
above it). It also finds a player's seats wherever they are
(:meth:`TableRegistry.tables_of`, so ``/table leave`` works from any channel) and
abandons the tables of a lost channel or server (:meth:`~TableRegistry.abandon_channel`,
:meth:`~TableRegistry.abandon_guild`; the rules are in :mod:`bot.runtime.table.abandon`).

Whatever else holds channels (the tournaments service: a sit-and-go still
registering has no table yet) joins as a :class:`ChannelOccupant`: the registry
refuses a table in a channel it holds, counts what it holds under the caps
(:meth:`~TableRegistry.openings`, :mod:`bot.runtime.caps`), tells it when a table
closes, and abandons its channels with a lost channel or server (before the
channel's table).

The registry's :class:`~bot.runtime.hearing.Hearing`, shared by every table, says which
shards the dealer cannot hear (RULES.md 8): the Discord side tells it
(:meth:`~TableRegistry.deafen`, :meth:`~TableRegistry.hear`), and the tables of a shard
heard again get their clocks back (:mod:`bot.runtime.table.waiting`).

A restart brings tables back through one path: :meth:`~TableRegistry.restore_table`
(the table, its hand count and its seats) then :meth:`~TableRegistry.resume_play`
(its hand in progress on its own deck, else the next deal); cash tables
(:meth:`~TableRegistry.restore`) and tournament tables both use it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from bot.i18n import Command, Phrase
from bot.runtime.caps import Opening, ServerCaps
from bot.runtime.clock import Clock, LoopClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable, TableError
from bot.runtime.hearing import STORAGE, HeardClock, Hearing
from bot.runtime.ports import ChipBank, HandStore, StoredTable, TableObserver, TableStore
from bot.runtime.table import late_results, time_banks, waiting
from bot.runtime.table.abandon import Abandoned
from bot.runtime.table.live import DEFAULT_PAUSE, Table
from bot.runtime.table.policy import CashPolicy, TablePolicy

log = logging.getLogger(__name__)

__all__ = ["ChannelOccupant", "TableRegistry"]


class ChannelOccupant(Protocol):
    """Something besides a table that holds channels (the tournaments service)."""

    def refusal(self, channel_id: int) -> Phrase | None:
        """Why no table may open in ``channel_id`` (it is held), or None when it is free."""
        ...

    def channels_in(self, guild_id: int) -> set[int]:
        """The channels it holds in a server."""
        ...

    def openings(self, guild_id: int) -> list[Opening]:
        """What it holds open in a server, as the caps count it (:mod:`bot.runtime.caps`)."""
        ...

    async def abandon_channel(self, channel_id: int, reason: str) -> Abandoned | None:
        """The channel is lost: give up what it holds there (None when nothing)."""
        ...

    def table_closed(self, table: Table) -> None:
        """``table`` closed (the registry forgot it)."""
        ...


class TableRegistry:
    """Owns every live :class:`Table`; the cogs find tables here by channel."""

    def __init__(
        self,
        *,
        economy: ChipBank,
        hands: HandStore,
        tables: TableStore,
        observer: TableObserver,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        pause: float = DEFAULT_PAUSE,
        names: Callable[[int, int], Awaitable[str]] | None = None,
        owns: Callable[[int], bool] | None = None,
        caps: ServerCaps | None = None,
        hearing: Hearing | None = None,
    ) -> None:
        self.economy = economy
        self.hands = hands
        self.tables = tables
        self.observer = observer
        self.clock: Clock = clock or LoopClock()
        self.rng = rng
        self.pause = pause
        self.names = names or _default_name
        #: ``owns(guild_id)``: this process plays that server's tables (its shard is
        #: ours, :mod:`bot.sharding`); a restart resumes only those.
        self.owns: Callable[[int], bool] = owns or _every_guild
        #: The caps on open cash tables per member and per server (:mod:`bot.runtime.caps`).
        self.caps = caps or ServerCaps()
        #: The shards the dealer cannot hear now (every table's; :mod:`bot.runtime.hearing`).
        self.hearing = hearing or Hearing()
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        #: channels whose table or tournament is being stored -> (guild_id, its opening)
        self._opening: dict[int, tuple[int, Opening]] = {}
        self._occupants: list[ChannelOccupant] = []
        #: Told of each table made (opened or restored): the cash game nights.
        self.opened: list[Callable[[Table], None]] = []

    def __len__(self) -> int:
        return len(self._by_id)

    def add_occupant(self, occupant: ChannelOccupant) -> None:
        """Let ``occupant`` hold channels beside the tables (see the module docstring)."""
        self._occupants.append(occupant)

    def all(self) -> list[Table]:
        """Every open table."""
        return list(self._by_id.values())

    def in_channel(self, channel_id: int) -> Table:
        """The table of a channel or thread; raises :class:`NoTable`."""
        table = self._by_channel.get(channel_id)
        if table is None:
            raise NoTable(Phrase("refuse.no_table_here", create=Command("table create")))
        return table

    def find(self, channel_id: int) -> Table | None:
        """The table of a channel or thread, or None."""
        return self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> Table:
        """An open table by id; raises :class:`NoTable`."""
        table = self._by_id.get(table_id)
        if table is None:
            raise NoTable(Phrase("refuse.that_table_closed"))
        return table

    def tables_of(self, user_id: int, guild_id: int | None = None) -> list[Table]:
        """The open tables where ``user_id`` has a seat (in ``guild_id`` if given), by id."""
        return [
            t for t in sorted(self._by_id.values(), key=lambda t: t.table_id)
            if t.seat_of(user_id) is not None and guild_id in (None, t.guild_id)
        ]

    # -- lost channels ----------------------------------------------------------------
    async def abandon(self, table_id: int, reason: str) -> Abandoned | None:
        """Abandon one table (its channel is lost); None if it is not open any more."""
        table = self._by_id.get(table_id)
        return None if table is None else await table.abandon(reason)

    async def abandon_channel(self, channel_id: int, reason: str) -> list[Abandoned]:
        """Abandon what the occupants hold in a lost channel or thread, then its table."""
        done: list[Abandoned | None] = []
        for occupant in self._occupants:  # first: if one opens a table meanwhile, it is below
            done.append(await occupant.abandon_channel(channel_id, reason))
        table = self._by_channel.get(channel_id)
        if table is not None:
            done.append(await table.abandon(reason))
        return [gone for gone in done if gone is not None]

    async def abandon_guild(self, guild_id: int, reason: str) -> list[Abandoned]:
        """Abandon every table (and what the occupants hold) of a server the bot left."""
        channels = {t.channel_id for t in self._by_id.values() if t.guild_id == guild_id}
        for occupant in self._occupants:
            channels |= occupant.channels_in(guild_id)
        done: list[Abandoned] = []
        for channel_id in sorted(channels):
            done += await self.abandon_channel(channel_id, reason)
        return done

    # -- opening tables ---------------------------------------------------------------
    def make(
        self,
        table_id: int,
        config: TableConfig,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        hands_dealt: int = 0,
        policy: TablePolicy | None = None,
    ) -> Table:
        """Build a stored table with ``policy`` (default: cash) on the registry's services
        and keep it by channel and id until it closes."""
        table = Table(
            table_id,
            config,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            economy=self.economy,
            hands=self.hands,
            tables=self.tables,
            observer=self.observer,
            clock=self.clock,
            rng=self.rng,
            pause=self.pause,
            hands_dealt=hands_dealt,
            on_closed=self._forget,
            policy=policy,
            hearing=self.hearing,
        )
        self._by_channel[channel_id] = table
        self._by_id[table_id] = table
        for listener in self.opened:
            listener(table)
        return table

    def _forget(self, table: Table) -> None:
        self.discard(table)
        for occupant in self._occupants:
            occupant.table_closed(table)

    def discard(self, table: Table) -> None:
        """Forget a table without closing it (one that never played: a tournament that
        could not be restored)."""
        self._by_channel.pop(table.channel_id, None)
        self._by_id.pop(table.table_id, None)

    async def create(
        self, *, guild_id: int, channel_id: int, creator_id: int, config: TableConfig
    ) -> Table:
        """Open a cash table in a channel (one per channel or thread), within the caps."""
        with self.reserving(guild_id=guild_id, channel_id=channel_id, creator_id=creator_id):
            table_id = await self.tables.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                config=config.to_dict(),
            )
        return self.make(
            table_id, config, guild_id=guild_id, channel_id=channel_id, creator_id=creator_id)

    def check_free(self, channel_id: int) -> None:
        """Refuse a channel that has (or is opening) a table, or that an occupant holds."""
        if channel_id in self._by_channel or channel_id in self._opening:
            raise TableError(Phrase("refuse.channel_has_table", info=Command("table info")))
        for occupant in self._occupants:
            refusal = occupant.refusal(channel_id)
            if refusal is not None:
                raise TableError(refusal)

    @contextmanager
    def reserving(
        self, *, guild_id: int, channel_id: int, creator_id: int, tables: int = 1
    ) -> Iterator[None]:
        """Hold a free channel and a place under the caps while a table or tournament with
        at most ``tables`` tables is stored there (two at once: the second refused);
        refused at once otherwise (:meth:`check_free`, :meth:`check_room`)."""
        self.check_free(channel_id)
        self.check_room(guild_id, creator_id, tables)
        self._opening[channel_id] = (guild_id, Opening(creator_id, tables))
        try:
            yield
        finally:
            del self._opening[channel_id]

    def openings(self, guild_id: int) -> list[Opening]:
        """What a server has open, as the caps count it (:mod:`bot.runtime.caps`): each
        cash table, what is being stored, and what the occupants hold (tournaments)."""
        held = [Opening(t.creator_id) for t in self._by_id.values()
                if t.guild_id == guild_id and isinstance(t.policy, CashPolicy)]
        held += [opening for g, opening in self._opening.values() if g == guild_id]
        for occupant in self._occupants:
            held += occupant.openings(guild_id)
        return held

    def open_tables(self, guild_id: int) -> int:
        """How many tables the server's cap counts open now."""
        return sum(o.tables for o in self.openings(guild_id))

    def check_room(self, guild_id: int, creator_id: int, tables: int = 1) -> None:
        """Refuse a new opening of ``creator_id`` with at most ``tables`` tables over the
        server's caps (:mod:`bot.runtime.caps`)."""
        caps, held = self.caps.of(guild_id), self.openings(guild_id)
        limits = Command("table limits")
        if caps.per_member and sum(o.creator_id == creator_id for o in held) >= caps.per_member:
            raise TableError(Phrase("refuse.table_cap.member", count=caps.per_member,
                                    close=Command("table close"), limits=limits))
        open_now = sum(o.tables for o in held)
        if caps.per_server and open_now + tables > caps.per_server:
            if tables > 1:
                raise TableError(Phrase("refuse.table_cap.server_tables", tables=tables,
                                        open=open_now, count=caps.per_server, limits=limits))
            raise TableError(Phrase("refuse.table_cap.server", count=caps.per_server,
                                    limits=limits))

    # -- the gateway (RULES.md 8) ------------------------------------------------------
    def deafen(self, shard: int) -> None:
        """The dealer cannot hear ``shard``'s servers (their gateway connection is down,
        or not up yet): their tables' clocks stop and they deal no hand."""
        if self.hearing.deafen(shard, self.clock.now()):
            log.info("shard %d: the gateway is down; its tables' clocks stop", shard)

    def level_clock(self, guild_id: int) -> HeardClock:
        """The clock of a tournament's blind levels in ``guild_id``: it stands still while
        the dealer cannot hear the server or cannot write, as its tables' turn clocks do
        (RULES.md 8)."""
        return HeardClock(self.clock, self.hearing, guild_id)

    async def hear(self, shard: int) -> None:
        """The dealer hears ``shard``'s servers again: each of their tables' decisions gets
        the time it had left, and at least 15 s; tables between hands deal."""
        since = self.hearing.hear(shard, self.clock.now())
        if since is None:
            return
        tables = [t for t in self.all() if self.hearing.shard(t.guild_id) == shard]
        log.info("shard %d: the gateway is up after %.1f s; the clocks of %d tables run",
                 shard, self.clock.now() - since, len(tables))
        for table in tables:
            await waiting.heard(table, since)

    # -- the storage (bot.storage.outage) --------------------------------------------
    def storage_down(self) -> None:
        """The dealer cannot write (the database's disk is full, read-only, or down):
        every table's clock stops and no hand is dealt (:mod:`bot.runtime.hearing`)."""
        self.hearing.storage_down(self.clock.now())  # storage logs it, once

    async def storage_up(self) -> None:
        """The dealer can write again: every table heard again goes on where it stopped
        (the decision waiting gets the time it had left, and at least 15 s; a table
        between hands deals; one stopped between an action and the next turn goes on)."""
        heard = self.hearing.storage_up(self.clock.now())  # storage logs it, once
        for table in [t for t in self.all() if self.hearing.shard(t.guild_id) in heard]:
            await waiting.heard(table, heard[self.hearing.shard(table.guild_id)], STORAGE)

    # -- after a restart ----------------------------------------------------------------
    async def restore(self) -> list[Table]:
        """Bring back every open cash table of our servers after a restart and resume (or
        cancel) unfinished hands; the restored tables. (Tournament tables come back with
        their tournament: :mod:`bot.runtime.tournament.service`.)"""
        restored: list[Table] = []
        for stored in await self.tables.open_tables():
            if not self.owns(stored.guild_id):
                continue  # another process's shard resumes it
            try:
                table = await self.restore_table(stored)
            except TableError as exc:
                log.error("table %s has unusable settings (%s); left closed", stored.table_id, exc)
                continue
            await self.resume_play(table)
            restored.append(table)
        return restored

    async def restore_table(
        self,
        stored: StoredTable,
        *,
        policy: TablePolicy | None = None,
        keep: Callable[[int], bool] | None = None,
    ) -> Table:
        """Rebuild a stored table (the first half of a restore): its settings, its hand
        count, and its players seated again with their stacks and straddle choices (only
        those ``keep(user_id)`` keeps, when given), their names looked up; the results a
        kill kept from its channel are told then, before anything else
        (:mod:`bot.runtime.table.late_results`). Raises :class:`TableError` when its
        settings are unusable. Play goes on with :meth:`resume_play`."""
        config = TableConfig.from_dict(dict(stored.config))
        table = self.make(
            stored.table_id, config, guild_id=stored.guild_id, channel_id=stored.channel_id,
            creator_id=stored.creator_id, hands_dealt=stored.hands_dealt, policy=policy,
        )
        for seat, user_id, stack, sitting_out in stored.seats:
            if keep is None or keep(user_id):
                name = await self.names(stored.guild_id, user_id)
                table.restore_seat(seat, user_id, name, stack, sitting_out)
                table.seats[seat].straddle = seat in stored.straddles
                table.seats[seat].time_bank = time_banks.restored(
                    config.time_bank, stored.time_banks.get(seat))
        await late_results.post_late(table, self.names)
        return table

    async def resume_play(
        self, table: Table, when_idle: Callable[[Table], Awaitable[None]] | None = None
    ) -> None:
        """The second half of a restore: the table's hands in progress go on on their own
        decks (or are cancelled, stacks as before them: :mod:`bot.runtime.table.recovery`);
        then, if no hand is being played and the table is neither held nor closed,
        ``when_idle(table)`` (default: deal the next hand when enough players are ready)."""
        for hand in await self.hands.unfinished_hands(table.table_id):
            await table.resume(hand)
        if table.current is None and not table.held and not table.closed:
            await (when_idle or _deal_next)(table)

    async def shutdown(self) -> None:
        """Stop every table's clocks and tasks without moving chips (the bot is stopping)."""
        for table in self.all():
            await table.shutdown()


async def _deal_next(table: Table) -> None:
    async with table.lock:
        table.start()


def _every_guild(guild_id: int) -> bool:
    return True


async def _default_name(guild_id: int, user_id: int) -> str:
    return f"player {user_id}"
