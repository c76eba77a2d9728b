"""The Discord client: a ``commands.Bot`` that is the bot's one composition root.

:meth:`OmahaDealer.setup_hook` builds everything the cogs share, once, and
keeps it as typed attributes (RoboDanny style); no cog builds a service or
looks another cog up:

* ``settings``: :class:`bot.settings.Settings`, read once at start;
* ``presenter``: the :class:`bot.adapter.presenter.DiscordPresenter` that shows what
  happens at the tables. It is built here, not in :mod:`bot.app`, because
  only ``cogs/`` and this module import discord;
* ``app``: the :class:`bot.app.App` services: the database (opened and
  migrated), the :class:`bot.economy.Economy` service, the runtime's storage
  ports, the :class:`bot.runtime.registry.TableRegistry`, which reports to
  the presenter and asks :meth:`OmahaDealer.display_name` for names, and the
  :class:`bot.runtime.tournament.service.TournamentService` above it;
* ``table_actions``: the :class:`bot.adapter.actions.TableActions` on that registry,
  shared by the table commands and the buttons and raise form (registered
  here, as dynamic items, so they answer whichever cogs are loaded);
* ``cooldowns`` and ``refreshes``: the :class:`bot.adapter.cooldowns.Cooldowns` of the
  costly commands (``COMMAND_COOLDOWN``, per member and command) and of ``/table
  refresh`` (per table), on the bot's wall clock :meth:`OmahaDealer.now`;
* ``replays``: the :class:`bot.adapter.replays.Replays` drawn so far (a bounded cache)
  and being drawn;
* ``channel_loss``: the :class:`cogs.channel_loss.ChannelLoss` that abandons
  a table whose channel is lost and tells its players by DM. The presenter's
  ``on_channel_lost`` (a request Discord refuses for good) is pointed at it
  here; the ``cogs.channel_loss`` cog hands it the gateway's deletions;
* the gateway's connections tell the registry which shards the dealer hears
  (:func:`bot.adapter.hearing.follow_gateway`): until a shard's connection is up, and
  whenever it drops, its tables' clocks stop (RULES.md 8).

``db``, ``economy``, ``registry`` and ``tournaments`` are shortcuts into ``app``. Then the
cogs load; each ``setup(bot)`` takes what it needs (the economy cog
``bot.app.economy``; the table cog the registry, the actions and the
presenter; the tournament cog the tournaments service), so they load in any order or
alone. Last, the open tables are restored (a restart resumes them), closed tables' late
results posted (:func:`bot.adapter.late_results.post_closed`) and the commands synced.
:meth:`OmahaDealer.close` stops the tables, disconnects, then closes the database.

The extension list is fixed (:data:`EXTENSIONS`); each cog module ends with
``async def setup(bot)``. Slash commands are synced at start, to
``DEV_GUILD_ID`` only when it is set (instant there), globally otherwise.

``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` are honoured by
:func:`configure_endpoints`: discord.py builds every REST URL from the class
attribute ``discord.http.Route.BASE`` (its own ``_set_api_version`` sets it the
same way) and connects the gateway to ``DiscordWebSocket.DEFAULT_GATEWAY``
unless it is resuming (then to the ``resume_gateway_url`` the gateway gave in
READY, which a proxy rewrites as it likes). Setting those two attributes is
enough for ``commands.Bot`` (not sharded; an ``AutoShardedBot`` would also
ask ``GET /gateway/bot``, which goes through ``Route.BASE`` as well).

Intents: only ``guilds``. Slash commands, buttons and modals arrive as
interactions whatever the intents; no privileged intent is asked for.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import logging
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord.ext import commands

from bot import render
from bot.adapter.guards import guard
from bot.adapter.login_errors import EXIT_SETTINGS, CannotConnect, log_in, stop_if_never_connected
from bot.adapter.meter import DiscordMeter, Gateway
from bot.adapter.names import member_name
from bot.logs import log_to_stderr
from bot.metrics import Metrics, OpsServer
from bot.settings import MissingToken, Settings, SettingsError

if TYPE_CHECKING:
    from bot.adapter.actions import TableActions
    from bot.adapter.cooldowns import Cooldowns
    from bot.adapter.guild_events import GuildEvents
    from bot.adapter.presenter import DiscordPresenter
    from bot.adapter.replays import Replays
    from bot.adapter.seasons import SeasonBook
    from bot.adapter.timezones import ServerZones
    from bot.app import App
    from bot.economy import Economy
    from bot.runtime.registry import TableRegistry
    from bot.runtime.tournament.service import TournamentService
    from bot.storage import Database
    from cogs.channel_loss import ChannelLoss

log = logging.getLogger("bot.client")

#: Seconds a looked-up display name is remembered.
NAME_TTL = 600.0

#: Every cog the bot loads, in order (the error handler first).
EXTENSIONS: tuple[str, ...] = (
    "cogs.errors",
    "cogs.economy",
    "cogs.table",
    "cogs.actions",
    "cogs.ledger",
    "cogs.bomb_pot",
    "cogs.tournament",
    "cogs.schedule",
    "cogs.help",
    "cogs.channel_loss",
    "cogs.hands",
    "cogs.prefs",
)


def configure_endpoints(settings: Settings) -> None:
    """Point discord.py's REST and gateway at the configured URLs (a proxy, a fake)."""
    discord.http.Route.BASE = settings.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def make_intents() -> discord.Intents:
    """The gateway intents the bot needs: guilds only (no privileged intents)."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class OmahaDealer(commands.Bot):
    """The bot. Build it with settings; ``setup_hook`` builds the services and loads cogs."""

    app: App
    presenter: DiscordPresenter
    table_actions: TableActions
    channel_loss: ChannelLoss
    cooldowns: Cooldowns
    refreshes: Cooldowns
    replays: Replays
    seasons: SeasonBook
    zones: ServerZones
    guild_events: GuildEvents

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        sync_commands: bool = True,
        restore_tables: bool = True,
        wall_clock: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=make_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # a message that pings says whom
            **options,
        )
        self.settings = settings
        self.extension_names: tuple[str, ...] = tuple(extensions)
        self.sync_commands = sync_commands
        self.restore_tables = restore_tables
        #: The database's clock from the start (a restart in the tests keeps its fake one).
        self.wall_clock = wall_clock
        self.synced: list[discord.app_commands.AppCommand] = []
        #: This bot's instruments (its own registry) and what the Discord side tells them.
        self.metrics = Metrics()
        self.meter = DiscordMeter(self.metrics)
        self.gateway = Gateway()
        self.gateway.listen(self)
        self.ops: OpsServer | None = None  # /metrics and /healthz, with METRICS_PORT
        self._app_open = False
        self._shutdown: asyncio.Task[None] | None = None
        self._names: dict[tuple[int | None, int], tuple[str, float]] = {}

    # -- shared services (built in setup_hook) -------------------------------------
    @property
    def db(self) -> Database:
        return self.app.db

    @property
    def economy(self) -> Economy:
        return self.app.economy

    @property
    def registry(self) -> TableRegistry:
        return self.app.registry

    @property
    def tournaments(self) -> TournamentService:
        return self.app.tournaments

    # -- start and stop ----------------------------------------------------------
    async def build_services(self) -> None:
        """The composition root: presenter, services on the database, table actions, buttons."""
        from bot.adapter.actions import TableActions
        from bot.adapter.cooldowns import REFRESH_INTERVAL, Cooldowns
        from bot.adapter.guild_events import GuildEvents
        from bot.adapter.hearing import follow_gateway
        from bot.adapter.night_ledger import closing_text
        from bot.adapter.pictures import PictureMode, render_gate
        from bot.adapter.presenter import DiscordPresenter
        from bot.adapter.replays import Replays
        from bot.adapter.seasons import SeasonBook
        from bot.adapter.timezones import ServerZones
        from bot.adapter.views import DYNAMIC_ITEMS
        from bot.app import App
        from cogs.channel_loss import ChannelLoss

        if self.settings.render_processes:
            render.use_processes(self.settings.render_processes)
        self.presenter = DiscordPresenter(self)
        self.presenter.pictures = PictureMode(self.settings.table_pictures)
        self.presenter.meter = self.meter
        self.meter.watch(gate=render_gate())
        self.app = await App.open(
            self.settings, observer=self.presenter, names=self._name_of,
            threads=self._open_thread, metrics=self.metrics,
        )
        self._app_open = True
        self.guild_events = GuildEvents(self)  # scheduled tournaments as server events
        self.app.tournaments.calendar = self.app.cash_nights.calendar = self.guild_events.tell
        if self.wall_clock is not None:  # before anything restored reads the time
            self.app.db.clock = self.wall_clock
        shards = self.settings.shards
        # no clock runs on a shard before its connection is up (RULES.md 8)
        follow_gateway(self, self.app.registry, shards.ids if shards is not None else (0,))
        await self.presenter.prefs.load(self.app.db.prefs)
        self.presenter.commitment_threads.state = self.app.db.state
        self.table_actions = TableActions(self.app.registry, self.presenter.take_click)
        self.cooldowns = Cooldowns(self.settings.command_cooldown, self.now)
        self.refreshes = Cooldowns(REFRESH_INTERVAL, self.now)
        self.replays = Replays()
        self.seasons = SeasonBook()
        await self.seasons.load(self.app.db.seasons)
        self.zones = ServerZones()  # the servers' time zones: start times are read in them
        await self.zones.load(self.app.db.timezones)
        self.channel_loss = ChannelLoss(self, self.app.registry, self.presenter)
        self.presenter.on_channel_lost = self.channel_loss.channel_refused
        self.presenter.closing_ledger = functools.partial(closing_text, self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    def now(self) -> float:
        """The bot's wall clock (Unix seconds): the database's, which tests replace."""
        return self.app.db.clock()

    async def _open_thread(self, guild_id: int, parent_id: int, name: str) -> int:
        from bot.adapter.threads import open_table_thread

        return await open_table_thread(self, parent_id, name)

    async def _name_of(self, guild_id: int, user_id: int) -> str:
        return await self.display_name(self.get_guild(guild_id), user_id)

    async def setup_hook(self) -> None:
        from bot.adapter.late_results import post_closed
        from bot.adapter.translator import CommandTranslator

        await self.tree.set_translator(CommandTranslator())
        await self.build_services()
        for name in self.extension_names:
            await self.load_extension(name)
        log.info("Loaded extensions: %s", ", ".join(self.extension_names))
        if self.settings.metrics_port is not None:
            await self.serve_metrics()
        if self.restore_tables:
            restored = await self.app.restore()
            if restored:
                log.info("Restored %d open tables", len(restored))
            await post_closed(self.presenter, self.app.registry)
        if self.sync_commands:
            await self.sync_application_commands()

    async def sync_application_commands(self, *, force: bool = False) -> list[str]:
        """Sync the slash commands where they changed since the last sync (``force``:
        anyway): to DEV_GUILD_ID only when set (the global ones cleared once), else
        globally (:mod:`bot.adapter.command_sync`). The places synced or cleared."""
        from bot.adapter.command_sync import CommandSync

        syncing = CommandSync(self, self.app.db.state)
        done = await syncing.at_start(self.settings.dev_guild_id, force=force)
        self.synced = syncing.synced
        return done

    async def serve_metrics(self) -> None:
        """``/metrics`` and ``/healthz`` on METRICS_HOST:METRICS_PORT; a port that cannot be
        had is logged as an error and the bot plays on without them."""
        ops = OpsServer(self.metrics, self.health, clock=self.now)
        host, port = self.settings.metrics_host, self.settings.metrics_port or 0
        try:
            await ops.start(host, port)
        except OSError as exc:
            log.error("No metrics: cannot listen on %s:%d (%s)", host, port, exc.strerror)
            return
        self.ops = ops

    async def health(self) -> str | None:
        """``/healthz``: None while the gateway is connected and the database would take a
        write, else why not (one line)."""
        from bot.app_metrics import database_problem

        if not self._app_open:
            return "not started"
        return self.gateway.problem() or await database_problem(self.app.db)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch; an interaction's arrival is noted first (its handlers
        run later, as tasks: the acknowledgement and prompt latencies start here)."""
        if event_name == "interaction" and args:
            self.meter.arrived(args[0].id)
        super().dispatch(event_name, *args, **kwargs)
        if event_name == "disconnect":  # a connection lost, or an attempt that failed
            stop_if_never_connected(self, self.settings.gateway_url)

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "Logged in as %s (id %s) in %d servers",
            user, user.id if user else "?", len(self.guilds),
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember each user's language: their hole-card DMs (no interaction) speak it."""
        presenter = getattr(self, "presenter", None)
        if presenter is not None:
            presenter.remember_locale(interaction.user.id, interaction.locale)

    @property
    def shutting_down(self) -> bool:
        """True once :meth:`close` began (requests may fail as the session closes)."""
        return self._shutdown is not None

    async def close(self) -> None:
        """Stop the tables, disconnect, close the database; safe to call many times.

        Every caller waits for the one shutdown (a signal handler and ``async
        with`` may both ask); it is shielded so that a cancelled caller cannot
        leave the database half closed (its thread would keep the process alive).
        """
        if self._shutdown is None:
            self._shutdown = asyncio.get_running_loop().create_task(self._shut_down())
        await asyncio.shield(self._shutdown)

    async def _shut_down(self) -> None:
        if self.ops is not None:
            await self.ops.stop()
        if self._app_open:
            try:
                await self.app.stop_tables()
            except Exception:
                log.exception("Stopping the tables failed")
            self.presenter.close()
        if self.settings.render_processes:
            render.stop_processes()
        try:
            await super().close()
        finally:
            if self._app_open:
                self._app_open = False
                await self.app.close()

    # -- helpers for cogs ------------------------------------------------------------
    async def display_name(self, guild: discord.Guild | None, user_id: int) -> str:
        """The name shown for a member (:func:`bot.adapter.names.member_name`: the display
        name, or the username when the pictures cannot draw it): cache, then one REST call
        (remembered 10 minutes).

        Without the privileged members intent the member cache holds only the
        people seen in interactions, so leaderboards and tables ask Discord;
        remembering the answer keeps a page of ten names from costing ten calls
        every time.
        """
        key = (guild.id if guild is not None else None, user_id)
        remembered = self._names.get(key)
        now = time.monotonic()
        if remembered is not None and now - remembered[1] < NAME_TTL:
            return remembered[0]
        name = await self._lookup_name(guild, user_id)
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[key] = (name, now)
        return name

    async def _lookup_name(self, guild: discord.Guild | None, user_id: int) -> str:
        if guild is not None:
            member = guild.get_member(user_id)
            if member is None:
                with contextlib.suppress(discord.HTTPException):
                    member = await guild.fetch_member(user_id)
            if member is not None:
                return member_name(member)
        user = self.get_user(user_id)
        if user is None:
            with contextlib.suppress(discord.HTTPException):
                user = await self.fetch_user(user_id)
        return member_name(user) if user is not None else f"player {user_id}"


class ShardedOmahaDealer(OmahaDealer, commands.AutoShardedBot):
    """The bot over the gateway shards ``SHARD_IDS`` of ``SHARD_COUNT`` (one connection each).

    Everything else is :class:`OmahaDealer`'s: the registry resumes only the
    tables of servers on these shards (``settings.shards.owns``), so several
    processes with disjoint ranges share one database without touching each
    other's tables.
    """


def make_bot(settings: Settings) -> OmahaDealer:
    """The bot ``settings`` ask for: sharded when ``SHARD_COUNT`` is set, else one connection."""
    if settings.shards is None:
        return OmahaDealer(settings)
    return ShardedOmahaDealer(
        settings, shard_count=settings.shards.count, shard_ids=list(settings.shards.ids)
    )


def configure_logging(level: str, fmt: str = "text") -> None:
    """discord.py's log format (or one JSON object a line: ``fmt`` ``json``) on stderr at
    ``level``; no token ever reaches a line (:func:`bot.logs.log_to_stderr`)."""
    if fmt == "text":
        discord.utils.setup_logging(level=getattr(logging, level), root=True)
    log_to_stderr(level, fmt)
    # The HTTP layer echoes request bodies at DEBUG; keep it at INFO unless asked.
    if level != "DEBUG":
        logging.getLogger("discord.http").setLevel(logging.INFO)


async def run_bot(settings: Settings) -> int:
    """Run until closed (SIGINT/SIGTERM close it cleanly); the exit status (README "Exit
    statuses": :mod:`bot.adapter.login_errors`)."""
    bot = make_bot(settings)
    share = 1.0
    if settings.shards is not None:
        share = settings.shards.share
        log.info("Running %s", settings.shards)
    guard(bot.http, bot.meter, share)  # paced, counted, never posted twice
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:
            log.info("Shutting down")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)
    try:
        async with bot:
            await log_in(bot, settings.token.reveal(), settings.api_base)
            await bot.connect()
        await bot.close()
    except CannotConnect as refused:  # the token, or Discord not reached (login, gateway)
        log.error("%s", refused)
        return refused.status
    except discord.PrivilegedIntentsRequired:
        log.error("Discord asks for a privileged intent this bot does not use")
        return 1
    return 0


def main(argv: Sequence[str] = ()) -> int:
    """``python -m bot [run]``: load the settings and run the bot; the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Run the Omaha Dealer Discord bot."
    )
    parser.add_argument(
        "--env-file", default=".env", help="settings file read under the environment (default .env)"
    )
    args = parser.parse_args(list(argv))
    try:
        settings = Settings.load(env_file=args.env_file)
    except MissingToken as error:
        print(error, file=sys.stderr)
        return EXIT_SETTINGS
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    configure_logging(settings.log_level, settings.log_format)
    from bot.app import check_deck_key
    from bot.storage import StorageError

    try:
        check_deck_key(settings)
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    configure_endpoints(settings)
    if not settings.uses_real_discord:
        log.info("Using Discord endpoints %s and %s", settings.api_base, settings.gateway_url)
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return 0
