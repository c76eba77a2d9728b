"""Cash game nights on the server's calendar (issue 34).

An organiser schedules a night in a channel (``/schedule cash``): a start time, the
game in their words, weekly or not. Nothing is bought in advance: at the start the
channel is told to open the table (``/table create``, as on any night). The night
follows the channel's cash table:

* ``scheduled`` until a cash table is open in its channel from :data:`EARLY` before
  its start (one opened earlier and still open at the start counts too), then
  ``active`` (:class:`~bot.runtime.tournament.starts.Moment` ``STARTED``);
* ``over`` when that table closes (``ENDED``), or when no table opened within
  :data:`NIGHT_LENGTH` of its start (``CANCELLED``: its calendar entry goes);
* ``cancelled`` by its creator or a server manager before it is under way.

A weekly night's next one is scheduled when it is over or cancelled alone (the same
local time a week later in the series' time zone:
:func:`~bot.runtime.tournament.starts.next_week`). The nights are stored
(:class:`CashNightStore`) and read back after a restart: one whose start passed
meanwhile is settled by the same rules at once. The Discord side follows each
through :attr:`CashNights.calendar` (the server's scheduled event,
:mod:`bot.adapter.guild_events`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from bot.i18n import Command, Phrase
from bot.runtime.caps import Opening
from bot.runtime.config import TableConfig
from bot.runtime.errors import NotAllowed, TableError
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Abandoned
from bot.runtime.table.live import Table
from bot.runtime.table.policy import CashPolicy
from bot.runtime.tournament.restore import tell_channel
from bot.runtime.tournament.starts import Moment, StartTimers, WallClock, next_week, stamp

log = logging.getLogger(__name__)

__all__ = ["EARLY", "NIGHT_LENGTH", "CashNight", "CashNightStore", "CashNights"]

#: How long after its start a night waits for its table before it is over.
NIGHT_LENGTH = 4 * 3600.0
#: How early before its start a table opened in the channel makes the night live.
EARLY = 3600.0


@dataclass(eq=False)
class CashNight:
    """One scheduled cash game night (as stored: ``cash_nights``)."""

    night_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    starts_at: float
    weekly: str | None  # a weekly series' time zone
    about: str  # the organiser's words: the game, the stakes
    language: str
    status: str = "scheduled"

    @property
    def calendar_key(self) -> str:
        """Its name in the bot's state (its Discord event, its reminder)."""
        return f"cash:{self.night_id}"

    @property
    def waiting(self) -> bool:
        """Still to come (its reminder is due only then)."""
        return self.status == "scheduled"


class CashNightStore(Protocol):
    """What the nights need from storage."""

    async def create_cash_night(
        self, *, guild_id: int, channel_id: int, creator_id: int, starts_at: float,
        weekly: str | None, about: str, language: str,
    ) -> CashNight: ...

    async def set_cash_night_status(self, night_id: int, status: str) -> None: ...

    async def reschedule_cash_night(self, night_id: int, starts_at: float) -> None: ...

    async def open_cash_nights(self) -> list[CashNight]: ...


def _check_organiser(night: CashNight, user_id: int, is_manager: bool, what: str) -> None:
    """Changing a night (``what``: move, cancel) is its creator's or a manager's, before
    it is under way."""
    if user_id != night.creator_id and not is_manager:
        raise NotAllowed(Phrase(f"refuse.creator_only.night_{what}"))
    if night.status != "scheduled":
        raise TableError(Phrase("refuse.schedule.night_under_way", number=str(night.night_id)))


def _is_cash(table: Table | None) -> bool:
    return table is not None and isinstance(table.policy, CashPolicy)


class CashNights:
    """The scheduled cash game nights of the servers this process plays (see the module
    docstring); told by the registry of each table opened and closed."""

    def __init__(self, registry: TableRegistry, store: CashNightStore, wall: WallClock) -> None:
        self.registry = registry
        self.store = store
        self.wall = wall
        self._nights: dict[int, CashNight] = {}
        self._starts = StartTimers(registry.clock, wall, self._due)
        self._ends = StartTimers(registry.clock, wall, self._expire)
        self._tasks: set[asyncio.Task[None]] = set()
        #: Told what happens to each night (the server's scheduled event); must not block.
        self.calendar: Callable[[CashNight, Moment], None] | None = None
        registry.add_occupant(self)
        registry.opened.append(self.table_opened)

    def scheduled(self, guild_id: int) -> list[CashNight]:
        """A server's nights to come or under way, soonest first."""
        return sorted((n for n in self._nights.values() if n.guild_id == guild_id),
                      key=lambda n: (n.starts_at, n.night_id))

    def check_free(self, channel_id: int) -> None:
        """Refuse a channel that has a night to come or under way."""
        here = next((n for n in self._nights.values() if n.channel_id == channel_id), None)
        if here is not None:
            raise TableError(Phrase("refuse.schedule.night_here", number=str(here.night_id)))

    async def schedule(
        self, *, guild_id: int, channel_id: int, creator_id: int, starts_at: float,
        weekly: str | None = None, about: str = "", language: str = "en",
    ) -> CashNight:
        """Put a night on the calendar; refuses a channel that has one already."""
        self.check_free(channel_id)
        night = await self.store.create_cash_night(
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
            starts_at=starts_at, weekly=weekly, about=about, language=language)
        self._add(night)
        return night

    def _add(self, night: CashNight) -> None:
        self._nights[night.night_id] = night
        if night.status == "scheduled":
            self._starts.arm(night.night_id, night.starts_at)
            self._ends.arm(night.night_id, night.starts_at + NIGHT_LENGTH)
        self._tell(night, Moment.SCHEDULED)

    def _tell(self, night: CashNight, moment: Moment) -> None:
        if self.calendar is not None:
            self.calendar(night, moment)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- its moments ----------------------------------------------------------------------
    async def _due(self, night_id: int, late: bool) -> None:
        """The start time came: live if its table is open, else the channel is told."""
        night = self._nights.get(night_id)
        if night is None or night.status != "scheduled":
            return
        if self.wall() >= night.starts_at + NIGHT_LENGTH:
            return  # the bot was down all night: it is over (:meth:`_expire`), nothing to say
        if _is_cash(self.registry.find(night.channel_id)):
            await self._activate(night)
            return
        await self._say(night, Phrase(
            "notice.cash_night_starts", number=str(night.night_id),
            about=f" ({night.about})" if night.about else "", create=Command("table create")))

    def table_opened(self, table: Table) -> None:
        """The registry's hook: a cash table opened in a night's channel near its start."""
        if not _is_cash(table):
            return
        for night in list(self._nights.values()):
            if (night.channel_id == table.channel_id and night.status == "scheduled"
                    and self.wall() >= night.starts_at - EARLY):
                self._spawn(self._activate(night))

    async def _activate(self, night: CashNight) -> None:
        if night.status != "scheduled":
            return
        night.status = "active"
        self._starts.disarm(night.night_id)
        self._ends.disarm(night.night_id)
        await self.store.set_cash_night_status(night.night_id, "active")
        self._tell(night, Moment.STARTED)

    def table_closed(self, table: Table) -> None:
        """The registry's occupant hook: an active night's table closed, it is over."""
        for night in list(self._nights.values()):
            if night.channel_id == table.channel_id and night.status == "active":
                self._spawn(self._finish(night, "over", Moment.ENDED))

    async def _expire(self, night_id: int, late: bool) -> None:
        """No table opened within :data:`NIGHT_LENGTH` of the start: the night is over."""
        night = self._nights.get(night_id)
        if night is not None and night.status == "scheduled":
            await self._finish(night, "over", Moment.CANCELLED)

    async def move(
        self, night: CashNight, user_id: int, starts_at: float, *, is_manager: bool = False
    ) -> None:
        """A new start time for a night not under way (its creator or a manager)."""
        _check_organiser(night, user_id, is_manager, "move")
        await self.store.reschedule_cash_night(night.night_id, starts_at)
        night.starts_at = starts_at
        self._starts.arm(night.night_id, starts_at)
        self._ends.arm(night.night_id, starts_at + NIGHT_LENGTH)
        self._tell(night, Moment.CHANGED)

    async def cancel(
        self, night: CashNight, user_id: int, *, is_manager: bool = False, series: bool = False
    ) -> None:
        """Cancel a night not under way (its creator or a manager); with ``series`` a
        weekly night's series ends too."""
        _check_organiser(night, user_id, is_manager, "cancel")
        if series:
            night.weekly = None
        await self._finish(night, "cancelled", Moment.CANCELLED)

    async def _finish(self, night: CashNight, status: str, moment: Moment) -> None:
        if self._nights.pop(night.night_id, None) is None:
            return  # settled already
        self._starts.disarm(night.night_id)
        self._ends.disarm(night.night_id)
        night.status = status
        await self.store.set_cash_night_status(night.night_id, status)
        self._tell(night, moment)
        if night.weekly is not None:
            await self._next(night, night.weekly)

    async def _next(self, night: CashNight, zone: str) -> None:
        """Schedule a weekly night's next one and say so in its channel."""
        at = next_week(night.starts_at, ZoneInfo(zone), self.wall())
        try:
            nxt = await self.schedule(
                guild_id=night.guild_id, channel_id=night.channel_id,
                creator_id=night.creator_id, starts_at=at, weekly=zone, about=night.about,
                language=night.language)
        except TableError as exc:
            log.warning("weekly cash night %s stops: %s", night.night_id, exc)
            return
        await self._say(nxt, Phrase("notice.cash_night_next", number=str(nxt.night_id),
                                    when=stamp(at, "F"), relative=stamp(at, "R")))

    async def _say(self, night: CashNight, phrase: Phrase) -> None:
        await tell_channel(self.registry, TableConfig.create(language=night.language), phrase,
                           guild_id=night.guild_id, channel_id=night.channel_id,
                           creator_id=night.creator_id)

    # -- restart and shutdown ---------------------------------------------------------------
    async def restore(self) -> None:
        """After a restart (the tables restored first): every open night of our servers
        back on its timers; an active one whose table is gone is over."""
        for night in await self.store.open_cash_nights():
            if not self.registry.owns(night.guild_id):
                continue
            self._add(night)
            if night.status == "active" and not _is_cash(self.registry.find(night.channel_id)):
                await self._finish(night, "over", Moment.ENDED)

    async def shutdown(self) -> None:
        await self._starts.stop()
        await self._ends.stop()
        for task in list(self._tasks):
            task.cancel()

    # -- the registry's channel occupant (a night holds no channel) ------------------------
    def refusal(self, channel_id: int) -> Phrase | None:
        return None

    def channels_in(self, guild_id: int) -> set[int]:
        return set()

    def openings(self, guild_id: int) -> list[Opening]:
        return []

    async def abandon_channel(self, channel_id: int, reason: str) -> Abandoned | None:
        """A lost channel: its night is cancelled, and its series with it."""
        for night in list(self._nights.values()):
            if night.channel_id == channel_id:
                night.weekly = None
                await self._finish(night, "cancelled", Moment.CANCELLED)
        return None
