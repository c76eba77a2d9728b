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
one-line error when Discord or the settings refuse, or Discord cannot be reached
(:mod:`bot.adapter.login_errors`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections.abc import Sequence

from bot.adapter.command_sync import SyncRefused, sync_now
from bot.client import OmahaDealer, configure_endpoints, configure_logging
from bot.settings import MissingToken, Settings, SettingsError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot sync",
                                     description="Sync the bot's slash commands now.")
    parser.add_argument("--guild", type=int, metavar="ID", help="a server id (default: global,"
                        " or DEV_GUILD_ID when set)")
    parser.add_argument("--clear", action="store_true", help="remove the commands instead")
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")
    return parser


async def _run(settings: Settings, guild_id: int | None, clear: bool) -> str:
    quiet = dataclasses.replace(settings, metrics_port=None, backup_every=None, shards=None)
    bot = OmahaDealer(quiet, sync_commands=False, restore_tables=False)
    return await sync_now(bot, settings.token.reveal(), lambda: bot.app.db.state,
                          settings.dev_guild_id, guild_id, clear)


def main(argv: Sequence[str] = ()) -> int:
    args = _parser().parse_args(list(argv))
    try:
        settings = Settings.load(env_file=args.env_file)
    except (MissingToken, SettingsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging("ERROR", settings.log_format)  # one line out: no start-up chatter
    configure_endpoints(settings)
    try:
        print(asyncio.run(_run(settings, args.guild, args.clear)))
    except SyncRefused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
