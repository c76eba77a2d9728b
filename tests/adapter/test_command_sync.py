"""Slash commands synced only when the tree changed; with DEV_GUILD_ID, never twice;
``python -m bot sync`` on demand (through the offline Discord's sync routes)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from simcord import Env

from bot.adapter.command_sync import digest, place, run_sync
from bot.client import OmahaDealer
from bot.offline.harness import FakeWallClock
from bot.settings import Secret, Settings
from bot.sync import main
from tests.conftest import Harness

DEV_GUILD = 1_234_567_890_123_456_789 >> 1


def stored(h: Harness, guild_id: int | None = None) -> str:
    """The state name of this application's hash for that place."""
    return place(h.env.backend.application_id, guild_id)


async def sync(h: Harness, guild_id: int | None, *, clear: bool) -> str:
    """``python -m bot sync``'s work (``--guild``, ``--clear``) on the running bot."""
    bot = h.bot
    return await run_sync(bot, bot.db.state, bot.settings.dev_guild_id, guild_id, clear)


def puts(h: Harness) -> list[str]:
    return [r.path for r in h.env.http_requests if r.method == "PUT"]


async def restart(h: Harness, **options: object) -> OmahaDealer:
    """A new bot on the same database (``options``: its other constructor arguments)."""
    old = h.bot
    new = OmahaDealer(old.settings, **options)  # type: ignore[arg-type]
    await h.env.restart_bot(new)
    await old.close()
    return new


async def test_a_restart_with_the_same_tree_costs_no_sync(harness: Harness) -> None:
    h = harness
    app_id = h.env.backend.application_id
    assert puts(h) == [f"/applications/{app_id}/commands"]  # the first start syncs
    kept = await h.bot.db.state.get(stored(h))
    assert kept is not None and len(kept) == 64
    bot = await restart(h)
    assert puts(h) == [f"/applications/{app_id}/commands"]  # unchanged: no request
    assert bot.synced == []
    assert (await h.slash(h.alice, "balance")).text == "You have 10,000 chips."


async def test_a_changed_tree_is_synced_at_start(harness: Harness) -> None:
    h = harness
    before = await h.bot.db.state.get(stored(h))
    bot = await restart(h, extensions=("cogs.errors", "cogs.economy"))  # fewer commands
    assert len(puts(h)) == 2
    assert {c.name for c in bot.synced} >= {"balance", "daily"}
    assert "table" not in {c.name for c in bot.synced}
    assert set(h.env.backend.commands[None]) == {(c.name, 1) for c in bot.synced}
    after = await bot.db.state.get(stored(h))
    assert after not in (before, None)


async def test_dev_guild_gets_the_commands_and_the_global_ones_are_cleared_once(
    tmp_path: Path,
) -> None:
    """With DEV_GUILD_ID the commands go to that server and the global ones are cleared
    (no command listed twice there); a restart sends neither again."""
    settings = Settings(
        token=Secret("t"), database_path=str(tmp_path / "d.sqlite3"), dev_guild_id=DEV_GUILD
    )
    env = Env(OmahaDealer(settings))
    guild = env.create_guild("Dev", id=DEV_GUILD)  # the bot is in it before it starts
    channel = guild.create_text_channel("dev")
    alice = guild.add_member(env.create_user("alice"))
    await env.start()
    h = Harness(env, FakeWallClock())
    try:
        app_id = env.backend.application_id
        assert puts(h) == [f"/applications/{app_id}/guilds/{DEV_GUILD}/commands",
                           f"/applications/{app_id}/commands"]
        assert env.backend.commands[None] == {} and env.backend.commands[DEV_GUILD]
        assert await h.bot.db.state.get(stored(h)) == digest([])
        result = await alice.slash(channel, "balance")
        assert result.response is not None
        assert result.response.content == "You have 10,000 chips."
        await restart(h)
        assert len(puts(h)) == 2
    finally:
        await h.bot.close()
        await env.shutdown()


async def test_a_server_the_bot_is_not_in_is_refused(harness: Harness) -> None:
    """Discord's answer to a sync for a server the bot is not in: 403 Missing Access."""
    with pytest.raises(discord.Forbidden) as refused:
        await sync(harness, 42, clear=False)
    assert refused.value.code == 50001
    assert await harness.bot.db.state.get(stored(harness, 42)) is None


async def test_sync_on_demand_forces_and_clears(harness: Harness) -> None:
    """``python -m bot sync``'s work: a forced sync although nothing changed, then
    ``--guild ID --clear`` and ``--clear`` empty those places (Discord takes an empty
    bulk overwrite), and the hashes say so."""
    h = harness
    bot = h.bot
    line = await sync(h, None, clear=False)
    assert line.startswith("Slash commands: synced all servers (global)") and len(puts(h)) == 2
    line = await sync(h, h.guild.id, clear=False)
    assert line.startswith("Synced ") and h.env.backend.commands[h.guild.id]
    assert await bot.db.state.get(stored(h, h.guild.id)) == await bot.db.state.get(stored(h))
    assert await sync(h, h.guild.id, clear=True) == (
        f"Cleared the slash commands of server {h.guild.id}")
    assert h.env.backend.commands[h.guild.id] == {}
    assert await bot.db.state.get(stored(h, h.guild.id)) == digest([])
    await sync(h, None, clear=True)
    assert h.env.backend.commands[None] == {}
    bot = await restart(h)  # the tree differs from what Discord has now: synced again
    assert h.env.backend.commands[None] and len(puts(h)) == 6


def test_sync_without_a_token_says_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "Traceback" not in err
