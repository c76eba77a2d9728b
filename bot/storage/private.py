"""Files only the bot's own user may read: the database, its side files, backups.

The database holds every balance and the history of hands played in private
channels; a backup holds the same. So the bot creates them mode 0600 (the deck key
too: :func:`bot.storage.sealing.load_or_create_key`) and the folders it creates
for them 0700, and it creates each file with that mode (``os.open(..., 0o600)``),
so there is no moment when another local user could open it. SQLite then gives
the side files it makes beside a database (``-wal``, ``-shm``, ``-journal``) the
mode of the database file itself.

Files made before this rule, or by hand, may be open to other users: when the
bot opens a database or starts its scheduled backups it takes the group's and
others' permissions away from those files and says so in one log line
(:func:`tighten`). It never changes a folder it did not create (the working
directory, a ``BACKUP_DIR`` given). The deck key is the exception: a key file
open to others is refused, not fixed, since whoever read it can read every
stored deck (:func:`bot.storage.sealing.check_private`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from bot.storage.errors import StorageError

__all__ = ["FILE_MODE", "FOLDER_MODE", "create_file", "database_files", "make_folder",
           "prepare_database", "tighten"]

log = logging.getLogger("bot.storage.private")

FILE_MODE = 0o600
FOLDER_MODE = 0o700
#: What SQLite keeps beside a database file while it is open (WAL) or writing (rollback).
SIDE_FILES = ("-wal", "-shm", "-journal")


def _plain_path(path: str) -> bool:
    """Whether ``path`` names a file (``:memory:`` and ``file:`` URIs do not)."""
    return path != ":memory:" and not path.startswith("file:")


def database_files(path: str | os.PathLike[str]) -> list[Path]:
    """The database file and the side files SQLite may keep beside it."""
    name = os.fspath(path)
    return [Path(name), *(Path(name + side) for side in SIDE_FILES)]


def create_file(path: Path) -> bool:
    """Create ``path`` empty, mode 0600, unless it exists (True when created)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def make_folder(path: Path) -> None:
    """Create the folder ``path`` and its missing parents, each 0700; the folders that
    already exist are left as they are."""
    missing: list[Path] = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile: not ours to change
            folder.mkdir(mode=FOLDER_MODE)


def tighten(paths: Iterable[Path], what: str) -> list[Path]:
    """Take the group's and others' permissions away from each existing file of
    ``paths`` (POSIX); one warning names those changed (``what``: what they are), another
    those it may not change (another user's file: the bot goes on with it)."""
    changed: list[Path] = []
    said: list[str] = []
    refused: list[str] = []
    for path in paths if os.name == "posix" else ():
        try:
            mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else 0
            if mode & 0o077:
                os.chmod(path, mode & ~0o077)
                changed.append(path)
                said.append(f"{path} ({mode:04o} -> {mode & ~0o077:04o})")
        except FileNotFoundError:
            continue
        except OSError as exc:
            refused.append(f"{path} ({exc.strerror})")
    if said:
        log.warning("Made %s private to this user (they were open to others): %s",
                    what, ", ".join(said))
    if refused:
        log.warning("Could not make %s private (chmod 600 them): %s", what, ", ".join(refused))
    return changed


def prepare_database(path: str) -> None:
    """Before SQLite opens the file ``path``: its folder must exist; a new database
    file is created 0600 (its side files follow it), an existing one tightened."""
    if not _plain_path(path):
        return
    parent = Path(path).parent
    if not parent.is_dir():
        raise StorageError(f"the folder {str(parent)!r} for the database does not exist")
    tighten(database_files(path), "the database files")
    create_file(Path(path))
