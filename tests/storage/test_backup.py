"""``python -m bot backup`` and ``restore``: a consistent copy of the live database, audited."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.economy import Economy
from bot.storage import Database
from bot.storage.cli import main
from tests.fakediscord.process import REPO

from .helpers import mode, no_umask

G = 7


async def seeded(path: Path) -> dict[int, int]:
    """A database with three balances and a grant each; ``user -> balance``."""
    db = await Database.open(path, deck_key=b"k" * 32)
    try:
        economy = Economy(db)
        for user in (1, 2, 3):
            await economy.grant(G, user, 100 * user, actor_id=9, reason="seed")
        return {u: await economy.balance(G, u) for u in (1, 2, 3)}
    finally:
        await db.close()


async def balances(path: Path) -> tuple[dict[int, int], bool]:
    db = await Database.open(path, deck_key=b"k" * 32, migrate=False)
    try:
        economy = Economy(db)
        found = {u: await economy.balance(G, u) for u in (1, 2, 3)}
        return found, all(line.ok for line in await db.audit())
    finally:
        await db.close()


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[int, int]]:
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "DECK_KEY_PATH"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "live.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    return path, asyncio.run(seeded(path))


def test_a_backup_taken_during_a_write_restores_to_an_audited_database(
    live: tuple[Path, dict[int, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another connection holds a write transaction: the copy has the committed state only
    (one consistent snapshot), passes the audit, and restores into an empty file."""
    path, committed = live
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as writer:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE wallets SET balance = balance + 5")  # uncommitted
        assert main(["backup", str(tmp_path / "b.sqlite3")]) == 0
        writer.execute("ROLLBACK")
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "audit ok" in out and "1 server," in out
    assert f"the deck key is not copied: it stays at {path}.key" in out
    target = tmp_path / "restored" / "new.sqlite3"
    target.parent.mkdir()
    assert main(["restore", str(tmp_path / "b.sqlite3"), "--db", str(target)]) == 0
    assert "audit ok" in capsys.readouterr().out
    assert asyncio.run(balances(target)) == (committed, True)
    assert not list(tmp_path.glob(".*.tmp"))


def test_restore_refuses_a_non_empty_target_and_files_that_are_not_ours(
    live: tuple[Path, dict[int, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each refusal is one line, exit 2, and changes nothing."""
    path, committed = live
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 0
    capsys.readouterr()
    assert main(["restore", str(tmp_path / "b.sqlite3")]) == 2  # into the live database
    assert "is not empty" in capsys.readouterr().err
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 100)
    foreign = tmp_path / "foreign.sqlite3"
    with contextlib.closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
    for bad, why in ((text, "is not a SQLite database"),
                     (foreign, "is not an Omaha Dealer database"),
                     (tmp_path / "missing.sqlite3", "there is no backup")):
        assert main(["restore", str(bad), "--db", str(tmp_path / "fresh.sqlite3")]) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1, err
        assert not (tmp_path / "fresh.sqlite3").exists()
    assert asyncio.run(balances(path)) == (committed, True)


def test_backup_refuses_an_existing_file_and_says_how_postgresql_is_backed_up(
    live: tuple[Path, dict[int, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "b.sqlite3"
    assert main(["backup", str(taken)]) == 0
    before = taken.read_bytes()
    assert main(["backup", str(taken)]) == 2
    assert "already exists" in capsys.readouterr().err and taken.read_bytes() == before
    assert main(["backup", "x.dump", "--db", "postgresql://u:secret@db/omaha"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump" in err and "pg_restore" in err and "secret" not in err


def test_with_key_copies_the_deck_key_privately(
    live: tuple[Path, dict[int, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = live
    key = Path(f"{path}.key")
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o600)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--with-key"]) == 0
    copied = tmp_path / "b.sqlite3.key"
    assert f"the deck key is copied to {copied}" in capsys.readouterr().out
    assert copied.read_text() == key.read_text()
    assert stat.S_IMODE(copied.stat().st_mode) == 0o600


def test_a_backup_and_a_restored_database_are_private(
    live: tuple[Path, dict[int, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mode 0600 whatever the umask: the copy is made in a file created private."""
    with no_umask():
        assert main(["backup", str(tmp_path / "b.sqlite3")]) == 0
        assert main(["restore", str(tmp_path / "b.sqlite3"), "--db",
                     str(tmp_path / "back.sqlite3")]) == 0
    assert mode(tmp_path / "b.sqlite3") == 0o600
    assert mode(tmp_path / "back.sqlite3") == 0o600


def test_a_backup_killed_mid_copy_leaves_no_file_and_the_next_clears_its_leftover(
    live: tuple[Path, dict[int, int]], tmp_path: Path,
) -> None:
    """``python -m bot backup`` SIGKILLed after its copy, before naming it (the kill
    harness's crash point): no backup file, only the staged copy; taking the same backup
    again removes that copy and gives a whole, audited backup."""
    path, committed = live
    target = tmp_path / "night.sqlite3"
    env = {**os.environ, "OMAHA_CRASH_AT": "backup.copied"}
    killed = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(target), "--db", str(path)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not target.exists()
    (leftover,) = tmp_path.glob(".night.sqlite3.*.tmp")
    assert main(["backup", str(target), "--db", str(path)]) == 0
    assert not leftover.exists() and list(tmp_path.glob(".night*")) == []
    assert asyncio.run(balances(target)) == (committed, True)
