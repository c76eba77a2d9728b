"""``python -m bot migrate`` and ``python -m bot audit``."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Database
from bot.storage.cli import main
from bot.storage.migrate import load_migrations

ROOT = Path(__file__).resolve().parents[2]


def test_migrate_creates_the_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """migrate --db creates the file at the newest schema version; no key file is made."""
    path = tmp_path / "x.sqlite3"
    assert main(["migrate", "--db", str(path)]) == 0
    newest = len(load_migrations())
    assert f"schema at version {newest}" in capsys.readouterr().out
    assert path.is_file() and not (tmp_path / "x.sqlite3.key").exists()


def test_audit_reads_database_path_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --db, DATABASE_PATH names the database."""
    path = tmp_path / "env.sqlite3"
    main(["migrate", "--db", str(path)])
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["audit"]) == 0
    assert "nothing to audit" in capsys.readouterr().out


async def _two_servers(path: Path) -> None:
    db = await Database.open(path)
    await db.wallets.open(1, 10)
    await db.wallets.open(2, 10)
    await db.close()


def test_audit_prints_a_line_per_server_and_fails_on_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two servers give two OK lines; a balance changed behind the ledger gives exit 1."""
    path = tmp_path / "a.sqlite3"
    asyncio.run(_two_servers(path))
    assert main(["audit", "--db", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(line.endswith("OK") for line in out)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE wallets SET balance = balance + 1 WHERE guild_id = 2")
    assert main(["audit", "--db", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("OK") and "MISMATCH" in out[1]


@pytest.mark.parametrize("content", [None, b"this is not a database at all" * 100])
def test_unreadable_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    """A missing file or a file that is not SQLite: a one-line error, exit status 2."""
    path = tmp_path / "bad.sqlite3"
    if content is not None:
        path.write_bytes(content)
    assert main(["audit", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_unknown_option_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad option is a one-line error with exit status 2."""
    assert main(["audit", "--frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_python_dash_m_bot_dispatches_here(tmp_path: Path) -> None:
    """`python -m bot migrate --db PATH` then `audit` work as subprocesses."""
    path = tmp_path / "p.sqlite3"
    run = [sys.executable, "-m", "bot"]
    done = subprocess.run([*run, "migrate", "--db", str(path)], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*run, "audit", "--db", str(path)], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and "nothing to audit" in done.stdout


async def test_database_url_is_the_database_of_migrate_and_audit(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With DATABASE_URL set (and no --db), migrate and audit work on PostgreSQL."""
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DATABASE_URL", pg_url)
    assert await asyncio.to_thread(main, ["migrate"]) == 0
    assert f"schema at version {len(load_migrations())}" in capsys.readouterr().out
    db = await Database.open(pg_url, deck_key=bytes(32))
    try:
        await db.wallets.open(4, 40)
        assert await asyncio.to_thread(main, ["audit"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert len(out) == 1 and out[0].endswith("OK")
        await db.run(lambda c: c.execute("UPDATE wallets SET balance = balance + 1"))
        assert await asyncio.to_thread(main, ["audit"]) == 1
        assert "MISMATCH" in capsys.readouterr().out
    finally:
        await db.close()
    assert not os.listdir(tmp_path)  # no key file, no SQLite file
