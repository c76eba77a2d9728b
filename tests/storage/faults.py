"""Real storage faults for the tests (root only, as ``.ci/run`` runs them).

* :func:`small_disk`: a tmpfs of a few megabytes; :func:`fill` writes a filler file
  until the kernel answers ``ENOSPC`` (SQLite: ``database or disk is full``); deleting
  it gives the space back.
* :class:`Ext4Volume`: an ext4 file system on a loop device, mounted with
  ``errors=remount-ro``; :meth:`~Ext4Volume.fail` reports a file-system error through
  ext4's own ``trigger_fs_error`` (what a failing disk does): the kernel remounts it
  read-only at once, under the open files (SQLite: ``disk I/O error``, then
  ``attempt to write a readonly database``); :meth:`~Ext4Volume.repair` is the
  operator's way back: unmount (possible only once nobody holds a file there),
  ``e2fsck``, mount again.

Why not simpler ways: ``mount -o remount,ro`` is refused (EBUSY) while a process holds
a file open for writing there, as the bot does; ``chmod`` changes nothing for files
already open, and root ignores it anyway.

Mounting needs root: as anyone else these tests are skipped, saying so.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["Ext4Volume", "fill", "small_disk", "why_no_mounts"]


def why_no_mounts() -> str | None:
    """Why this process cannot mount file systems (None: it can)."""
    if os.geteuid() != 0:
        return "mounting a small file system needs root (.ci/run runs the tests as root)"
    return None


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, check=False,
                              timeout=60)
    except FileNotFoundError:
        return subprocess.CompletedProcess(list(argv), 127, "", f"no {argv[0]} here")


def _skip_or_fail(what: str, done: subprocess.CompletedProcess[str]) -> None:
    if done.returncode != 0:
        pytest.skip(f"{what} failed here: {(done.stderr or done.stdout).strip()}")


@contextlib.contextmanager
def small_disk(where: Path, size: str = "16m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (created), unmounted afterwards."""
    reason = why_no_mounts()
    if reason is not None:
        pytest.skip(reason)
    where.mkdir(parents=True, exist_ok=True)
    _skip_or_fail("mount -t tmpfs", _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700",
                                         "tmpfs", str(where)))
    try:
        yield where
    finally:
        _run("umount", "-l", str(where))


def fill(where: Path) -> Path:
    """Write a filler file in ``where`` until its file system is full; its path."""
    filler = where / "filler"
    block = b"\0" * 65536
    with open(filler, "wb", buffering=0) as out:
        with contextlib.suppress(OSError):
            while True:
                out.write(block)
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0" * 512)
    assert shutil.disk_usage(where).free < 65536, shutil.disk_usage(where)
    return filler


class Ext4Volume:
    """An 8 MB ext4 image in ``image``, mounted at ``mount`` with errors=remount-ro."""

    def __init__(self, image: Path, mount: Path) -> None:
        self.image = image
        self.mount = mount
        self.device = ""

    def __enter__(self) -> Ext4Volume:
        reason = why_no_mounts()
        if reason is not None:
            pytest.skip(reason)
        if shutil.which("mkfs.ext4") is None or shutil.which("e2fsck") is None:
            pytest.skip("no mkfs.ext4 / e2fsck here (Debian's e2fsprogs)")
        with open(self.image, "wb") as out:
            out.truncate(8 * 1024 * 1024)
        _skip_or_fail("mkfs.ext4", _run("mkfs.ext4", "-q", "-F", str(self.image)))
        self.mount.mkdir(parents=True, exist_ok=True)
        try:
            self._mount()
        except BaseException:  # a skip too: nothing left mounted
            self.__exit__()
            raise
        return self

    def _mount(self) -> None:
        _skip_or_fail("mount -o loop", _run("mount", "-o", "loop,errors=remount-ro",
                                            str(self.image), str(self.mount)))
        source = _run("findmnt", "-n", "-o", "SOURCE", str(self.mount)).stdout.strip()
        self.device = Path(source).name
        if not Path(f"/sys/fs/ext4/{self.device}/trigger_fs_error").exists():
            pytest.skip("this kernel has no ext4 trigger_fs_error")

    def fail(self) -> None:
        """A file-system error: the kernel remounts the volume read-only, now."""
        Path(f"/sys/fs/ext4/{self.device}/trigger_fs_error").write_text("test\n")

    def read_only(self) -> bool:
        """Whether the kernel turned the volume read-only (newer kernels say
        ``emergency_ro`` beside the ``rw`` it was mounted with)."""
        options = _run("findmnt", "-n", "-o", "OPTIONS", str(self.mount)).stdout
        return bool({"ro", "emergency_ro"} & set(options.strip().split(",")))

    def open_files(self) -> list[str]:
        """The files this process holds open on the volume."""
        found = []
        for fd in Path("/proc/self/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith(str(self.mount) + "/"):
                    found.append(target)
        return found

    def repair(self) -> None:
        """What the operator does: unmount, check the file system, mount it again."""
        done = _run("umount", str(self.mount))
        assert done.returncode == 0, done.stderr
        fsck = _run("e2fsck", "-f", "-y", str(self.image))
        assert fsck.returncode in (0, 1), fsck.stdout + fsck.stderr  # 1: errors corrected
        self._mount()

    def __exit__(self, *exc: object) -> None:
        _run("umount", "-l", str(self.mount))
