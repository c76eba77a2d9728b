"""The bot class and `python -m bot`'s start-up: endpoints, intents, settings errors, cogs."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import discord
import pytest
import simcord
from discord import app_commands

from bot.client import EXTENSIONS, OmahaDealer, configure_endpoints, main, make_intents
from bot.settings import Secret, Settings
from cogs.errors import UNEXPECTED
from tests.conftest import Harness


def test_configure_endpoints_points_rest_and_gateway_elsewhere(restore_endpoints: None) -> None:
    """DISCORD_API_BASE and DISCORD_GATEWAY_URL reach every Route and the websocket."""
    settings = Settings.from_mapping({
        "DISCORD_TOKEN": "t",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
    })
    configure_endpoints(settings)
    route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=42)
    assert route.url == "http://127.0.0.1:9/api/v10/channels/42"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert str(gateway) == "ws://127.0.0.1:9/gateway"
    configure_endpoints(Settings.from_mapping({"DISCORD_TOKEN": "t"}))
    assert discord.http.Route("GET", "/gateway").url == "https://discord.com/api/v10/gateway"


def test_no_privileged_intents() -> None:
    """The bot asks only for the guilds intent: no members, presences or message content."""
    intents = make_intents()
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


def test_main_without_token_explains_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No token anywhere: exit code 2 and instructions on stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "developers/applications" in err


def test_main_with_a_bad_setting_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad value in .env is named on stderr and the bot does not start."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    Path(".env").write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=my-server\n")
    assert main([]) == 2
    assert "DEV_GUILD_ID" in capsys.readouterr().err


async def test_setup_hook_opens_db_loads_cogs_and_syncs(harness: Harness) -> None:
    """At start the database is migrated, every extension loaded and commands synced."""
    bot = harness.bot
    assert set(bot.extensions) == set(EXTENSIONS)
    assert await asyncio.to_thread(os.path.isfile, bot.settings.database_path)
    assert [line.ok for line in await bot.db.audit()] in ([], [True])
    names = {c.name for c in bot.synced}
    assert {"balance", "daily", "leaderboard", "stats", "chips", "economy"} <= names
    assert harness.requests("PUT", "/commands")


async def test_restart_keeps_the_chips(harness: Harness) -> None:
    """A new bot on the same database file sees the same balances."""
    h = harness
    await h.slash(h.manager, "chips grant", user=h.alice, amount="777", reason="before restart")
    await h.restart()
    assert (await h.slash(h.alice, "balance")).text == "You have 10,777 chips."


async def test_dev_guild_sync_targets_that_server_only(tmp_path: Path) -> None:
    """With DEV_GUILD_ID the commands are synced to that server, not globally."""
    guild_id = 1_234_567_890_123_456_789 >> 1
    settings = Settings(
        token=Secret("t"), database_path=str(tmp_path / "d.sqlite3"), dev_guild_id=guild_id
    )
    bot = OmahaDealer(settings)
    async with simcord.run(bot) as env:
        guild = env.create_guild("Dev", id=guild_id)
        channel = guild.create_text_channel("dev")
        alice = guild.add_member(env.create_user("alice"))
        puts = [r.path for r in env.http_requests if r.method == "PUT"]
        assert puts == [f"/applications/{env.backend.application_id}/guilds/{guild_id}/commands"]
        result = await alice.slash(channel, "balance")
        assert result.response is not None
        assert result.response.content == "You have 10,000 chips."


async def test_unexpected_errors_get_an_apology_and_are_logged(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug answers privately with a short apology that leaks nothing, and is logged."""
    h = harness
    h.allow_unexpected_errors = True

    @app_commands.command(name="explode", description="test only")
    async def explode(interaction: discord.Interaction) -> None:
        raise RuntimeError("hole cards As Kd Qh Jc")

    h.bot.tree.add_command(explode)
    await h.bot.tree.sync()
    with caplog.at_level(logging.ERROR, logger="cogs.errors"):
        reply = await h.slash(h.alice, "explode")
    assert reply.ephemeral
    assert reply.text == UNEXPECTED
    assert "As Kd" not in reply.text
    assert any("Unexpected error in explode" in r.getMessage() for r in caplog.records)
    assert h.unexpected
