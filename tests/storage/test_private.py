"""Files only the bot's user may read: created private, tightened when found open."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.storage.private import create_file, database_files, make_folder, tighten

from .helpers import mode, no_umask


def test_folders_are_created_0700_and_existing_ones_left_alone(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    with no_umask():
        make_folder(tmp_path / "a" / "b" / "c")
        make_folder(tmp_path / "a" / "b")  # there already: nothing to do
    assert [mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b",
                              tmp_path / "a" / "b" / "c")] == [0o700] * 3
    assert mode(tmp_path) == 0o755


def test_a_file_is_created_0600_once(tmp_path: Path) -> None:
    path = tmp_path / "f"
    with no_umask():
        assert create_file(path) is True
    path.write_bytes(b"kept")
    assert create_file(path) is False and path.read_bytes() == b"kept"
    assert mode(path) == 0o600


def test_tighten_takes_away_the_group_and_others_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db, wal, shm, journal = database_files(tmp_path / "x.sqlite3")
    for path, bits in ((db, 0o664), (wal, 0o600), (shm, 0o444)):
        path.write_bytes(b"")
        path.chmod(bits)
    tmp_path.chmod(0o755)
    caplog.set_level(logging.INFO, "bot.storage.private")
    assert tighten([db, wal, shm, journal, tmp_path], "the files") == [db, shm]
    assert (mode(db), mode(wal), mode(shm)) == (0o600, 0o600, 0o400)
    assert mode(tmp_path) == 0o755  # a folder is never changed
    assert caplog.messages == [
        f"Made the files private to this user (they were open to others): {db} "
        f"(0664 -> 0600), {shm} (0444 -> 0400)"]


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux's /proc")
def test_a_file_that_may_not_be_changed_is_named_and_left(
    caplog: pytest.LogCaptureFixture
) -> None:
    """chmod refused (another user's file; here /proc, which refuses even root): one
    warning, and the bot goes on."""
    caplog.set_level(logging.INFO, "bot.storage.private")
    status = Path("/proc/self/status")
    assert tighten([status], "the files") == []
    assert caplog.messages == [
        f"Could not make the files private (chmod 600 them): {status} (Operation not "
        "permitted)"]
