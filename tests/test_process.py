"""`python -m bot`, unchanged, against the fake Discord on 127.0.0.1 (REST + gateway)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.process import REPO

PNG = b"\x89PNG\r\n\x1a\n"


async def test_bot_logs_in_syncs_and_answers_balance(tmp_path: Path) -> None:
    """The real process logs in, syncs its commands and answers /balance and /chips."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        alice = fd.add_member(guild, "alice")
        manny = fd.add_member(guild, "manny", manager=True)
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            await bot.wait_for_log("Logged in as")
            names = {c["name"] for c in fd.global_commands}
            assert {"balance", "daily", "leaderboard", "stats", "chips", "economy"} <= names
            assert {"table", "fold", "check", "call", "bet", "raise", "allin", "cards"} <= names

            reply = await (await fd.slash(alice, poker, "balance")).reply()
            assert reply.content == "You have 10,000 chips."
            assert reply.ephemeral

            grant = await fd.slash(manny, poker, "chips grant", user=alice, amount="5k",
                                   reason="welcome")
            assert "Gave 5,000 chips" in (await grant.reply()).content
            refused = await (await fd.slash(alice, poker, "chips grant", user=alice,
                                            amount="1", reason="me")).reply()
            assert refused.ephemeral and "Manage Server" in refused.content
            bad = await (await fd.slash(manny, poker, "chips remove", user=alice,
                                        amount="-3", reason="x")).reply()
            assert bad.ephemeral and "negative" in bad.content
            again = await (await fd.slash(alice, poker, "balance")).reply()
            assert again.content == "You have 15,000 chips."

            code = await bot.stop()
        assert code == 0, bot.log
        assert fd.unhandled == []
        assert fd.token not in bot.log
        assert "Synced" in bot.log and "Shutting down" in bot.log
        assert "Database closed" in bot.log
    # the database the process left behind proves that no chip was created or lost
    audit = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "audit", "--db", bot.database, cwd=REPO,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await audit.communicate()
    assert audit.returncode == 0, out.decode()
    assert "granted" in out.decode() and "OK" in out.decode()


async def test_leaderboard_image_and_buttons_through_http(tmp_path: Path) -> None:
    """A deferred reply edited with a PNG (multipart), then paged with a button click."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, f"p{i}") for i in range(12)]
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            for p in players:
                await (await fd.slash(p, poker, "balance")).reply()
            it = await fd.slash(players[0], poker, "leaderboard")
            board = await it.reply()
            assert board.attachments[0].filename == "leaderboard.png"
            assert "1. p" in (board.attachments[0].description or "")  # its alt text
            first = board.file()
            assert first.startswith(PNG)
            assert [b["label"] for b in board.buttons()] == ["Previous", "Page 1 of 2", "Next"]
            click = await fd.click(players[0], board, label="Next")
            await click.answer()
            await fd.wait_until(lambda: board.buttons()[1]["label"] == "Page 2 of 2")
            assert board.file().startswith(PNG) and board.file() != first
            await bot.stop()
        assert fd.unhandled == []


async def test_dev_guild_id_syncs_to_that_server_only(tmp_path: Path) -> None:
    """With DEV_GUILD_ID the process syncs to that server only; commands work in threads."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Dev Club")
        dev = fd.add_channel(guild, "dev")
        thread = fd.add_thread(dev, "side game")
        alice = fd.add_member(guild, "alice")
        env = {"DEV_GUILD_ID": str(guild.id)}
        async with BotProcess(fd, tmp_path, env=env) as bot:
            await fd.wait_until_ready()
            assert fd.global_commands == []
            assert "balance" in {c["name"] for c in fd.guild_commands[guild.id]}
            reply = await (await fd.slash(alice, dev, "balance")).reply()
            assert reply.content == "You have 10,000 chips."
            in_thread = await (await fd.slash(alice, thread, "balance", public=True)).reply()
            assert in_thread.channel_id == thread.id
            assert fd.last_message(thread) is in_thread
            assert await bot.stop() == 0
        assert f"server {guild.id}" in bot.log
        assert fd.unhandled == []


@pytest.mark.parametrize("closed", [False, True])
async def test_fake_discord_dms_with_attachments_and_closed_dms(
    closed: bool, restore_endpoints: None
) -> None:
    """The fake's DM routes: a DM with a PNG arrives; closed DMs fail with 50007."""
    import io

    import discord

    from bot.client import configure_endpoints
    from bot.settings import Settings

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        alice = fd.add_member(guild, "alice")
        if closed:
            fd.close_dms(alice)
        configure_endpoints(Settings.from_mapping({
            "DISCORD_TOKEN": fd.token, "DISCORD_API_BASE": fd.api_base,
            "DISCORD_GATEWAY_URL": fd.gateway_url,
        }))
        client = discord.Client(intents=discord.Intents.none())
        await client.login(fd.token)
        try:
            user = await client.fetch_user(alice.id)
            png = PNG + b"cards"
            if closed:
                with pytest.raises(discord.Forbidden) as info:
                    await user.send("Your cards", file=discord.File(io.BytesIO(png), "hole.png"))
                assert info.value.code == 50007
                assert fd.dms(alice) == []
            else:
                sent = await user.send("Your cards", file=discord.File(io.BytesIO(png), "hole.png"))
                await sent.edit(content="Your cards (table 1)")
                (dm,) = fd.dms(alice)
                assert dm.content == "Your cards (table 1)" and dm.file() == png
                assert dm.attachments[0].filename == "hole.png"
                assert await sent.attachments[0].read() == png
                with pytest.raises(discord.HTTPException) as long:  # Discord's 1024 at most
                    await user.send(file=discord.File(io.BytesIO(png), "hole.png",
                                                      description="d" * 1025))
                assert long.value.status == 400 and long.value.code == 50035
                assert len(fd.dms(alice)) == 1
        finally:
            await client.close()


async def test_fake_discord_buttons_modals_and_dms_over_the_wire(
    tmp_path: Path, restore_endpoints: None
) -> None:
    """An in-process bot over real HTTP/websocket: buttons, a modal, DMs, closed DMs."""
    from bot.client import OmahaDealer, configure_endpoints
    from bot.settings import Settings
    from tests.test_client import Probe

    class ProbeBot(OmahaDealer):
        async def setup_hook(self) -> None:
            await super().setup_hook()
            await self.add_cog(Probe(self))
            await self.sync_application_commands()

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        alice, bob = fd.add_member(guild, "alice"), fd.add_member(guild, "bob")
        fd.close_dms(bob)
        settings = Settings.from_mapping({
            "DISCORD_TOKEN": fd.token, "DISCORD_API_BASE": fd.api_base,
            "DISCORD_GATEWAY_URL": fd.gateway_url,
            "DATABASE_PATH": str(tmp_path / "p.sqlite3"),
        })
        configure_endpoints(settings)
        bot = ProbeBot(settings, extensions=("cogs.errors",), sync_commands=False)
        runner = asyncio.create_task(bot.start(fd.token))
        try:
            await fd.wait_until_ready()
            await fd.wait_until(lambda: any(c["name"] == "probe" for c in fd.global_commands))
            turn = await (await fd.slash(alice, poker, "probe turn")).reply()
            assert turn.content == "Alice to act" and not turn.ephemeral
            opened = await (await fd.click(alice, turn, label="Raise")).answer()
            assert opened.modal is not None and opened.modal["title"] == "Raise"
            raised = await (await fd.submit_modal(alice, opened, {"amount": "120"})).reply()
            assert raised.ephemeral and raised.content == "Raised to 120"
            folded = await (await fd.click(bob, turn, label="Fold")).reply()
            assert folded.content == "You fold." and folded.ephemeral
            dealt = await (await fd.slash(alice, poker, "probe deal")).reply()
            assert dealt.content == "Dealt."
            (dm,) = fd.dms(alice)
            assert dm.file() == PNG + b"hole cards"
            closed = await (await fd.slash(bob, poker, "probe deal")).reply()
            assert closed.ephemeral and "50007" in closed.content
            assert fd.dms(bob) == []
        finally:
            probe = bot.get_cog("Probe")
            if probe is not None and hasattr(probe, "timer"):
                probe.timer.cancel()
            await bot.close()
            await runner
        assert fd.unhandled == []


async def test_table_deal_reaches_dms_and_buttons_over_the_wire(tmp_path: Path) -> None:
    """Smoke test for the fake: a real process deals a hand (PNG DMs), a button click acts."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, name) for name in ("alice", "bob", "carol")]
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            created = await (await fd.slash(players[0], poker, "table create")).reply()
            assert "Table 1 is open" in created.content
            for p in players:
                joined = await (await fd.slash(p, poker, "table join", buyin="200")).reply()
                assert joined.ephemeral and "You sat down" in joined.content
            for p in players:  # the hand starts after the pause between hands (real time)
                dm = await fd.wait_for_message(
                    lambda m, p=p: m.channel_id == fd.dm_channel(p).id, within=20
                )
                assert "Your cards for hand #1" in dm.content
                assert dm.file().startswith(PNG)
            turn = await fd.wait_for_message(lambda m: any(
                b.get("label") == "Fold" for b in m.buttons()), within=10)
            actor = next(p for p in players if p.mention in turn.content)
            await (await fd.click(actor, turn, label="Fold")).answer()
            assert not any("Your cards" in m.content for m in fd.channel_messages(poker))
            assert await bot.stop() == 0
        assert fd.unhandled == []
