"""Run ``python -m bot`` as a child process against a :class:`FakeDiscord`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from .server import FakeDiscord, FakeDiscordError

REPO = Path(__file__).resolve().parents[2]
#: The longest log line read (asyncio's default, 64 KiB, is shorter than a DEBUG line of
#: discord.py echoing the command sync's body; the reader would stop, the pipe fill up).
LINE_LIMIT = 16 * 1024 * 1024


class BotProcess:
    """``python -m bot`` in ``workdir`` with the fake's endpoints; its stderr is kept as lines."""

    def __init__(
        self, fd: FakeDiscord, workdir: Path, *, args: tuple[str, ...] = (),
        env: dict[str, str] | None = None, database: str | None = None,
        own_group: bool = False,
    ) -> None:
        self.fd = fd
        self.workdir = workdir
        self.args = args
        self.database = database or str(workdir / "bot.sqlite3")
        self.extra_env = env or {}
        #: Started in a process group of its own (its render processes join it), as a
        #: terminal's foreground job: :meth:`signal_group` then signals them all, as Ctrl-C.
        self.own_group = own_group
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._new_line = asyncio.Event()

    async def start(self) -> BotProcess:
        env = {
            k: v for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_LEVEL"))
        }
        env.update(self.fd.bot_environment(self.database))
        env.update(self.extra_env)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *self.args, cwd=self.workdir, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=self.own_group,
            limit=LINE_LIMIT,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip())
            self._new_line.set()
        self._new_line.set()

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    async def wait_for_log(self, text: str, within: float = 30.0) -> str:
        """The first log line containing ``text``, waiting for it."""

        async def find() -> str:
            while True:
                for line in self.lines:
                    if text in line:
                        return line
                if self.proc is not None and self.proc.returncode is not None:
                    raise FakeDiscordError(f"the bot exited before logging {text!r}:\n{self.log}")
                self._new_line.clear()
                await self._new_line.wait()

        try:
            return await asyncio.wait_for(find(), within)
        except TimeoutError:
            raise FakeDiscordError(
                f"no log line with {text!r} in {within} s:\n{self.log}"
            ) from None

    async def stop(self, within: float = 20.0) -> int:
        """SIGTERM, then wait for a clean exit; returns the exit code."""
        assert self.proc is not None
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.wait_for(self.proc.wait(), within)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise FakeDiscordError(f"the bot did not stop on SIGTERM:\n{self.log}") from None
        if self._reader is not None:
            await self._reader
        return code

    def signal_group(self, sig: int) -> None:
        """Send ``sig`` to the bot's whole process group (``own_group``), as a terminal's
        Ctrl-C (SIGINT) or a service manager's stop (SIGTERM) does."""
        assert self.proc is not None and self.own_group
        os.killpg(self.proc.pid, sig)

    def group_alive(self) -> bool:
        """True while any process of the bot's group (``own_group``) is alive."""
        assert self.proc is not None and self.own_group
        try:
            os.killpg(self.proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    async def kill(self) -> int:
        """SIGKILL: the process dies at once, mid-whatever (a crash, a power cut)."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        code = await self.proc.wait()
        if self._reader is not None:  # its render processes follow it within a second
            await asyncio.wait_for(self._reader, 30)
        return code

    async def wait(self, within: float = 30.0) -> int:
        """Wait for the process to exit by itself; its exit code."""
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), within)
        if self._reader is not None:
            await self._reader
        return code

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.returncode is None:
            await self.stop()
