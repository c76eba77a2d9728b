"""Reading a hand's deck commitment back from the message that posted it.

``/hand verify`` checks a hand's proof against the root that was **posted before
the deal** (the message whose id is stored with the hand, in the table's commitment
thread, or in the table's channel for hands dealt before threads or where the bot
may not open one: :mod:`bot.adapter.commitment_posts`), not against the database's
copy of it:
a root changed in the database after the hand would then fail, since Discord
keeps the message as it was posted (the bot never edits it; an edit would show
as "(edited)" to everyone).

A hand verified this way was dealt from the deck order fixed before its first
card; that is all the commitment can show. It says nothing of whether the
shuffle was fair or whether the bot's operator picked this deck among others
before posting it (:mod:`bot.engine.commitment`; README, "Checking a deal").
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.storage import HandRecord

__all__ = ["PostedRoot", "posted_root"]

#: The root as the commitment message writes it: 64 hex digits in backticks.
ROOT_IN_MESSAGE = re.compile(r"`([0-9a-f]{64})`")


class PostedRoot:
    """What the channel says of a hand's root: ``root`` None when it could not be read."""

    __slots__ = ("link", "root")

    def __init__(self, root: str | None, link: str) -> None:
        self.root = root
        self.link = link


async def posted_root(
    interaction: discord.Interaction[Any], record: HandRecord
) -> PostedRoot:
    """The root posted for ``record`` in its commitment thread, or in the interaction's
    channel (the hand's table is there: ``/hand verify`` only reads this channel's hands),
    with the message's link."""
    channel_id = record.commitment_channel or interaction.channel_id or 0
    message_id = record.commitment_message
    link = f"https://discord.com/channels/{interaction.guild_id or '@me'}/{channel_id}"
    if message_id is None:  # dealt before the message was kept
        return PostedRoot(None, link)
    link += f"/{message_id}"
    try:
        data = await interaction.client.http.get_message(channel_id, message_id)
    except discord.HTTPException:  # deleted, or the bot may not read the channel's history
        return PostedRoot(None, link)
    author = data.get("author", {}).get("id")
    me = interaction.client.user
    if me is None or str(author) != str(me.id):
        return PostedRoot(None, link)
    found = ROOT_IN_MESSAGE.search(str(data.get("content", "")))
    return PostedRoot(found.group(1) if found else None, link)
