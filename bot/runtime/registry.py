"""The registry of live tables: one per channel, created, found, restored after a restart.

It also finds a player's seats wherever they are (:meth:`TableRegistry.tables_of`,
so ``/table leave`` works from any channel) and abandons the tables of a lost
channel or server (:meth:`~TableRegistry.abandon_channel`,
:meth:`~TableRegistry.abandon_guild`; the rules are in :mod:`bot.runtime.table.abandon`).
A sit-and-go still registering in a lost channel is cancelled and every entry
refunded.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.i18n import Command, Phrase
from bot.runtime.clock import Clock, LoopClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable, TableError
from bot.runtime.ports import ChipBank, HandStore, TableObserver, TableStore
from bot.runtime.table.abandon import Abandoned
from bot.runtime.table.live import DEFAULT_PAUSE, Table
from bot.runtime.table.policy import TablePolicy
from bot.runtime.tournament.mtt import MttRuntime, OpenThread
from bot.runtime.tournament.restore import RestorePorts, restore_tournaments, tournament_config
from bot.runtime.tournament.sit_and_go import SitAndGo, Status, TournamentSettings
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy

log = logging.getLogger(__name__)


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
        tournaments: RestorePorts | None = None,
        threads: OpenThread | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.economy = economy
        self.hands = hands
        self.tables = tables
        self.observer = observer
        self.clock: Clock = clock or LoopClock()
        self.rng = rng
        self.pause = pause
        self.names = names or _default_name
        self.tournaments = tournaments
        #: Opens a thread under a channel for a multi-table tournament's table.
        self.threads = threads
        #: ``owns(guild_id)``: this process plays that server's tables (its shard is
        #: ours, :mod:`bot.sharding`); a restart resumes only those.
        self.owns: Callable[[int], bool] = owns or _every_guild
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._sngs: dict[int, SitAndGoRuntime] = {}  # by channel, until its table closes
        self._opening: set[int] = set()  # channels whose table is being stored

    def __len__(self) -> int:
        return len(self._by_id)

    def all(self) -> list[Table]:
        return list(self._by_id.values())

    def in_channel(self, channel_id: int) -> Table:
        table = self._by_channel.get(channel_id)
        if table is None:
            raise NoTable(Phrase("refuse.no_table_here", create=Command("table create")))
        return table

    def find(self, channel_id: int) -> Table | None:
        return self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> Table:
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
        """Abandon the table or the registering sit-and-go of a lost channel or thread."""
        done: list[Abandoned | None] = []
        sng = self._sngs.get(channel_id)
        if sng is not None:  # first: if it starts meanwhile, its table is found below
            done.append(await self._cancel_registering(sng, reason))
        table = self._by_channel.get(channel_id)
        if table is not None:
            done.append(await table.abandon(reason))
        return [gone for gone in done if gone is not None]

    async def abandon_guild(self, guild_id: int, reason: str) -> list[Abandoned]:
        """Abandon every table and sit-and-go of a server the bot was removed from."""
        channels = {t.channel_id for t in self._by_id.values() if t.guild_id == guild_id}
        channels |= {c for c, sng in self._sngs.items() if sng.guild_id == guild_id}
        done: list[Abandoned] = []
        for channel_id in sorted(channels):
            done += await self.abandon_channel(channel_id, reason)
        return done

    async def _cancel_registering(self, sng: SitAndGoRuntime, reason: str) -> Abandoned | None:
        """A sit-and-go not started yet: cancel it and refund every entry."""
        store = self.tournaments
        async with sng.lock:
            if sng.table is not None or sng.sng.status is not Status.REGISTERING:
                return None  # it started meanwhile: its table is abandoned instead
            if store is not None:
                await store.cancel_tournament(sng.tournament_id, reason)
            sng.sng.cancel()
            self._sngs.pop(sng.channel_id, None)
            s = sng.sng.settings
            return Abandoned(
                table_id=0, guild_id=sng.guild_id, channel_id=sng.channel_id,
                title=f"sit and go #{sng.tournament_id}", reason=reason,
                returned=dict.fromkeys(sng.sng.entrants, s.buy_in), tournament=True,
                hand_cancelled=None,
            )

    def _make(
        self,
        table_id: int,
        config: TableConfig,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        hands_dealt: int = 0,
        *,
        policy: TablePolicy | None = None,
    ) -> Table:
        """Build a table with ``policy`` (default: cash) on the registry's services."""
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
        )
        self._by_channel[channel_id] = table
        self._by_id[table_id] = table
        return table

    def _forget(self, table: Table) -> None:
        self._by_channel.pop(table.channel_id, None)
        self._by_id.pop(table.table_id, None)
        sng = self._sngs.get(table.channel_id)
        if sng is not None and sng.table is table:
            del self._sngs[table.channel_id]
        for channel, rt in list(self._sngs.items()):  # a multi-table one: its last table
            if isinstance(rt, MttRuntime) and not rt.tables and rt.sng.status in (
                Status.FINISHED, Status.CANCELLED
            ):
                del self._sngs[channel]

    # -- sit-and-go tournaments ---------------------------------------------------
    def tournament_in(self, channel_id: int) -> SitAndGoRuntime:
        sng = self._sngs.get(channel_id)
        if sng is None:
            raise NoTable(Phrase("refuse.no_tournament_here", create=Command("tournament create")))
        return sng

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int,
        settings: TournamentSettings, clock: int = 30, time_bank: int = 60,
        language: str = "en",
    ) -> SitAndGoRuntime:
        """Open registration for a sit-and-go in a channel (one table or tournament each);
        its tables speak ``language``."""
        store = self.tournaments
        if store is None:
            raise TableError(Phrase("refuse.no_tournaments"))
        if channel_id in self._by_channel or channel_id in self._sngs:
            raise TableError(Phrase("refuse.channel_busy"))
        config = tournament_config(settings, clock, time_bank, language)
        tournament_id = await store.create_tournament(
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
            buy_in=settings.buy_in, starting_stack=settings.starting_stack,
            settings={**settings.storage_settings(), "clock": clock, "time_bank": time_bank,
                      "language": config.language},
        )
        return self.add_tournament(
            tournament_id, SitAndGo(settings, self.clock), config,
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
        )

    def add_tournament(
        self, tournament_id: int, sng: SitAndGo, config: TableConfig, *,
        guild_id: int, channel_id: int, creator_id: int,
    ) -> SitAndGoRuntime:
        """Keep a sit-and-go's runtime (new, or rebuilt after a restart) for its channel."""
        store = self.tournaments
        assert store is not None

        def make_table(table_id: int, cfg: TableConfig, policy: TournamentPolicy) -> Table:
            return self._make(table_id, cfg, guild_id, channel_id, creator_id, policy=policy)

        def make_in(
            table_id: int, thread: int, cfg: TableConfig, policy: TournamentPolicy
        ) -> Table:
            return self._make(table_id, cfg, guild_id, thread, creator_id, policy=policy)

        kw: dict[str, Any] = {"tournament_id": tournament_id, "sng": sng, "config": config,
              "guild_id": guild_id, "channel_id": channel_id, "creator_id": creator_id,
              "store": store, "make_table": make_table, "names": self.names, "rng": self.rng}
        runtime: SitAndGoRuntime
        if sng.settings.multi_table:
            if self.threads is None:
                raise TableError(Phrase("refuse.mtt.unavailable"))
            runtime = MttRuntime(threads=self.threads, make_mtt_table=make_in, **kw)
        else:
            runtime = SitAndGoRuntime(**kw)
        self._sngs[channel_id] = runtime
        return runtime

    def drop_tournament(self, channel_id: int) -> None:
        """Forget a tournament that could not be restored (and its table, if made)."""
        runtime = self._sngs.pop(channel_id, None)
        table = None if runtime is None else runtime.table
        if table is not None:
            self._by_channel.pop(table.channel_id, None)
            self._by_id.pop(table.table_id, None)

    async def create(
        self, *, guild_id: int, channel_id: int, creator_id: int, config: TableConfig
    ) -> Table:
        """Open a table in a channel (one per channel or thread)."""
        self.check_free(channel_id)
        self._opening.add(channel_id)  # two creates at once: the second is refused
        try:
            table_id = await self.tables.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                config=config.to_dict(),
            )
        finally:
            self._opening.discard(channel_id)
        return self._make(table_id, config, guild_id, channel_id, creator_id)

    def check_free(self, channel_id: int) -> None:
        """Refuse a channel that has (or is opening) a table or a tournament."""
        if channel_id in self._by_channel or channel_id in self._opening:
            raise TableError(Phrase("refuse.channel_has_table", info=Command("table info")))
        if channel_id in self._sngs:
            raise TableError(
                Phrase("refuse.channel_has_tournament", info=Command("tournament info")))

    async def restore(self) -> list[Table]:
        """Bring back every open table and tournament after a restart and resume (or
        cancel) unfinished hands; the restored tables, tournament tables first."""
        restored: list[Table] = []
        if self.tournaments is not None:
            restored += await restore_tournaments(self, self.tournaments)
        for stored in await self.tables.open_tables():
            if not self.owns(stored.guild_id):
                continue  # another process's shard resumes it
            try:
                config = TableConfig.from_dict(dict(stored.config))
            except TableError as exc:
                log.error("table %s has unusable settings (%s); left closed", stored.table_id, exc)
                continue
            table = self._make(
                stored.table_id,
                config,
                stored.guild_id,
                stored.channel_id,
                stored.creator_id,
                hands_dealt=stored.hands_dealt,
            )
            for seat, user_id, stack, sitting_out in stored.seats:
                name = await self.names(stored.guild_id, user_id)
                table.restore_seat(seat, user_id, name, stack, sitting_out)
            unfinished = await self.hands.unfinished_hands(stored.table_id)
            for hand in unfinished:
                await table.resume(hand)
            if not unfinished:
                async with table.lock:
                    table.start()
            restored.append(table)
        return restored

    async def shutdown(self) -> None:
        for rt in list(self._sngs.values()):
            if isinstance(rt, MttRuntime):
                await rt.director.stop()
        for table in self.all():
            await table.shutdown()


def _every_guild(guild_id: int) -> bool:
    return True


async def _default_name(guild_id: int, user_id: int) -> str:
    return f"player {user_id}"
