"""Shared fixtures on the offline Discord that drives the real bot.

The offline Discord itself (simcord, pinned, with two rules added) and its
:class:`Harness` ship with the bot in :mod:`bot.offline`, because
``python -m bot demo`` plays on it too; its docstring records why simcord and
how it was extended, and :mod:`bot.offline.harness` lists the Harness API.
This module only builds pytest fixtures on it and re-exports the names tests
import from here (``Harness``, ``Reply``, ``FakeWallClock``, ``buttons_of``,
``PNG_SIGNATURE``).

Fixtures
--------
``bot_settings``  Settings with a dummy token and a fresh SQLite file in tmp_path.
``simcord_bot``   the bot under test (``OmahaDealer``), consumed by simcord's
                  ``simcord_env`` fixture (which logs it in and runs ``setup_hook``).
``shards``        1; ``@pytest.mark.parametrize("shards", [2])`` makes the bot a
                  ``ShardedOmahaDealer`` on both shards of two.
``wall_clock``    a :class:`FakeWallClock` (epoch seconds) installed as the DB's clock.
``harness``       a :class:`Harness`: guild "Poker Club", channel ``#poker``,
                  members alice, bob, carol, dave and a manager (Manage Server);
                  helpers to act and to read what the bot posted. After each test
                  it fails the test on a bug (an error with no player message), an
                  interaction left unanswered or "thinking", or a failed chip audit.
``bot_extensions`` the cogs loaded (default: the bot's fixed list); override it
                  in a test module to load fewer.
``restore_endpoints`` puts discord.py's REST/gateway class attributes back.

Note: ``load_extension`` executes a cog module into a *new* module object, so
a test that monkeypatches something in a loaded cog must patch
``sys.modules["cogs.economy"]`` (after the bot started), not the module it
imported itself.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import discord
import pytest
import pytest_asyncio
from simcord import Env

from bot import render
from bot.client import EXTENSIONS, OmahaDealer, ShardedOmahaDealer
from bot.offline.harness import PNG_SIGNATURE, FakeWallClock, Harness, Reply, buttons_of
from bot.settings import Secret, Settings
from bot.sharding import ShardRange

__all__ = ["PNG_SIGNATURE", "FakeWallClock", "Harness", "Reply", "buttons_of"]

# The PostgreSQL cluster and the backend-parametrized database fixtures
# (pg_cluster, pg_url, storage_backend, database_target): tests/pgcluster.py.
pytest_plugins = ["tests.pgcluster"]


class _Collector(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


# -- fixtures ----------------------------------------------------------------------


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """Settings for a test bot: dummy token, its own database file."""
    return Settings(token=Secret("test-token"), database_path=str(tmp_path / "test.sqlite3"))


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    """The cogs the test bot loads; override in a test module to load fewer."""
    return EXTENSIONS


@pytest.fixture
def shards() -> int:
    """How many gateway shards the test bot runs: 1, one connection (``OmahaDealer``);
    a test parametrizes it for a ``ShardedOmahaDealer`` on every shard of that many."""
    return 1


@pytest.fixture
def simcord_bot(
    bot_settings: Settings, bot_extensions: tuple[str, ...], shards: int
) -> OmahaDealer:
    """The bot under test, as simcord's ``simcord_env`` fixture expects it."""
    if shards == 1:
        return OmahaDealer(bot_settings, extensions=bot_extensions)
    ids = tuple(range(shards))
    settings = replace(bot_settings, shards=ShardRange(shards, ids))
    return ShardedOmahaDealer(settings, extensions=bot_extensions, shard_count=shards,
                              shard_ids=list(ids))


@pytest.fixture
def restore_endpoints() -> Iterator[None]:
    """Put discord.py's class-level REST and gateway endpoints back after the test."""
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


@pytest.fixture
def wall_clock() -> FakeWallClock:
    return FakeWallClock()


@pytest.fixture(scope="session")
def render_server() -> None:
    """The render processes' fork server, started once per test run before any bot: a
    replay is drawn in a process of its own, and the first would otherwise wait for the
    server to start (a second or two, more on a busy machine) within the offline
    Discord's settling time."""
    render.start_render_server()


@pytest_asyncio.fixture
async def harness(
    simcord_env: Env, wall_clock: FakeWallClock, render_server: None
) -> AsyncIterator[Harness]:
    """The offline Discord with the bot logged in; audits the chips afterwards."""
    bot = simcord_env.bot
    assert isinstance(bot, OmahaDealer)
    bot.db.clock = wall_clock
    bot.presenter.runout_pause = 0.0  # run-outs are staged at once (a test may set a pause)
    h = Harness(simcord_env, wall_clock)
    collector = _Collector(h.unexpected)
    errors_log = logging.getLogger("bot.adapter.polite")
    errors_log.addHandler(collector)
    try:
        await simcord_env.settle()
        yield h
        await simcord_env.settle()
        h.check_errors()
        if not h.allow_unanswered:
            h.check_answered()
        await h.audit()
    finally:
        errors_log.removeHandler(collector)
        await h.bot.close()  # simcord only detaches it: close its database here
