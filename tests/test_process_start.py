"""``python -m bot`` when it cannot start: one line on stderr, no traceback, its exit status.

Real processes, each time: against the fake Discord refusing the token (401), against
an address where nothing listens (the REST API, or the gateway after a good login), and
a name that does not resolve; with a DEV_GUILD_ID of a server the bot is not in; with no
token at all in a folder holding nothing (a ``pip
install`` user's), whose instructions are then followed to a login; ``python -m bot
sync`` unable to reach Discord. And a bot that did connect keeps retrying when Discord
goes away: only the first connection fails fast.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

from bot.adapter.login_errors import EXIT_SETTINGS, EXIT_TOKEN_REFUSED, EXIT_UNREACHABLE
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.process import REPO

SETTINGS = ("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_", "RENDER_", "METRICS_", "BACKUP_")


def free_port() -> int:
    """A local port where nothing listens (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def run(cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    """``python -m bot ARGS`` in ``cwd`` with only ``env`` as its settings: its exit
    status, stdout and stderr."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
    environ.update(env, PYTHONPATH=str(REPO), RENDER_PROCESSES="0")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=cwd, env=environ,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def one_error(stderr: str) -> str:
    """The one ERROR record of a JSON log on stderr, with no traceback anywhere."""
    records = [json.loads(line) for line in stderr.splitlines()]  # every line is JSON
    errors = [r for r in records if r["level"] == "ERROR"]
    assert len(errors) == 1, stderr
    assert "error" not in errors[0], stderr  # the record carries no traceback
    message: str = errors[0]["message"]
    return message


async def test_a_refused_token_is_one_line_and_status_3(tmp_path: Path) -> None:
    """The default text log: one ERROR line saying what to check, then exit 3."""
    async with FakeDiscord() as fd:
        env = fd.bot_environment(str(tmp_path / "bot.sqlite3"))
        env["DISCORD_TOKEN"] = "not-this-bots-token"
        code, out, err = await run(tmp_path, env)
    assert code == EXIT_TOKEN_REFUSED == 3, err
    assert out == "" and "Traceback" not in err
    errors = [line for line in err.splitlines() if "ERROR" in line]
    assert len(errors) == 1, err
    assert errors[0].endswith(
        "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN (in .env or the"
        " environment) is your bot's current token, copied whole from"
        " https://discord.com/developers/applications > your application > Bot > Reset Token")
    assert "not-this-bots-token" not in err


async def test_an_api_where_nothing_listens_is_one_line_and_status_4(tmp_path: Path) -> None:
    api = f"http://127.0.0.1:{free_port()}/api/v10"
    env = {"DISCORD_TOKEN": "abc", "DISCORD_API_BASE": api, "LOG_FORMAT": "json"}
    code, out, err = await run(tmp_path, env)
    assert code == EXIT_UNREACHABLE == 4, err
    assert out == ""
    assert one_error(err) == (
        f"Cannot reach Discord's API at {api}: 127.0.0.1 refused the connection; check the"
        " network, DNS and firewall of this machine, and DISCORD_API_BASE")


async def test_a_name_that_does_not_resolve_is_one_line_and_status_4(tmp_path: Path) -> None:
    api = "https://omaha-dealer.invalid/api/v10"  # .invalid never resolves (RFC 2606)
    env = {"DISCORD_TOKEN": "abc", "DISCORD_API_BASE": api, "LOG_FORMAT": "json"}
    code, _, err = await run(tmp_path, env)
    assert code == EXIT_UNREACHABLE, err
    assert one_error(err) == (
        f"Cannot reach Discord's API at {api}: cannot resolve omaha-dealer.invalid (DNS);"
        " check the network, DNS and firewall of this machine, and DISCORD_API_BASE")


async def test_a_gateway_where_nothing_listens_is_one_line_and_status_4(tmp_path: Path) -> None:
    """The login works, the gateway does not: the database opened at login is closed
    again, one line names the gateway, exit 4."""
    async with FakeDiscord() as fd:
        fd.add_guild("Poker Club")
        gateway = f"ws://127.0.0.1:{free_port()}/gateway"
        env = fd.bot_environment(str(tmp_path / "bot.sqlite3"), LOG_FORMAT="json",
                                 DISCORD_GATEWAY_URL=gateway)
        code, _, err = await run(tmp_path, env)
        assert fd.unhandled == []
    assert code == EXIT_UNREACHABLE, err
    assert one_error(err) == (
        f"Cannot reach Discord's gateway at {gateway}: 127.0.0.1 refused the connection;"
        " check the network, DNS and firewall of this machine, and DISCORD_GATEWAY_URL")
    assert "Database closed" in err


async def test_a_dev_guild_the_bot_is_not_in_is_one_line_and_status_2(tmp_path: Path) -> None:
    """DEV_GUILD_ID set before the bot was invited there (or a wrong id): Discord refuses
    the commands (403 Missing Access); one line says what to do, exit 2 (a setting)."""
    async with FakeDiscord() as fd:
        fd.add_guild("Poker Club")
        stranger = 123_456_789_012_345_678
        env = fd.bot_environment(str(tmp_path / "bot.sqlite3"), LOG_FORMAT="json",
                                 DEV_GUILD_ID=str(stranger))
        code, _, err = await run(tmp_path, env)
    assert code == EXIT_SETTINGS, err
    assert one_error(err) == (
        f"DEV_GUILD_ID is {stranger}, a server this bot is not in (Discord answered 403"
        " Missing Access): invite the bot there first (README \"Inviting the bot\"), correct"
        " the id, or leave DEV_GUILD_ID empty to sync the commands to every server")
    assert "Database closed" in err


async def test_sync_that_cannot_reach_discord_says_so_in_one_line(tmp_path: Path) -> None:
    api = f"http://127.0.0.1:{free_port()}/api/v10"
    code, out, err = await run(tmp_path, {"DISCORD_TOKEN": "abc", "DISCORD_API_BASE": api},
                               "sync")
    assert code == 2 and out == ""
    assert err == (f"error: Cannot reach Discord's API at {api}: 127.0.0.1 refused the"
                   " connection; check the network, DNS and firewall of this machine,"
                   " and DISCORD_API_BASE\n")


async def test_no_token_tells_a_pip_user_what_to_create_and_it_works(tmp_path: Path) -> None:
    """A folder with nothing in it (no .env.example: a ``pip install`` user's): the
    message names the file to create, its line, the environment variable instead and
    where the token comes from; doing what it says logs the bot in."""
    async with FakeDiscord() as fd:
        fd.add_guild("Poker Club")
        env = fd.bot_environment(str(tmp_path / "bot.sqlite3"))
        del env["DISCORD_TOKEN"]
        code, out, err = await run(tmp_path, env)
        assert code == EXIT_SETTINGS == 2 and out == ""
        assert err.startswith("DISCORD_TOKEN is not set")
        dotenv = tmp_path / ".env"
        assert f"create the file {dotenv} with this line:" in err
        assert "set the environment variable DISCORD_TOKEN" in err
        assert "https://discord.com/developers/applications" in err and "Reset Token" in err
        assert "copy .env.example" not in err and "Traceback" not in err

        line = next(part.strip() for part in err.splitlines()
                    if part.strip().startswith("DISCORD_TOKEN="))
        dotenv.write_text(line.replace("your-token-here", fd.token) + "\n")
        async with BotProcess(fd, tmp_path, env={"DISCORD_TOKEN": ""}) as bot:
            await fd.wait_until_ready()
            await bot.wait_for_log("Logged in as")
            assert await bot.stop() == 0


async def test_discord_lost_after_the_start_is_retried_not_an_exit(tmp_path: Path) -> None:
    """Only the first connection fails fast: once connected, Discord going away (the
    fake stops: every reconnection is refused, a network error as at the start) is
    discord.py's to retry, and the bot waits for it instead of exiting."""
    async with FakeDiscord() as fd:
        # a close frame lost on a busy machine is noticed by a missed heartbeat: make it
        # seconds, not Discord's 41 s (longer than the wait below)
        fd.gateway.heartbeat_ms = 2_000
        fd.add_guild("Poker Club")
        bot = BotProcess(fd, tmp_path, env={"RENDER_PROCESSES": "0"})
        await bot.start()
        await fd.wait_until_ready()
        await bot.wait_for_log("Logged in as")
    await bot.wait_for_log("Attempting a reconnect")
    await bot.wait_for_log("Connect call failed")  # refused, as with no network
    assert bot.proc is not None and bot.proc.returncode is None
    assert await bot.stop() == 0
    assert "Cannot reach" not in bot.log
