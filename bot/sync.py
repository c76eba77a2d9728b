"""``python -m bot sync [--guild ID] [--clear]``: the slash commands, synced on demand.

    python -m bot sync                  sync where the bot syncs at start, whatever the
                                        hashes say: DEV_GUILD_ID (and clear the global
                                        commands) when set, else globally
    python -m bot sync --guild ID       sync to that server only (shown there at once)
    python -m bot sync --clear          remove the global commands
    python -m bot sync --guild ID --clear
                                        remove that server's commands (after a DEV_GUILD_ID
                                        is changed or dropped: no command listed twice)

The bot logs in over REST only (no gateway connection, no table restored, no
metrics server or scheduled backup), loads its cogs to build the command tree,
syncs, keeps the tree's hash in the database like a start does
(:mod:`bot.adapter.command_sync`), prints one line and exits. Exit status 2 with a
one-line error when Discord or the settings refuse.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections.abc import Sequence

import discord

from bot.adapter.command_sync import CommandSync, where
from bot.client import OmahaDealer, configure_endpoints, configure_logging
from bot.settings import MissingToken, Settings, SettingsError

__all__ = ["main", "run_sync"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot sync",
                                     description="Sync the bot's slash commands now.")
    parser.add_argument("--guild", type=int, metavar="ID", help="a server id (default: global,"
                        " or DEV_GUILD_ID when set)")
    parser.add_argument("--clear", action="store_true", help="remove the commands instead")
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")
    return parser


async def run_sync(bot: OmahaDealer, guild_id: int | None, clear: bool) -> str:
    """On a bot logged in (``setup_hook`` done): sync or clear; the line to print."""
    syncing = CommandSync(bot, bot.app.db.state)
    if clear:
        await syncing.clear(guild_id)
        return f"Cleared the slash commands of {where(guild_id)}"
    if guild_id is None:
        done = await syncing.at_start(bot.settings.dev_guild_id, force=True)
        return f"Slash commands: {', '.join(done)} ({len(syncing.synced)} commands)"
    count = await syncing.sync(guild_id)
    return f"Synced {count} slash commands to {where(guild_id)}"


async def _run(settings: Settings, guild_id: int | None, clear: bool) -> str:
    quiet = dataclasses.replace(settings, metrics_port=None, backup_every=None, shards=None)
    bot = OmahaDealer(quiet, sync_commands=False, restore_tables=False)
    async with bot:
        await bot.login(settings.token.reveal())  # REST only; runs setup_hook
        return await run_sync(bot, guild_id, clear)


def main(argv: Sequence[str] = ()) -> int:
    args = _parser().parse_args(list(argv))
    try:
        settings = Settings.load(env_file=args.env_file)
    except (MissingToken, SettingsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging("WARNING", settings.log_format)
    configure_endpoints(settings)
    try:
        print(asyncio.run(_run(settings, args.guild, args.clear)))
    except discord.LoginFailure:
        print("error: Discord refused the token: check DISCORD_TOKEN", file=sys.stderr)
        return 2
    except discord.HTTPException as error:
        print(f"error: Discord refused the sync: {error.status} {error.text}", file=sys.stderr)
        return 2
    return 0
