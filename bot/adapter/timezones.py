"""Each server's time zone, in memory (issue 34): what a start time a member types is
read in (``/tournament create starts``), set by a manager with ``/schedule timezone``.

Loaded once at start (:meth:`ServerZones.load`, from
:class:`bot.storage.timezones.TimezoneRepo`): a server's commands run in one process
(:mod:`bot.sharding`), so this copy is the truth for the servers it serves. A server
that never set one reads times in UTC. Times are shown as Discord timestamps, which
every reader's client words in their own time zone: the server's zone only reads input.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.runtime.tournament.starts import parse_zone
from bot.storage.timezones import TimezoneRepo

__all__ = ["DEFAULT_ZONE", "ServerZones"]

#: The zone of a server that never chose one.
DEFAULT_ZONE = ZoneInfo("UTC")


class ServerZones:
    """The time zones of the servers this process serves."""

    def __init__(self) -> None:
        self._known: dict[int, ZoneInfo] = {}
        self._repo: TimezoneRepo | None = None

    async def load(self, repo: TimezoneRepo) -> None:
        """Read every stored zone (at start) and write through ``repo`` from now on; a
        stored name this machine's zone database lacks reads as UTC."""
        self._repo = repo
        self._known = {}
        for guild_id, name in (await repo.all()).items():
            try:
                self._known[guild_id] = ZoneInfo(name)
            except (ValueError, KeyError):
                continue

    def of(self, guild_id: int) -> ZoneInfo:
        return self._known.get(guild_id, DEFAULT_ZONE)

    async def choose(self, guild_id: int, name: str) -> ZoneInfo:
        """Set a server's zone (refuses an unknown name: a TableError), stored first."""
        zone = parse_zone(name)
        if self._repo is not None:
            await self._repo.set(guild_id, zone.key)
        self._known[guild_id] = zone
        return zone
