"""The services the composition root builds (bot/app.py), without Discord."""

from __future__ import annotations

import ast
import asyncio
import logging
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import App, scheduled_backups
from bot.runtime.config import TableConfig
from bot.runtime.ports import NullObserver
from bot.settings import Secret, Settings
from bot.storage.scheduled import PG_DUMP
from tests.storage.faults import fill, small_disk


def test_app_never_imports_discord() -> None:
    """Only cogs/ and bot/client.py import discord.py; the services module does not."""
    tree = ast.parse((Path(__file__).parents[1] / "bot" / "app.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and not {m for m in imported if m.split(".")[0] in ("discord", "cogs")}


async def test_open_builds_the_services_on_one_database(tmp_path: Path) -> None:
    """The folder is created, the economy, ports and registry share the database,
    and closing twice is harmless."""
    path = tmp_path / "deep" / "bot.sqlite3"
    settings = Settings(token=Secret("t"), database_path=str(path))
    app = await App.open(settings, observer=NullObserver())
    try:
        assert path.exists()
        assert app.ports.db is app.db
        assert app.registry.economy is app.ports and app.tournaments.store is app.ports
        assert app.tournaments.registry is app.registry
        assert await app.economy.balance(1, 2) == 10_000
        assert len(app.registry) == 0
    finally:
        await app.stop_tables()
        await app.close()
        await app.close()


async def test_database_url_opens_postgresql_with_the_key_beside_database_path(
    tmp_path: Path, pg_url: str
) -> None:
    """DATABASE_URL selects PostgreSQL; the deck key file is DATABASE_PATH's ``.key``."""
    path = tmp_path / "bot.sqlite3"
    settings = Settings(token=Secret("t"), database_path=str(path), database_url=Secret(pg_url))
    app = await App.open(settings, observer=NullObserver())
    try:
        assert app.db.dialect.name == "postgres"
        assert await app.economy.balance(1, 2) == 10_000
        assert not path.exists() and (tmp_path / "bot.sqlite3.key").is_file()
    finally:
        await app.close()


async def test_backup_every_starts_the_schedule_and_postgresql_says_pg_dump(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """BACKUP_EVERY on SQLite: the app runs a schedule into BACKUP_DIR until it closes; on
    PostgreSQL there is none, and one warning names pg_dump."""
    settings = Settings(token=Secret("t"), database_path=str(tmp_path / "a.sqlite3"),
                        backup_every=3600.0, backup_keep=3, backup_dir=str(tmp_path / "b"))
    app = await App.open(settings, observer=NullObserver())
    try:
        assert app.backups is not None and app.backups.every == 3600.0
        assert app.backups.keep == 3 and app.backups.folder == tmp_path / "b"
        copied = await app.backups.take()  # what each tick does
        assert copied.ok and Path(copied.target).parent == tmp_path / "b"
    finally:
        await app.close()
    caplog.set_level(logging.WARNING, "bot.app")
    postgres = replace(settings, database_url=Secret("postgresql://u:p@127.0.0.1:9/x"))
    assert scheduled_backups(postgres, app.db) is None
    assert [r.getMessage() for r in caplog.records] == [PG_DUMP]
    assert "pg_dump --format=custom" in PG_DUMP


async def test_a_start_on_a_full_disk_resumes_the_tables_once_it_can_write(
    tmp_path: Path,
) -> None:
    """The disk fills as the bot starts (a filled tmpfs: root only): restoring the tables
    waits (the outage's one line says why) instead of failing half way, and goes on once
    the space is back, with the table that was open."""
    with small_disk(tmp_path / "disk") as disk:
        settings = Settings(token=Secret("t"), database_path=str(disk / "bot.sqlite3"))
        app = await App.open(settings, observer=NullObserver())
        try:
            table = await app.registry.create(guild_id=1, channel_id=2, creator_id=3,
                                              config=TableConfig.create())
        finally:
            await app.close()
        app = await App.open(settings, observer=NullObserver())
        filler = fill(disk)  # after the opening (on a disk full already, it fails: one line)
        try:
            restoring = asyncio.ensure_future(app.restore())
            await asyncio.sleep(1.5)
            assert not restoring.done() and app.db.outage.down
            filler.unlink()
            restored = await asyncio.wait_for(restoring, 10)
            assert [t.table_id for t in restored] == [table.table_id]
            assert not app.db.outage.down
        finally:
            await app.close()
