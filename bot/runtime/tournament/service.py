"""The tournaments service: every sit-and-go and multi-table tournament, by channel.

It sits above the :class:`~bot.runtime.registry.TableRegistry` (which knows tables
only) and holds a channel from a tournament's creation until its last table
closes: the registry asks it before opening a table in a channel and tells it when
a table closes (it joins the registry as a
:class:`~bot.runtime.registry.ChannelOccupant`). Its tables are the registry's,
made with a tournament policy.

* :meth:`TournamentService.create` opens registration (one table or tournament a
  channel), within the caps on open tables: a tournament counts as one of its
  creator's and as its tables for the server (:mod:`bot.runtime.caps`;
  :meth:`~TournamentService.check_room` refuses before anything waits);
  :meth:`~TournamentService.in_channel` finds it for ``/tournament``;
* registration, the start and the cancellation are the runtime's
  (:class:`~bot.runtime.tournament.table_policy.SitAndGoRuntime`,
  :class:`~bot.runtime.tournament.mtt.MttRuntime`) and
  :mod:`bot.runtime.tournament.control`'s, through :meth:`~TournamentService.join_late`,
  :meth:`~TournamentService.start_now` and :meth:`~TournamentService.cancel`;
* a lost channel or server cancels a sit-and-go still registering and refunds
  every entry (:meth:`~TournamentService.abandon_channel`, called by the registry);
* a scheduled tournament (``starts_at``, issue 34) starts at its time when it has its
  minimum players, otherwise it is cancelled and refunded, and the channel is told
  (:meth:`~TournamentService.start_scheduled`, on :mod:`bot.runtime.tournament.starts`'
  timers, which a restart sets again);
* :meth:`~TournamentService.restore` brings every interrupted tournament back after
  a restart (:mod:`bot.runtime.tournament.restore`), before the cash tables.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from bot.i18n import Command, Phrase
from bot.runtime.caps import Opening
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable, NotAllowed, TableError
from bot.runtime.ports import StoredTournament
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Abandoned, Ending
from bot.runtime.table.live import Table
from bot.runtime.tournament import control
from bot.runtime.tournament.mtt import MttRuntime, OpenThread
from bot.runtime.tournament.restore import (
    AddRuntime,
    RestorePorts,
    refund_unresumable,
    restore_tournament,
    tell_channel,
    tournament_config,
)
from bot.runtime.tournament.sit_and_go import (
    SitAndGo,
    Status,
    TournamentRuleError,
    TournamentSettings,
)
from bot.runtime.tournament.starts import Moment, StartTimers, WallClock, next_week, stamp
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy

log = logging.getLogger(__name__)

__all__ = ["TournamentService"]


class TournamentService:
    """Every live tournament by channel, above the table registry (see the module
    docstring)."""

    def __init__(
        self, registry: TableRegistry, store: RestorePorts, threads: OpenThread | None = None,
        wall: WallClock = time.time,
    ) -> None:
        self.registry = registry
        self.store = store
        #: Opens a thread under a channel for a multi-table tournament's table.
        self.threads = threads
        self._by_channel: dict[int, SitAndGoRuntime] = {}  # until its last table closes
        #: The scheduled starts' timers, on the bot's clock and its wall clock.
        self.starts = StartTimers(registry.clock, wall, self.start_scheduled)
        #: Told what happens to each scheduled tournament (the Discord side keeps the
        #: server's scheduled event in step); it must not block.
        self.calendar: Callable[[SitAndGoRuntime, Moment], None] | None = None
        self._series: set[asyncio.Task[None]] = set()  # weekly series' next games
        registry.add_occupant(self)

    def all(self) -> list[SitAndGoRuntime]:
        """Every tournament kept (registering, or with a table open)."""
        return list(self._by_channel.values())

    def in_channel(self, channel_id: int) -> SitAndGoRuntime:
        """The tournament of a channel; raises :class:`NoTable`."""
        rt = self._by_channel.get(channel_id)
        if rt is None:
            raise NoTable(Phrase("refuse.no_tournament_here", create=Command("tournament create")))
        return rt

    def check_free(self, channel_id: int) -> None:
        """Refuse a channel that has (or is opening) a table, or a tournament."""
        self.registry.check_free(channel_id)

    def check_room(self, guild_id: int, creator_id: int, settings: TournamentSettings) -> None:
        """Refuse a tournament over the caps on open tables (:mod:`bot.runtime.caps`)."""
        self.registry.check_room(guild_id, creator_id, settings.most_tables)

    # -- creation, registration, start and cancellation ---------------------------------
    async def create(
        self, *, guild_id: int, channel_id: int, creator_id: int,
        settings: TournamentSettings, clock: int = 30, time_bank: int = 60,
        language: str = "en", starts_at: float | None = None, weekly: str | None = None,
    ) -> SitAndGoRuntime:
        """Open registration for a sit-and-go in a channel (one table or tournament each);
        its tables speak ``language``. With ``starts_at`` (Unix seconds) it starts then,
        not when it fills; with ``weekly`` (a time zone) it is a weekly series."""
        if self.registry.find(channel_id) is not None or channel_id in self._by_channel:
            raise TableError(Phrase("refuse.channel_busy"))
        config = tournament_config(settings, clock, time_bank, language)
        with self.registry.reserving(guild_id=guild_id, channel_id=channel_id,
                                     creator_id=creator_id, tables=settings.most_tables):
            tournament_id = await self.store.create_tournament(
                guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
                buy_in=settings.buy_in, starting_stack=settings.starting_stack,
                settings={**settings.storage_settings(), "clock": clock,
                          "time_bank": time_bank, "language": config.language,
                          **({} if starts_at is None else {"starts_at": starts_at}),
                          **({} if weekly is None else {"weekly": weekly})},
            )
            return self._add(
                tournament_id, SitAndGo(settings, self.registry.level_clock(guild_id)), config,
                guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
                starts_at=starts_at, weekly=weekly,
            )

    def _add(
        self, tournament_id: int, sng: SitAndGo, config: TableConfig, *,
        guild_id: int, channel_id: int, creator_id: int, starts_at: float | None = None,
        weekly: str | None = None,
    ) -> SitAndGoRuntime:
        """Keep a tournament's runtime (new, or rebuilt after a restart) for its channel;
        its tables are the registry's."""
        reg = self.registry

        def make_table(table_id: int, cfg: TableConfig, policy: TournamentPolicy) -> Table:
            return reg.make(table_id, cfg, guild_id=guild_id, channel_id=channel_id,
                            creator_id=creator_id, policy=policy)

        def make_in(
            table_id: int, thread: int, cfg: TableConfig, policy: TournamentPolicy
        ) -> Table:
            return reg.make(table_id, cfg, guild_id=guild_id, channel_id=thread,
                            creator_id=creator_id, policy=policy)

        runtime: SitAndGoRuntime
        kw: dict[str, Any] = {"tournament_id": tournament_id, "sng": sng, "config": config,
              "guild_id": guild_id, "channel_id": channel_id, "creator_id": creator_id,
              "store": self.store, "make_table": make_table, "names": reg.names, "rng": reg.rng}
        if sng.settings.multi_table:
            if self.threads is None:
                raise TableError(Phrase("refuse.mtt.unavailable"))
            runtime = MttRuntime(threads=self.threads, make_mtt_table=make_in, **kw)
        else:
            runtime = SitAndGoRuntime(**kw)
        self._by_channel[channel_id] = runtime
        if starts_at is not None and sng.status is Status.REGISTERING:
            runtime.starts_at, runtime.weekly = starts_at, weekly
            self.starts.arm(tournament_id, starts_at)
            self._tell(runtime, Moment.SCHEDULED)
        return runtime

    def _tell(self, rt: SitAndGoRuntime, moment: Moment) -> None:
        if self.calendar is not None and rt.starts_at is not None:
            self.calendar(rt, moment)
        if moment in (Moment.ENDED, Moment.CANCELLED) and rt.weekly is not None:
            task = asyncio.create_task(self._next_in_series(rt))
            self._series.add(task)
            task.add_done_callback(self._series.discard)

    async def _next_in_series(self, rt: SitAndGoRuntime) -> None:
        """Schedule a weekly series' next game in its channel, and say so there."""
        assert rt.weekly is not None and rt.starts_at is not None
        await asyncio.sleep(0)  # the closing table leaves the registry first
        at = next_week(rt.starts_at, ZoneInfo(rt.weekly), self.starts.wall())
        try:
            nxt = await self.create(
                guild_id=rt.guild_id, channel_id=rt.channel_id, creator_id=rt.creator_id,
                settings=rt.sng.settings, clock=rt.config.clock,
                time_bank=rt.config.time_bank, language=rt.config.language,
                starts_at=at, weekly=rt.weekly)
        except TableError as exc:  # the channel taken meanwhile, caps lowered...
            log.warning("weekly series of tournament %s stops: %s", rt.tournament_id, exc)
            return
        await tell_channel(self.registry, nxt.config, Phrase(
            "notice.series_next", number=str(nxt.tournament_id), when=stamp(at, "F"),
            relative=stamp(at, "R"), join=Command("tournament join")),
            guild_id=rt.guild_id, channel_id=rt.channel_id, creator_id=rt.creator_id)

    def scheduled(self, guild_id: int) -> list[SitAndGoRuntime]:
        """A server's tournaments waiting for their start time, soonest first."""
        waiting = [rt for rt in self._by_channel.values() if rt.guild_id == guild_id
                   and rt.starts_at is not None and rt.sng.status is Status.REGISTERING]
        return sorted(waiting, key=lambda rt: rt.starts_at or 0.0)

    async def start_scheduled(self, tournament_id: int, late: bool = False) -> None:
        """A scheduled tournament's start time came (``late``: while the bot was down):
        it starts with at least its minimum players, otherwise it is cancelled and every
        entry refunded; the channel is told which."""
        rt = next((r for r in self._by_channel.values()
                   if r.tournament_id == tournament_id), None)
        if rt is None or rt.starts_at is None:
            return
        when = stamp(rt.starts_at, "F")
        offline = Phrase("notice.scheduled_offline", when=when) if late else ""
        async with rt.lock:
            sng = rt.sng
            if sng.status is not Status.REGISTERING:
                return  # started early, or cancelled
            if sng.can_start:
                await rt.start()
                self._tell(rt, Moment.STARTED)
                rt.tell_tables(Phrase("notice.scheduled_starts", offline=offline,
                                      number=str(tournament_id),
                                      players=Phrase("players.count", count=len(sng.entrants))))
                return
            await self.store.cancel_tournament(tournament_id, "too few players at its start")
            sng.cancel()
        self.drop(rt.channel_id)
        self._tell(rt, Moment.CANCELLED)
        players = " ".join(f"<@{u}>" for u in sng.entrants)
        await tell_channel(
            self.registry, rt.config, Phrase(
                "notice.scheduled_cancelled", offline=offline, number=str(tournament_id),
                when=when, count=sng.settings.min_entrants, registered=len(sng.entrants),
                refund=Phrase("notice.scheduled_refunds", buy_in=sng.settings.buy_in,
                              players=players) if players else ""),
            guild_id=rt.guild_id, channel_id=rt.channel_id, creator_id=rt.creator_id)

    async def move(
        self, rt: SitAndGoRuntime, user_id: int, starts_at: float, *, is_manager: bool = False
    ) -> None:
        """A new start time for a scheduled tournament still registering (its creator or
        a manager); its timer and its event follow."""
        async with rt.lock:
            _check_organiser(rt, user_id, is_manager, "move")
            if rt.starts_at is None or rt.sng.status is not Status.REGISTERING:
                raise TournamentRuleError(Phrase("refuse.sng.already_started"))
            await self.store.reschedule_tournament(rt.tournament_id, starts_at)
            rt.starts_at = starts_at
            self.starts.arm(rt.tournament_id, starts_at)
        self._tell(rt, Moment.CHANGED)

    async def join(self, rt: SitAndGoRuntime, user_id: int, name: str) -> bool:
        """Pay the entry and register before the start; True when this entry started
        it (a tournament without a start time, full)."""
        started = await rt.join(user_id, name)
        self._tell(rt, Moment.CHANGED)
        return started

    async def leave(self, rt: SitAndGoRuntime, user_id: int) -> None:
        """Unregister before the start; the entry is refunded."""
        await rt.leave(user_id)
        self._tell(rt, Moment.CHANGED)

    async def join_late(self, rt: SitAndGoRuntime, user_id: int, name: str) -> int:
        """Register after the start (late registration open); returns the seat number."""
        seat = await control.join_late(rt, self.store, user_id, name)
        self._tell(rt, Moment.CHANGED)
        return seat

    async def start_now(
        self, rt: SitAndGoRuntime, user_id: int, *, is_manager: bool = False
    ) -> None:
        """Start before the tournament is full (the creator or a manager)."""
        await control.start_now(rt, user_id, is_manager=is_manager)
        self.starts.disarm(rt.tournament_id)
        self._tell(rt, Moment.STARTED)

    async def cancel(
        self, rt: SitAndGoRuntime, user_id: int, *, is_manager: bool = False,
        series: bool = False,
    ) -> control.Cancelling:
        """Cancel, or after the start agree to cancel (:func:`control.cancel`, RULES.md 7).
        A tournament cancelled before its start frees its channel at once; a weekly
        series goes on with its next game unless ``series`` (the whole series) is asked."""
        registering = rt.sng.status is Status.REGISTERING
        if series and registering:
            _check_series(rt, user_id, is_manager)
        now = await control.cancel(rt, self.store, user_id, is_manager=is_manager)
        if registering:
            self.drop(rt.channel_id)
            self._tell(rt, Moment.CANCELLED)
        return now

    def drop(self, channel_id: int) -> None:
        """Forget a channel's tournament (cancelled before its start, or one that could
        not be restored: its table too, if made)."""
        runtime = self._by_channel.pop(channel_id, None)
        if runtime is not None:
            self.starts.disarm(runtime.tournament_id)
        table = None if runtime is None else runtime.table
        if table is not None:
            self.registry.discard(table)

    # -- the registry's channel occupant ---------------------------------------------
    def refusal(self, channel_id: int) -> Phrase | None:
        """A channel with a tournament takes no table."""
        if channel_id in self._by_channel:
            return Phrase("refuse.channel_has_tournament", info=Command("tournament info"))
        return None

    def channels_in(self, guild_id: int) -> set[int]:
        """The channels of a server's tournaments."""
        return {c for c, rt in self._by_channel.items() if rt.guild_id == guild_id}

    def openings(self, guild_id: int) -> list[Opening]:
        """A server's tournaments under the caps: each its creator's, with its tables."""
        return [Opening(rt.creator_id, rt.tables_open) for rt in self._by_channel.values()
                if rt.guild_id == guild_id]

    async def abandon_channel(self, channel_id: int, reason: str) -> Abandoned | None:
        """A lost channel: a sit-and-go not started yet is cancelled and every entry
        refunded (one that started is abandoned with its table, by the registry)."""
        rt = self._by_channel.get(channel_id)
        if rt is None:
            return None
        async with rt.lock:
            if rt.table is not None or rt.sng.status is not Status.REGISTERING:
                return None  # it started meanwhile: its table is abandoned instead
            await self.store.cancel_tournament(rt.tournament_id, reason)
            rt.sng.cancel()
            self._by_channel.pop(rt.channel_id, None)
            rt.weekly = None  # a lost channel ends its series
            self._tell(rt, Moment.CANCELLED)
            return Abandoned(
                table_id=0, guild_id=rt.guild_id, channel_id=rt.channel_id,
                title=f"sit and go #{rt.tournament_id}", reason=reason, ending=Ending.REFUNDED,
                returned=dict.fromkeys(rt.sng.entrants, rt.sng.settings.buy_in),
            )

    def table_closed(self, table: Table) -> None:
        """A table closed: its sit-and-go is over; a multi-table one when its last is."""
        rt = self._by_channel.get(table.channel_id)
        if rt is not None and rt.table is table:
            del self._by_channel[table.channel_id]
            self._tell(rt, Moment.ENDED)
        for channel, rt in list(self._by_channel.items()):
            if isinstance(rt, MttRuntime) and not rt.tables and rt.sng.status in (
                Status.FINISHED, Status.CANCELLED
            ):
                del self._by_channel[channel]
                self._tell(rt, Moment.ENDED)

    # -- restart and shutdown -------------------------------------------------------------
    async def restore(self) -> list[Table]:
        """Resume every interrupted tournament of our servers after a restart; one whose
        stored facts do not fit is cancelled and refunded. Returns the tables playing."""
        tables: list[Table] = []
        for stored in await self.store.interrupted_tournaments():
            if not self.registry.owns(stored.guild_id):
                continue  # another process's shard resumes it
            try:
                tables += await restore_tournament(
                    self.registry, self.store, stored, self._restored(stored))
            except TableError as exc:  # TournamentRuleError included: the facts do not fit
                log.warning("tournament %s cannot be resumed: %s", stored.tournament_id, exc)
                self.drop(stored.channel_id)
                await refund_unresumable(self.registry, self.store, stored, exc)
        return tables

    def _restored(self, stored: StoredTournament) -> AddRuntime:
        """How :func:`restore_tournament` keeps the runtime it rebuilds for ``stored``."""

        starts_at = stored.settings.get("starts_at")
        weekly = stored.settings.get("weekly")

        def add(sng: SitAndGo, config: TableConfig) -> SitAndGoRuntime:
            return self._add(stored.tournament_id, sng, config, guild_id=stored.guild_id,
                             channel_id=stored.channel_id, creator_id=stored.creator_id,
                             starts_at=None if starts_at is None else float(starts_at),
                             weekly=None if weekly is None else str(weekly))

        return add

    async def shutdown(self) -> None:
        """The bot is stopping: end the multi-table directors' work (the registry stops
        the tables)."""
        await self.starts.stop()
        for rt in list(self._by_channel.values()):
            if isinstance(rt, MttRuntime):
                await rt.director.stop()


def _check_organiser(rt: SitAndGoRuntime, user_id: int, is_manager: bool, what: str) -> None:
    """Changing a scheduled game (``what``: move, cancel) is its creator's or a manager's."""
    if user_id != rt.creator_id and not is_manager:
        raise NotAllowed(Phrase(f"refuse.creator_only.tournament_{what}"))


def _check_series(rt: SitAndGoRuntime, user_id: int, is_manager: bool) -> None:
    """Ending a series is its creator's or a manager's: the weekly mark goes first, so
    the cancellation that follows schedules no next game."""
    _check_organiser(rt, user_id, is_manager, "cancel")
    rt.weekly = None
