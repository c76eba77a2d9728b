"""Backups the running bot takes by itself: on time, rotated, each one audited."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.economy import Economy
from bot.storage import Database
from bot.storage.backup import check
from bot.storage.scheduled import BackupSchedule

from .helpers import mode, no_umask

G = 7
EVERY = 3600.0


class Ticks:
    """The schedule's clock and sleep: a sleep returns when the test says so."""

    def __init__(self) -> None:
        self.now = 1_767_225_600.0
        self.asleep: asyncio.Queue[float] = asyncio.Queue()
        self.wake: asyncio.Queue[None] = asyncio.Queue()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asleep.put_nowait(seconds)
        await self.wake.get()
        self.now += seconds


async def test_backups_come_on_time_the_oldest_go_and_each_copy_passes_the_audit(
    tmp_path: Path,
) -> None:
    path = tmp_path / "live.sqlite3"
    db = await Database.open(path, deck_key=b"k" * 32)
    ticks = Ticks()
    schedule = BackupSchedule(str(path), tmp_path / "backups", EVERY, keep=3,
                              clock=ticks.clock, sleep=ticks.sleep)
    try:
        economy = Economy(db)
        schedule.start()
        for round_ in range(5):
            assert await ticks.asleep.get() == EVERY  # waiting for the next one
            await economy.grant(G, 1, 100, actor_id=9, reason=f"round {round_}")
            ticks.wake.put_nowait(None)
        await ticks.asleep.get()  # the fifth backup is done: the schedule sleeps again
    finally:
        await schedule.stop()
        await db.close()
    assert len(schedule.taken) == 5 and all(c.ok for c in schedule.taken)
    kept = sorted(await asyncio.to_thread(lambda: list((tmp_path / "backups").iterdir())))
    assert [p.name for p in kept] == [Path(c.target).name for c in schedule.taken[-3:]]
    assert [p.name for p in kept] == [
        "live-20260101T030000Z.sqlite3", "live-20260101T040000Z.sqlite3",
        "live-20260101T050000Z.sqlite3",
    ]
    for copy in kept:
        version, lines = await asyncio.to_thread(check, copy)
        assert version >= 6 and [line.ok for line in lines] == [True]
    assert not [p for p in kept if p.suffix == ".key"]  # the deck key is kept apart


async def test_a_failed_backup_is_logged_and_the_next_comes_on_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ticks = Ticks()
    schedule = BackupSchedule(str(tmp_path / "missing.sqlite3"), tmp_path / "b", EVERY, 2,
                              clock=ticks.clock, sleep=ticks.sleep)
    caplog.set_level(logging.INFO, "bot.storage.scheduled")
    schedule.start()
    try:
        await ticks.asleep.get()
        ticks.wake.put_nowait(None)
        await ticks.asleep.get()  # asleep again: the loop survived the failure
    finally:
        await schedule.stop()
    assert "Scheduled backup failed: there is no database" in caplog.text
    assert schedule.taken == []


async def test_backups_are_private_in_a_private_folder_and_old_ones_are_tightened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The folders the schedule creates are 0700, each backup 0600 (umask 0: nothing
    left to the default); a backup found open to others is made private at the start,
    in one log line; the folder that was there already is left as it was."""
    path = tmp_path / "live.sqlite3"
    await (await Database.open(path, deck_key=b"k" * 32)).close()
    old = tmp_path / "live-20251231T000000Z.sqlite3"
    old.write_bytes(path.read_bytes())
    for made, bits in ((old, 0o644), (tmp_path, 0o755)):
        made.chmod(bits)
    caplog.set_level(logging.INFO, "bot.storage.private")
    started = BackupSchedule(str(path), tmp_path, EVERY, 3, sleep=Ticks().sleep)
    started.start()  # in the old backup's folder
    await started.stop()
    assert mode(old) == 0o600 and mode(tmp_path) == 0o755
    assert [r.getMessage() for r in caplog.records if r.name == "bot.storage.private"] == [
        f"Made the backups private to this user (they were open to others): {old} "
        "(0644 -> 0600)"]
    folder = tmp_path / "backups" / "daily"
    ticks = Ticks()
    with no_umask():
        copied = await BackupSchedule(str(path), folder, EVERY, 3, clock=ticks.clock).take()
    assert mode(tmp_path / "backups") == mode(folder) == 0o700
    assert mode(Path(copied.target)) == 0o600


async def test_the_start_removes_what_a_backup_killed_mid_copy_left(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A staged copy (and its journal) left by a backup killed before it was named is
    removed when the schedule starts, one log line each; other files stay."""
    path = tmp_path / "live.sqlite3"
    await (await Database.open(path, deck_key=b"k" * 32)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    left = [folder / ".live-20260101T000000Z.sqlite3.0a1b2c3d.tmp",
            folder / ".live-20260101T000000Z.sqlite3.0a1b2c3d.tmp-journal"]
    other = folder / ".other-20260101T000000Z.sqlite3.0a1b2c3d.tmp"
    for made in (*left, other):
        made.write_bytes(b"partial")
    caplog.set_level(logging.INFO, "bot.storage.scheduled")
    schedule = BackupSchedule(str(path), folder, EVERY, 3, sleep=Ticks().sleep)
    schedule.start()
    await schedule.stop()
    assert not any(p.exists() for p in left) and other.exists()
    assert sum("left by a backup that was interrupted" in r.getMessage()
               for r in caplog.records) == 2
