"""The services the bot runs on, built once: the composition root's Discord-free half.

:meth:`App.open` builds, in order, everything the cogs share:

* ``db``: the :class:`bot.storage.Database`, opened (folder created, 0700) and migrated;
* ``economy``: the :class:`bot.economy.Economy` service on it (balances, the
  daily bonus, leaderboards, statistics);
* ``ports``: :class:`bot.storage_ports.StoragePorts`, the runtime's
  storage ports (chips, hands, tables, tournaments) on that database;
* ``caps``: the :class:`bot.runtime.caps.ServerCaps` on open cash tables: the
  settings' defaults, and each server's own read from storage (``/table limits``);
* ``registry``: the :class:`bot.runtime.registry.TableRegistry` of live tables
  (cash and tournament tables alike), reporting to the observer it is given. When a
  table's channel is lost, the Discord side asks it to abandon the table
  (``abandon``, ``abandon_channel``, ``abandon_guild``: see
  :mod:`bot.runtime.table.abandon`); ``tables_of`` finds a player's seats anywhere;
  its ``hearing`` knows the shards of ``SHARD_COUNT`` (the Discord side tells it which
  it cannot hear: ``deafen``, ``hear``, :mod:`bot.runtime.hearing`) and, from the
  database (:func:`follow_storage`), when it cannot write;
* ``tournaments``: the :class:`bot.runtime.tournament.service.TournamentService` above
  the registry: sit-and-gos and multi-table tournaments by channel (their threads
  opened by the ``threads`` port), registration, start, cancellation. It holds its
  channels in the registry, so a table cannot open there and a lost channel
  cancels a tournament still registering.

:meth:`App.restore` brings back, after a restart, the interrupted tournaments
first, then the open cash tables.

Who builds what: :meth:`bot.client.OmahaDealer.setup_hook` is the composition
root. It builds the Discord presenter (``bot.adapter.presenter.DiscordPresenter``)
and the display-name lookup, hands them to :meth:`App.open` as the runtime's
ports (:class:`~bot.runtime.ports.TableObserver` and a name function), then
builds the table actions the buttons use and the channel-loss handler
(``cogs.channel_loss.ChannelLoss``, which the presenter's ``on_channel_lost``
calls), loads the cogs (each ``setup(bot)``
takes what it needs from ``bot.app``) and restores the open tables. This module
does not import discord (only ``cogs/`` and ``bot/client.py`` may), which is
why the presenter is passed in rather than built here; it knows the presenter
only through the Protocol.

Shutdown, in the client's order: :meth:`stop_tables` before Discord
disconnects (a stopping table may still tell its channel), :meth:`close`
after (it stops the tables too, if that was not done, then closes the
database). Both are safe to call more than once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.app_metrics import MeteredObserver, meter_services
from bot.economy import Economy
from bot.metrics import Metrics
from bot.runtime.caps import ServerCaps, TableCaps
from bot.runtime.cash_nights import CashNights
from bot.runtime.hearing import Hearing
from bot.runtime.ports import TableObserver
from bot.runtime.registry import TableRegistry
from bot.runtime.table.live import Table
from bot.runtime.tournament.mtt import OpenThread
from bot.runtime.tournament.service import TournamentService
from bot.settings import Settings
from bot.storage import Database
from bot.storage.private import make_folder
from bot.storage.scheduled import PG_DUMP, BackupSchedule
from bot.storage.sealing import check_private
from bot.storage_ports import StoragePorts

log = logging.getLogger("bot.app")

#: ``names(guild_id, user_id)``: a player's display name (for seats restored after a restart).
NameLookup = Callable[[int, int], Awaitable[str]]


def check_deck_key(settings: Settings) -> None:
    """Before the bot starts: an existing deck key file must be private to its owner
    (:func:`~bot.storage.sealing.check_private` raises a
    :class:`~bot.storage.DeckKeyError` naming the ``chmod``); a missing one is created,
    private, when the database opens."""
    path = settings.key_path
    if path is not None and Path(path).exists():
        check_private(Path(path))


def scheduled_backups(settings: Settings, db: Database) -> BackupSchedule | None:
    """The backups ``BACKUP_EVERY`` asks for, started (None: not asked, in memory, or
    PostgreSQL, which says once that ``pg_dump`` is the way)."""
    if not settings.backup_every or settings.database_path == ":memory:":
        return None
    if settings.database_url:
        log.warning(PG_DUMP)
        return None
    schedule = BackupSchedule(settings.database_path, settings.backup_folder,
                              settings.backup_every, settings.backup_keep)
    schedule.start()
    return schedule


def follow_storage(db: Database, registry: TableRegistry) -> None:
    """While ``db`` cannot be written (:mod:`bot.storage.outage`) no table's clock runs and
    no hand is dealt; once it can, every table goes on (:meth:`TableRegistry.storage_up`)."""
    going_on: set[asyncio.Task[None]] = set()

    def told(down: bool) -> None:
        if down:
            registry.storage_down()
            return
        task = asyncio.get_running_loop().create_task(registry.storage_up(), name="storage-up")
        going_on.add(task)
        task.add_done_callback(going_on.discard)

    db.on_outage = told


def _make_parent(path: str) -> None:
    make_folder(Path(path).expanduser().parent)  # 0700: the database is nobody else's


@dataclass(eq=False)
class App:
    """The shared services of one running bot (see the module docstring)."""

    db: Database
    economy: Economy
    ports: StoragePorts
    caps: ServerCaps
    registry: TableRegistry
    tournaments: TournamentService
    #: the scheduled cash game nights (:mod:`bot.runtime.cash_nights`)
    cash_nights: CashNights
    #: this bot's instruments (:mod:`bot.metrics`): hands, actions, tables, writes
    metrics: Metrics = field(default_factory=Metrics)
    #: the scheduled backups (``BACKUP_EVERY``), running while the app is open
    backups: BackupSchedule | None = None
    _tables_stopped: bool = field(default=False, repr=False)
    _closed: bool = field(default=False, repr=False)

    @classmethod
    async def open(
        cls,
        settings: Settings,
        *,
        observer: TableObserver,
        names: NameLookup | None = None,
        threads: OpenThread | None = None,
        metrics: Metrics | None = None,
    ) -> App:
        """Open and migrate the database and build the services on it (counted in
        ``metrics``: the observer is told every event after it is counted)."""
        metrics = metrics or Metrics()
        path = settings.database_path
        if path != ":memory:":
            await asyncio.to_thread(_make_parent, path)
        if settings.database_url:  # PostgreSQL; the deck key stays a file
            db = await Database.open(settings.database_url.reveal(), key_path=settings.key_path,
                                     command_timeout=settings.database_timeout or None)
        else:
            db = await Database.open(path, key_path=settings.key_path)
        log.info("Database ready at %s", db.where)
        ports = StoragePorts(db)
        caps = ServerCaps(TableCaps(settings.tables_per_member, settings.tables_per_server), ports)
        await caps.load()
        registry = TableRegistry(
            economy=ports,
            hands=ports,
            tables=ports,
            observer=MeteredObserver(observer, metrics),
            names=names,
            owns=settings.shards.owns if settings.shards is not None else None,
            caps=caps,
            hearing=Hearing(settings.shards.count if settings.shards is not None else 1),
        )
        tournaments = TournamentService(registry, ports, threads, wall=lambda: db.clock())
        meter_services(metrics, db, registry, tournaments)
        follow_storage(db, registry)
        return cls(db=db, economy=Economy(db), ports=ports, caps=caps, registry=registry,
                   tournaments=tournaments, metrics=metrics,
                   cash_nights=CashNights(registry, ports, wall=lambda: db.clock()),
                   backups=scheduled_backups(settings, db))

    async def restore(self) -> list[Table]:
        """After a restart: resume the tournaments, then the cash tables, of our servers;
        the tables playing again, tournament tables first. While the database cannot be
        written (:mod:`bot.storage.outage`: its one line says why) this waits for it."""
        await self.db.writable()
        restored = await self.tournaments.restore()
        restored += await self.registry.restore()
        await self.cash_nights.restore()  # after the tables: an active night's may be open
        return restored

    async def stop_tables(self) -> None:
        """Stop every live table (clocks, hand loops); the database stays open."""
        if self._tables_stopped:
            return
        self._tables_stopped = True
        await self.tournaments.shutdown()
        await self.cash_nights.shutdown()
        await self.registry.shutdown()

    async def close(self) -> None:
        """Stop the tables (if not done yet) and close the database."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.backups is not None:
                await self.backups.stop()
            await self.stop_tables()
        finally:
            await self.db.close()
            log.info("Database closed")


__all__ = ["App", "NameLookup", "follow_storage"]
