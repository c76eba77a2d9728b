"""``python -m bot sync`` as an operator runs it: a real process, REST only, over the fake
Discord on 127.0.0.1; the hash it keeps spares the next start a sync."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.process import REPO


async def sync(fd: FakeDiscord, database: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_"))}
    env.update(fd.bot_environment(str(database)))
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync", *args, cwd=database.parent, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_sync_clear_and_a_refused_server_then_a_start_that_needs_no_sync(
    tmp_path: Path,
) -> None:
    database = tmp_path / "bot.sqlite3"
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        code, out, err = await sync(fd, database)
        assert (code, err) == (0, ""), err
        assert out.startswith("Slash commands: synced all servers (global)")
        names = {c["name"] for c in fd.global_commands}
        assert {"table", "balance", "tournament"} <= names
        code, out, _ = await sync(fd, database, "--guild", str(guild.id))
        assert code == 0 and out.startswith("Synced ") and fd.guild_commands[guild.id]
        code, out, _ = await sync(fd, database, "--guild", str(guild.id), "--clear")
        assert code == 0 and out == f"Cleared the slash commands of server {guild.id}\n"
        assert fd.guild_commands[guild.id] == []
        code, out, err = await sync(fd, database, "--guild", "42")
        assert code == 2 and out == ""
        assert err.startswith("error: Discord refused the sync: 403") and "Traceback" not in err
        # the bot starts on that database: its global commands are as synced, no request
        synced_before = len([r for r in fd.requests if r[0] == "PUT"])
        async with BotProcess(fd, tmp_path, database=str(database)) as bot:
            await fd.wait_until_ready()
            await bot.wait_for_log("Logged in as")
            assert await bot.stop() == 0
        assert len([r for r in fd.requests if r[0] == "PUT"]) == synced_before
        assert "unchanged since the last sync" in bot.log
