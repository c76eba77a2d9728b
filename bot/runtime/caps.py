"""Caps on open tables, so that one member cannot cost everyone (issues 22 and 29).

What counts as **open**, each an :class:`Opening` of its creator:

* a cash table not yet closed (``/table close``, or abandoned with its channel): one table;
* a tournament (sit-and-go or multi-table) from its creation until its last table
  closes: a sit-and-go one table (registering or playing); a multi-table tournament
  the tables it has open, or while registering the most it can open (its largest
  field over its table size): a tournament that fills up can always start.

The cap **per member** counts the openings of a server that the member made (with
``/table create`` or ``/tournament create``), whether or not they still play there: a
multi-table tournament is one of its creator's, like a cash table (its number of
tables follows the field, not the creator). The cap **per server** counts the tables
of every opening of the server, a multi-table tournament's each (each deals on its own
clock). Something being stored counts already (two creations at once cannot both take
the last place). Before issue 29 tournaments did not count: two accounts could run any
number of two-player sit-and-gos dealing on timeouts; those now also stop by
themselves (:mod:`bot.runtime.tournament.idle`).

The operator's defaults come from the settings (``TABLES_PER_MEMBER``,
``TABLES_PER_SERVER``; 0 means no cap); a server manager changes their server's
(``/table limits``), kept in storage (:class:`~bot.runtime.ports.CapStore`) and read
once at start-up. The caps are held in memory so that ``/table create`` and
``/tournament create`` are refused before they are acknowledged, with no database
wait; a server's tables and its commands are always in the same process
(:mod:`bot.sharding`), so memory is the whole truth. The registry applies them
(:meth:`bot.runtime.registry.TableRegistry.check_room`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.runtime.ports import CapStore

__all__ = ["MEMBER_MAX", "SERVER_MAX", "Opening", "ServerCaps", "TableCaps"]

#: The largest caps a server manager may set (the storage's CHECKs say the same).
MEMBER_MAX = 100
SERVER_MAX = 1000


@dataclass(frozen=True, slots=True)
class Opening:
    """One thing a member opened, as the caps count it: its creator, and its tables."""

    creator_id: int
    tables: int = 1


@dataclass(frozen=True, slots=True)
class TableCaps:
    """How many openings one member, and how many tables the server, may have open at
    once (see the module docstring); 0: no cap."""

    per_member: int = 0
    per_server: int = 0


class ServerCaps:
    """The caps of every server: the operator's defaults, and what managers changed."""

    def __init__(self, defaults: TableCaps | None = None, store: CapStore | None = None) -> None:
        self.defaults = defaults or TableCaps()
        self.store = store
        self._own: dict[int, tuple[int | None, int | None]] = {}
        self._changing = asyncio.Lock()  # two managers at once: neither change is lost

    async def load(self) -> None:
        """Read every server's own caps (at start-up)."""
        if self.store is not None:
            self._own = dict(await self.store.stored_caps())

    def of(self, guild_id: int) -> TableCaps:
        """The caps in force in a server."""
        member, server = self._own.get(guild_id, (None, None))
        return TableCaps(
            self.defaults.per_member if member is None else member,
            self.defaults.per_server if server is None else server,
        )

    async def change(
        self, guild_id: int, *, per_member: int | None = None, per_server: int | None = None,
        reset: bool = False,
    ) -> TableCaps:
        """Set a server's caps (those given; the other stays as it was, or with ``reset``
        goes back to the operator's default), stored first."""
        for value, most in ((per_member, MEMBER_MAX), (per_server, SERVER_MAX)):
            if value is not None and not 1 <= value <= most:
                raise ValueError(f"a cap must be 1 to {most}, got {value}")
        async with self._changing:
            member, server = (None, None) if reset else self._own.get(guild_id, (None, None))
            new = (per_member if per_member is not None else member,
                   per_server if per_server is not None else server)
            if self.store is not None:
                await self.store.store_caps(guild_id, *new)
            self._own[guild_id] = new
        return self.of(guild_id)
