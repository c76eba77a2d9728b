"""The bot class and `python -m bot`'s start-up: endpoints, intents, settings errors, cogs."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import time
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from bot.adapter.polite import UNEXPECTED, PoliteModal, PoliteView
from bot.client import EXTENSIONS, OmahaDealer, configure_endpoints, main, make_intents
from bot.runtime.errors import TableError
from bot.settings import Settings
from tests.conftest import PNG_SIGNATURE, Harness


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


def test_main_refuses_a_deck_key_open_to_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck key file the group or others may read: one line naming the chmod, exit 2,
    nothing started (DECK_KEY_PATH puts the key outside the database's folder)."""
    monkeypatch.chdir(tmp_path)
    key = tmp_path / "keys" / "deck.key"
    key.parent.mkdir()
    key.write_text("00" * 32 + "\n")
    key.chmod(0o644)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DECK_KEY_PATH", str(key))
    assert main([]) == 2
    err = capsys.readouterr().err
    assert f"chmod 600 {key}" in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.sqlite3*"))


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
    with caplog.at_level(logging.ERROR, logger="bot.adapter.polite"):
        reply = await h.slash(h.alice, "explode")
    assert reply.ephemeral
    assert reply.text == UNEXPECTED
    assert "As Kd" not in reply.text
    assert any("Unexpected error in explode" in r.getMessage() for r in caplog.records)
    assert h.unexpected
    h.allow_unexpected_errors = False
    with pytest.raises(AssertionError, match="unexpected errors"):
        h.check_errors()  # what the harness does after every test
    h.unexpected.clear()


# -- the offline Discord harness itself (bot/offline/) ------------------------------


class Probe(commands.Cog):
    """A test-only cog exercising what the table cogs need from the harness."""

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot
        self.lock = asyncio.Lock()
        self.clicks: list[str] = []
        self.inside = 0
        self.overlapped = False

    probe = app_commands.Group(name="probe", description="test only")

    @probe.command(name="deal", description="DM a PNG to the caller")
    async def deal(self, interaction: discord.Interaction) -> None:
        png = PNG_SIGNATURE + b"hole cards"
        try:
            await interaction.user.send("Your cards", file=discord.File(io.BytesIO(png), "h.png"))
        except discord.Forbidden as error:
            await interaction.response.send_message(
                f"DMs closed ({error.code}); use /cards", ephemeral=True
            )
            return
        await interaction.response.send_message("Dealt.", ephemeral=True)

    @probe.command(name="turn", description="Post a turn message with buttons")
    async def turn(self, interaction: discord.Interaction) -> None:
        view = ProbeView(self)
        await interaction.response.send_message("Alice to act", view=view)
        message = await interaction.original_response()

        async def clock() -> None:
            await asyncio.sleep(30)
            await message.edit(content="Alice timed out", view=None)

        self.timer = asyncio.get_running_loop().create_task(clock())


    @probe.command(name="remind", description="Post a reminder in 3 seconds")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Reminder set.", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)

        async def later() -> None:
            await asyncio.sleep(3)
            await channel.send("3 seconds have passed")

        self.reminder = asyncio.get_running_loop().create_task(later())


class RaiseModal(PoliteModal, title="Raise"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Raise to", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Raised to {self.amount.value}", ephemeral=True)


class ProbeView(PoliteView):
    def __init__(self, probe: Probe) -> None:
        super().__init__(timeout=None)
        self.probe = probe

    @discord.ui.button(label="Fold", custom_id="probe:fold")
    async def fold(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        probe = self.probe
        probe.inside += 1
        probe.overlapped |= probe.inside > 1
        async with probe.lock:
            await asyncio.to_thread(time.sleep, 0.02)
            if probe.clicks:
                probe.inside -= 1
                raise TableError("Too late: the hand is over.")
            probe.clicks.append(interaction.user.name)
        probe.inside -= 1
        await interaction.response.send_message("You fold.", ephemeral=True)

    @discord.ui.button(label="Raise", custom_id="probe:raise")
    async def raise_(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_modal(RaiseModal())


@pytest_asyncio.fixture
async def probed(harness: Harness) -> Harness:
    """The harness with the Probe cog added and synced."""
    await harness.bot.add_cog(Probe(harness.bot))
    await harness.bot.tree.sync()
    return harness


async def test_harness_dms_carry_png_attachments(probed: Harness) -> None:
    """A DM with a file arrives in the player's DM channel, readable as PNG bytes."""
    h = probed
    reply = await h.slash(h.alice, "probe deal")
    assert reply.ephemeral and reply.text == "Dealt."
    (dm,) = h.dms(h.alice)
    assert dm.content == "Your cards"
    assert await h.png(dm) == PNG_SIGNATURE + b"hole cards"
    assert h.dms(h.bob) == []


async def test_harness_closed_dms_fail_with_50007(probed: Harness) -> None:
    """close_dms makes the bot's DM fail as Discord does (Forbidden, code 50007)."""
    h = probed
    h.close_dms(h.bob)
    reply = await h.slash(h.bob, "probe deal")
    assert reply.ephemeral and reply.text == "DMs closed (50007); use /cards"
    assert h.dms(h.bob) == []
    assert (await h.slash(h.alice, "probe deal")).text == "Dealt."


async def test_harness_buttons_modals_and_virtual_time(probed: Harness) -> None:
    """Buttons answer, the Raise button's modal submits, and a 30 s clock fires instantly."""
    h = probed
    turn = await h.slash(h.alice, "probe turn")
    message = turn.message
    assert message is not None and [b["label"] for b in turn.buttons] == ["Fold", "Raise"]
    shown = await h.click(h.alice, message, label="Raise")
    assert shown.modal is not None and shown.modal["title"] == "Raise"
    submitted = await h.submit(h.alice, shown, {"amount": "120"})
    assert submitted.ephemeral and submitted.text == "Raised to 120"
    started = time.monotonic()
    await h.advance(29)
    assert h.last_message() is not None and h.last_message().content == "Alice to act"
    await h.advance(2)
    assert h.last_message().content == "Alice timed out"
    assert time.monotonic() - started < 5


async def test_harness_concurrent_clicks_interleave(probed: Harness) -> None:
    """concurrently() delivers both clicks before either handler finishes: one wins."""
    h = probed
    turn = await h.slash(h.alice, "probe turn")
    probe = h.bot.get_cog("Probe")
    assert isinstance(probe, Probe)
    first, second = await h.concurrently(
        lambda: h.click(h.alice, turn.message, label="Fold"),
        lambda: h.click(h.bob, turn.message, label="Fold"),
    )
    assert probe.overlapped, "the two handlers did not run at the same time"
    assert probe.clicks == ["alice"]
    assert first.text == "You fold." and first.ephemeral
    assert second.ephemeral and second.text == "Too late: the hand is over."


async def test_display_names_are_looked_up_once(harness: Harness) -> None:
    """Names for leaderboards come from Discord once, then from memory."""
    h = harness
    guild = h.bot.get_guild(h.guild.id)
    before = len(h.requests("GET", f"/members/{h.carol.id}"))
    assert await h.bot.display_name(guild, h.carol.id) == "carol"
    assert await h.bot.display_name(guild, h.carol.id) == "carol"
    assert len(h.requests("GET", f"/members/{h.carol.id}")) == before + 1
    assert await h.bot.display_name(None, 424242) == "player 424242"


async def test_harness_catches_unanswered_interactions(harness: Harness) -> None:
    """A command that never answers is reported by the harness's after-test check."""
    h = harness

    @app_commands.command(name="silent", description="test only")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    h.bot.tree.add_command(silent)
    await h.bot.tree.sync()
    reply = await h.slash(h.alice, "silent")
    assert not reply.acknowledged
    with pytest.raises(AssertionError, match=r"silent .* was never answered"):
        h.check_answered()
    h.allow_unanswered = True


async def test_harness_short_timers_wait_for_advance(probed: Harness) -> None:
    """A 3 s timer does not fire by the wall clock during an action, only on advance()."""
    h = probed
    started = time.monotonic()
    reply = await h.slash(h.alice, "probe remind")
    assert reply.text == "Reminder set."
    await h.slash(h.bob, "balance")
    assert time.monotonic() - started < 2.5
    assert all(m.content != "3 seconds have passed" for m in h.public_messages())
    await h.advance(2.9)
    assert all(m.content != "3 seconds have passed" for m in h.public_messages())
    await h.advance(0.2)
    assert h.last_message() is not None
    assert h.last_message().content == "3 seconds have passed"
