"""Scheduled tournaments (issue 34): a start time in a member's words, and its timer.

* :func:`parse_start` reads what a member typed for ``/tournament create starts``:
  a date and time (``2026-12-11 21:00``, or ``21:00``: the next such moment) read in
  the server's time zone, or a delay (``in 2 hours``, ``90m``, ``1h30``, ``en 2 horas``,
  ``tra 2 ore``, ``em 30 minutos``). It returns Unix seconds (UTC), which is what is
  stored (the tournament's settings, ``starts_at``) and shown (``<t:…:F>``, ``<t:…:R>``:
  every reader's client words the moment in their own time zone and language).
  A local time the clocks skip (a daylight-saving gap) is read as Python's ``zoneinfo``
  does (``fold=0``: the offset before the change).
* :class:`StartTimers` waits, on the bot's clock, for each scheduled tournament's
  start and then calls the service back (:meth:`~bot.runtime.tournament.service.
  TournamentService.start_scheduled`): the tournament starts when it has at least its
  minimum players, otherwise it is cancelled and every entry refunded. A start time
  that passed while the bot was down fires at once after the restart.

Until its start a scheduled tournament keeps registration open; it does not start
when it fills (the start time was announced), but ``/tournament start`` may still
start it early.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from enum import Enum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import Phrase
from bot.runtime.clock import Clock
from bot.runtime.errors import TableError

log = logging.getLogger(__name__)

__all__ = [
    "EARLIEST", "LATEST", "Moment", "StartTimers", "WallClock", "next_week", "parse_start",
    "parse_zone", "stamp",
]

#: The soonest a start time may be (seconds from now): time for members to register.
EARLIEST = 60
#: The latest a start time may be (seconds from now): 90 days.
LATEST = 90 * 24 * 3600

#: Unix seconds now (the database's clock, which tests replace).
WallClock = Callable[[], float]

class Moment(Enum):
    """What happened to a scheduled tournament, as its calendar entry (a Discord server's
    scheduled event, :mod:`bot.adapter.guild_events`) follows it."""

    SCHEDULED = "scheduled"  # created (or restored after a restart)
    CHANGED = "changed"  # registrations, or its start time (what its event shows)
    STARTED = "started"
    ENDED = "ended"
    CANCELLED = "cancelled"  # before its start


_UNITS = {
    "d": 86_400, "day": 86_400, "days": 86_400, "día": 86_400, "días": 86_400,
    "dia": 86_400, "dias": 86_400, "giorno": 86_400, "giorni": 86_400,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "hora": 3600,
    "horas": 3600, "ora": 3600, "ore": 3600,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "minuto": 60,
    "minutos": 60, "minuti": 60,
}
_PREFIX = re.compile(r"^(?:in|en|em|tra|fra|dentro\s+de|daqui\s+a)\s+")
_PART = re.compile(r"(\d{1,4})\s*([a-zíá]+)?\s*(?:,|and|y|e)?\s*")
_DATE = re.compile(
    r"^(?:(\d{4})-(\d{1,2})-(\d{1,2})[ t]+)?(\d{1,2})[:h.](\d{2})$"
)


def parse_zone(name: str) -> ZoneInfo:
    """An IANA time zone (``Europe/Rome``, ``America/Sao_Paulo``, ``UTC``); refuses others."""
    cleaned = name.strip().replace(" ", "_")
    try:
        if cleaned and ".." not in cleaned and not cleaned.startswith("/"):
            return ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    raise TableError(Phrase("refuse.schedule.bad_zone", zone=name[:60]))


def _delay(text: str) -> float | None:
    """Seconds of ``in 2 hours`` / ``1h30`` / ``90m``; None when it is not a delay."""
    rest = _PREFIX.sub("", text)
    total, pos, last_unit = 0, 0, 0
    while pos < len(rest):
        match = _PART.match(rest, pos)
        if match is None or match.end() == pos:
            return None
        count, unit = int(match.group(1)), match.group(2)
        if unit is None:  # "1h30": minutes after hours
            if last_unit != 3600:
                return None
            seconds = 60
        elif unit in _UNITS:
            seconds = _UNITS[unit]
        else:
            return None
        total += count * seconds
        last_unit, pos = seconds, match.end()
    return float(total) if total else None


def _moment(text: str, now: float, zone: ZoneInfo) -> float | None:
    """Unix seconds of ``2026-12-11 21:00`` or ``21:00`` (the next one) in ``zone``."""
    match = _DATE.match(text)
    if match is None:
        return None
    year, month, day, hour, minute = match.groups()
    try:
        if year is None:
            today = datetime.fromtimestamp(now, zone)
            local = today.replace(hour=int(hour), minute=int(minute), second=0, microsecond=0)
            if local.timestamp() <= now:
                local = (today + timedelta(days=1)).replace(
                    hour=int(hour), minute=int(minute), second=0, microsecond=0)
        else:
            local = datetime(int(year), int(month), int(day), int(hour), int(minute),
                             tzinfo=zone)
    except ValueError:
        return None
    return local.timestamp()


def parse_start(text: str, now: float, zone: ZoneInfo) -> float:
    """The start time a member typed, as Unix seconds (see the module docstring);
    refuses one that cannot be read, is less than :data:`EARLIEST` seconds away, or
    more than :data:`LATEST`."""
    cleaned = " ".join(text.strip().lower().split())
    delay = _delay(cleaned)
    at = now + delay if delay is not None else _moment(cleaned, now, zone)
    if at is None:
        raise TableError(Phrase("refuse.schedule.unreadable", text=text[:60], zone=zone.key))
    at = float(int(at))
    if at < now + EARLIEST:
        raise TableError(Phrase("refuse.schedule.too_soon", when=stamp(at, "F")))
    if at > now + LATEST:
        raise TableError(Phrase("refuse.schedule.too_late", count=LATEST // 86_400))
    return at


def next_week(starts_at: float, zone: ZoneInfo, now: float) -> float:
    """A weekly game's next start: the same wall-clock time in ``zone`` a week later (so
    21:00 stays 21:00 across a daylight-saving change), the first one at least
    :data:`EARLIEST` seconds after ``now``."""
    local = datetime.fromtimestamp(starts_at, zone).replace(tzinfo=None)
    while True:
        local += timedelta(days=7)
        at = local.replace(tzinfo=zone).timestamp()
        if at >= now + EARLIEST:
            return float(int(at))


def stamp(at: float, style: str) -> str:
    """A Discord timestamp (``F``: the full date and time, ``R``: "in 2 hours"), which
    every reader's client words in their own time zone and language."""
    return f"<t:{int(at)}:{style}>"


def utc_text(at: float) -> str:
    """``2026-12-11 20:00 UTC``: the moment in logs."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


class StartTimers:
    """One timer per scheduled tournament: at its start time ``fire(tournament_id,
    late)`` runs (``late``: the start time had already passed when the timer was set,
    the bot being down then)."""

    def __init__(
        self, clock: Clock, wall: WallClock, fire: Callable[[int, bool], Awaitable[None]]
    ) -> None:
        self.clock = clock
        self.wall = wall
        self._fire = fire
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, tournament_id: int, starts_at: float) -> None:
        """Wait for ``starts_at`` (Unix seconds) and fire; replaces an earlier timer."""
        self.disarm(tournament_id)
        late = starts_at <= self.wall()
        self._tasks[tournament_id] = asyncio.create_task(
            self._run(tournament_id, starts_at, late), name=f"tournament-start-{tournament_id}")

    def disarm(self, tournament_id: int) -> None:
        """Forget a tournament's timer (it started or was cancelled)."""
        task = self._tasks.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    @property
    def armed(self) -> frozenset[int]:
        return frozenset(self._tasks)

    async def _run(self, tournament_id: int, starts_at: float, late: bool) -> None:
        while (left := starts_at - self.wall()) > 0:  # the wall clock has the last word
            await self.clock.sleep(left)
        self._tasks.pop(tournament_id, None)
        try:
            await self._fire(tournament_id, late)
        except Exception:  # one tournament's trouble never stops the others' timers
            log.exception("tournament %s: the scheduled start at %s failed",
                          tournament_id, utc_text(starts_at))

    async def stop(self) -> None:
        """Stop every timer (the bot is stopping; the start times stay stored)."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
