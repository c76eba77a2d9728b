"""A throwaway PostgreSQL cluster for the tests (and the storage benchmark).

Decisions:

* Debian's binaries (``/usr/lib/postgresql/<version>/bin/initdb`` and
  ``pg_ctl``, package ``postgresql``), the newest version found; no
  PostgreSQL running on the machine is touched.
* ``initdb`` refuses to run as root. As root the cluster belongs to the
  ``postgres`` system user that Debian's package creates (``runuser -u
  postgres``); as anyone else, to that user. It listens on a unix socket only,
  in its own temporary directory (no TCP port, so no clash with anything),
  with ``trust`` authentication for the local role ``postgres``.
* One cluster per test session (started at the first test that needs it,
  stopped and deleted at the end), and a fresh empty database per test
  (dropped afterwards).
* The test cluster runs with ``fsync=off``: tests do not pull the plug, and
  it keeps ``CREATE DATABASE`` cheap. Every connection of the bot still runs
  with ``synchronous_commit = on``; the benchmark starts its cluster with
  ``fsync=on`` (:func:`start_cluster` ``durable=True``).
* Without the binaries the PostgreSQL cases are skipped, unless
  ``OMAHA_REQUIRE_POSTGRES=1`` (as ``.ci/run`` sets), which makes them fail.

Fixtures: ``pg_cluster`` (session), ``storage_backend`` (``sqlite`` or
``postgres``, parametrizing every test that uses it) and ``database_target``
(a SQLite file path or a PostgreSQL URL, fresh for the test).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

SUPERUSER = "postgres"
PORT = 5432
_names = itertools.count(1)


def bindir() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding initdb and pg_ctl."""
    found = []
    for initdb in Path("/usr/lib/postgresql").glob("*/bin/initdb"):
        if (initdb.parent / "pg_ctl").exists() and initdb.parent.parent.name.isdigit():
            found.append((int(initdb.parent.parent.name), initdb.parent))
    return max(found)[1] if found else None


def _as_owner(argv: list[str]) -> list[str]:
    """``argv`` as the cluster's owner: ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", SUPERUSER, "--", *argv]


def why_unavailable() -> str | None:
    if bindir() is None:
        return "PostgreSQL's binaries (/usr/lib/postgresql/*/bin/initdb) are not installed"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SUPERUSER)
        except KeyError:
            return "running as root and there is no 'postgres' user to own the cluster"
    return None


@dataclass
class Cluster:
    root: Path
    bin: Path
    options: str = ""  # the server's options (pg_ctl -o), to start it again

    def halt(self) -> None:
        """Stop the server (fast shutdown: sessions ended), keeping its files."""
        self._pg_ctl("-m", "fast", "-w", "stop")

    def start(self) -> None:
        """Start the halted server again, on the same socket."""
        self._pg_ctl("-l", str(self.root / "log"), "-w", "-o", self.options, "start")

    def _pg_ctl(self, *argv: str) -> None:
        done = subprocess.run(_as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), *argv]),
                              capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl {argv[-1]} failed: {done.stderr or done.stdout}")

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}&port={PORT}"

    def stop(self) -> None:
        subprocess.run(
            _as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                       "-w", "stop"]),
            capture_output=True, check=False, timeout=60,
        )
        shutil.rmtree(self.root, ignore_errors=True)

    async def create_database(self) -> str:
        name = f"omaha_{os.getpid()}_{next(_names)}"
        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        finally:
            await admin.close()
        return name

    async def drop_database(self, name: str) -> None:
        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


def start_cluster(*, durable: bool = False) -> Cluster:
    """initdb and start a cluster in a new temporary directory (see the module notes)."""
    reason = why_unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    binaries = bindir()
    assert binaries is not None
    root = Path(tempfile.mkdtemp(prefix="omaha-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam(SUPERUSER)
        os.chown(root, owner.pw_uid, owner.pw_gid)
    options = f"-c listen_addresses='' -c unix_socket_directories='{root}' -p {PORT}"
    if not durable:
        options += " -c fsync=off -c full_page_writes=off"
    cluster = Cluster(root, binaries, options)
    steps = [
        [str(binaries / "initdb"), "-D", str(cluster.data), "-U", SUPERUSER, "--auth=trust",
         "-E", "UTF8", "--locale=C", "--no-sync"],
        [str(binaries / "pg_ctl"), "-D", str(cluster.data), "-l", str(root / "log"), "-w",
         "-o", options, "start"],
    ]
    try:
        for argv in steps:
            done = subprocess.run(_as_owner(argv), capture_output=True, text=True, timeout=120,
                                  check=False)
            if done.returncode != 0:
                raise RuntimeError(f"{Path(argv[0]).name} failed: {done.stderr or done.stdout}")
    except BaseException:
        cluster.stop()
        raise
    return cluster


def skip_or_fail(reason: str | None) -> None:
    """Nothing when PostgreSQL is there; else skip, or fail under OMAHA_REQUIRE_POSTGRES=1."""
    if reason is None:
        return
    if os.environ.get("OMAHA_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"OMAHA_REQUIRE_POSTGRES=1 but {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def running_cluster() -> Iterator[Cluster]:
    """A cluster of its own, stopped at the end (skips, or fails under
    OMAHA_REQUIRE_POSTGRES=1, where none can run)."""
    skip_or_fail(why_unavailable())
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
async def pg_url(pg_cluster: Cluster) -> AsyncIterator[str]:
    """The URL of a fresh, empty PostgreSQL database (dropped after the test)."""
    name = await pg_cluster.create_database()
    try:
        yield pg_cluster.url(name)
    finally:
        with contextlib.suppress(Exception):
            await pg_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgres"])
def storage_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_target(
    storage_backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> str:
    """A fresh database of the backend: a SQLite file path or a PostgreSQL URL."""
    if storage_backend == "sqlite":
        return str(tmp_path / "test.sqlite3")
    return str(request.getfixturevalue("pg_url"))
