"""Slash commands synced only when they changed, and never shown twice.

Discord keeps an application's commands globally and per server; a sync is a
bulk overwrite (``PUT /applications/{app}/commands`` or ``.../guilds/{id}/commands``)
and Discord limits how many commands an application may create a day. So the bot
keeps, in the database (``db.state``, :mod:`bot.storage.bot_state`), the SHA-256 of the
payload it last synced to each place of this application (``commands:<app>:global``,
``commands:<app>:guild:<id>``: another application, a new token for another bot on the
same database, syncs anew):
the payload :meth:`discord.app_commands.CommandTree.sync` sends, translations
included. At start (:meth:`CommandSync.at_start`) it syncs only a place whose hash
differs, so a restart with the same code costs no request.

With ``DEV_GUILD_ID`` the commands go to that server only (they show there at once)
and the global ones are cleared, once (the hash of the empty list is then kept): a
server that had the global commands would otherwise list every command twice.

``python -m bot sync`` (:mod:`bot.sync`) syncs or clears on demand, whatever the hashes.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.adapter.login_errors import CannotConnect, DevGuildRefused, log_in
from bot.storage.bot_state import BotState

__all__ = ["CommandSync", "SyncRefused", "digest", "place", "run_sync", "sync_now", "where"]

log = logging.getLogger("bot.adapter.command_sync")



def place(app_id: int, guild_id: int | None) -> str:
    """The ``db.state`` name of the hash of application ``app_id``'s commands there."""
    return f"commands:{app_id}:" + ("global" if guild_id is None else f"guild:{guild_id}")


def where(guild_id: int | None) -> str:
    return "all servers (global)" if guild_id is None else f"server {guild_id}"


def digest(payload: list[dict[str, Any]]) -> str:
    """The SHA-256 of a command payload (keys sorted: the same tree, the same hash)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class CommandSync:
    """Syncs ``bot``'s command tree, remembering what was synced in ``state``."""

    def __init__(self, bot: commands.Bot, state: BotState) -> None:
        self.bot = bot
        self.state = state
        self.synced: list[discord.app_commands.AppCommand] = []

    def name(self, guild_id: int | None) -> str:
        app_id = self.bot.application_id
        if app_id is None:
            raise discord.app_commands.MissingApplicationID
        return place(app_id, guild_id)

    async def payload(self, guild_id: int | None) -> list[dict[str, Any]]:
        """What a sync to that place sends (a server gets the global commands copied)."""
        tree = self.bot.tree
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            tree.copy_global_to(guild=guild)
        found = tree.get_commands(guild=guild)
        translator = tree.translator
        if translator is None:
            return [command.to_dict(tree) for command in found]
        return [await command.get_translated_payload(tree, translator) for command in found]

    async def changed(self, guild_id: int | None) -> bool:
        payload = await self.payload(guild_id)
        return await self.state.get(self.name(guild_id)) != digest(payload)

    async def sync(self, guild_id: int | None) -> int:
        """Send the tree to that place, whatever it had; the number of commands."""
        payload = await self.payload(guild_id)
        guild = None if guild_id is None else discord.Object(id=guild_id)
        self.synced = await self.bot.tree.sync(guild=guild)
        await self.state.put(self.name(guild_id), digest(payload))
        log.info("Synced %d application commands to %s", len(self.synced), where(guild_id))
        return len(self.synced)

    async def clear(self, guild_id: int | None) -> None:
        """Remove every command of this application from that place."""
        http, name = self.bot.http, self.name(guild_id)
        app_id = self.bot.application_id
        assert app_id is not None  # name() checked it
        if guild_id is None:
            await http.bulk_upsert_global_commands(app_id, payload=[])
        else:
            await http.bulk_upsert_guild_commands(app_id, guild_id, payload=[])
        await self.state.put(name, digest([]))
        log.info("Cleared the application commands of %s", where(guild_id))

    async def at_start(self, dev_guild_id: int | None, *, force: bool = False) -> list[str]:
        """What the bot does as it starts: the places it synced or cleared (none when the
        tree did not change; ``force``: sync whatever the hashes say). Discord refusing
        ``dev_guild_id`` (a server the bot is not in) is :class:`DevGuildRefused`."""
        done: list[str] = []
        if force or await self.changed(dev_guild_id):
            try:
                await self.sync(dev_guild_id)
            except (discord.Forbidden, discord.NotFound) as refused:
                if dev_guild_id is None:
                    raise
                raise DevGuildRefused(dev_guild_id, refused) from None
            done.append(f"synced {where(dev_guild_id)}")
        if dev_guild_id is not None and (
                force or await self.state.get(self.name(None)) != digest([])):
            await self.clear(None)
            done.append(f"cleared {where(None)}")
        if not done:
            log.info("Application commands unchanged since the last sync: not synced")
        return done


class SyncRefused(Exception):
    """Discord refused the token or the sync, or could not be reached (``python -m bot
    sync`` prints it, exit 2)."""


async def run_sync(bot: commands.Bot, state: BotState, dev_guild_id: int | None,
                   guild_id: int | None, clear: bool) -> str:
    """``python -m bot sync``'s work on a bot logged in: sync or clear; the line to print.
    Without ``guild_id`` it syncs as a start does (``dev_guild_id``), whatever the hashes."""
    syncing = CommandSync(bot, state)
    if clear:
        await syncing.clear(guild_id)
        return f"Cleared the slash commands of {where(guild_id)}"
    if guild_id is None:
        done = await syncing.at_start(dev_guild_id, force=True)
        return f"Slash commands: {', '.join(done)} ({len(syncing.synced)} commands)"
    count = await syncing.sync(guild_id)
    return f"Synced {count} slash commands to {where(guild_id)}"


async def sync_now(bot: commands.Bot, token: str, state: Callable[[], BotState],
                   dev_guild_id: int | None, guild_id: int | None, clear: bool) -> str:
    """Log ``bot`` in over REST (``setup_hook`` builds the tree and opens the database,
    then ``state()`` reaches it), run :func:`run_sync`, close; the line to print."""
    async with bot:
        try:
            await log_in(bot, token, discord.http.Route.BASE)
            return await run_sync(bot, state(), dev_guild_id, guild_id, clear)
        except CannotConnect as exc:
            raise SyncRefused(str(exc)) from None
        except discord.HTTPException as exc:
            raise SyncRefused(f"Discord refused the sync: {exc.status} {exc.text}") from None
