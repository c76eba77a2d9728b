"""Threads for the tables of a multi-table tournament (:mod:`bot.runtime.tournament.mtt`).

Each table plays in a public thread the bot opens under the tournament's channel
(``POST /channels/{id}/threads``), archived after a week without messages (the
longest Discord allows: 10080 minutes; a message at the table revives it). The
bot needs Create Public Threads and Send Messages in Threads there; a refusal
becomes a polite :class:`~bot.runtime.errors.TableError` before the tournament
stores anything about its tables.
"""

from __future__ import annotations

from typing import Literal

import discord

from bot.i18n import Command, Phrase
from bot.runtime.errors import TableError

__all__ = ["ARCHIVE_MINUTES", "open_table_thread"]

#: Discord's longest auto-archive duration (7 days), in minutes.
ARCHIVE_MINUTES: Literal[10080] = 10080


async def open_table_thread(client: discord.Client, parent_id: int, name: str) -> int:
    """Open a public thread named ``name`` under the text channel ``parent_id``."""
    channel = client.get_channel(parent_id)
    try:
        if channel is None:
            channel = await client.fetch_channel(parent_id)
        if not isinstance(channel, discord.TextChannel):
            raise TableError(Phrase("refuse.mtt.text_channel"))
        thread = await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_MINUTES, reason="a tournament table")
    except discord.Forbidden:
        raise TableError(Phrase("refuse.mtt.thread_permissions")) from None
    except discord.HTTPException as exc:
        raise TableError(Phrase("refuse.mtt.thread_refused", status=str(exc.status),
                                start=Command("tournament start"))) from None
    return thread.id
