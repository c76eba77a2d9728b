"""Quiet shutdown: Ctrl-C (SIGINT) or SIGTERM stops ``python -m bot`` cleanly.

The bot runs in a process group of its own, as a job in a terminal, with its
render processes (``RENDER_PROCESSES``, 2 by default); the signal goes to the
whole group, as a terminal's Ctrl-C and a service manager's stop send it. The
bot exits 0 with no traceback from any process, every render process is gone,
and the database it leaves passes the chip audit.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.process import REPO


async def audit(database: str) -> str:
    run = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "audit", "--db", database, cwd=REPO,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await run.communicate()
    assert run.returncode == 0, out.decode()
    return out.decode()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_signal_mid_hand_stops_the_bot_quietly(sig: int, tmp_path: Path) -> None:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, name) for name in ("alice", "bob", "carol")]
        bot = BotProcess(fd, tmp_path, env={"RENDER_PROCESSES": "2"}, own_group=True)
        await bot.start()
        try:
            await fd.wait_until_ready()
            await (await fd.slash(players[0], poker, "table create")).reply()
            for p in players:
                await (await fd.slash(p, poker, "table join", buyin="200")).reply()
            turn = await fd.wait_for_message(lambda m: any(
                b.get("label") == "Fold" for b in m.buttons()) and bool(m.attachments), within=30)
            assert turn.file().startswith(b"\x89PNG")  # drawn by the render processes
            bot.signal_group(sig)
            code = await bot.wait(within=30)
        finally:
            if bot.proc is not None and bot.proc.returncode is None:
                await bot.kill()
        assert code == 0, bot.log
        assert "Traceback" not in bot.log, bot.log
        assert "Database closed" in bot.log, bot.log
        for _ in range(50):  # the render processes leave with the bot
            if not bot.group_alive():
                break
            await asyncio.sleep(0.1)
        assert not bot.group_alive(), "a render process outlived the bot"
    assert "OK" in await audit(bot.database)
