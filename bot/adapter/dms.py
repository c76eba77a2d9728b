"""Direct messages from the bot: one DM channel per player, opened once, one at a time.

A refusal (Discord's 50007, "Cannot send messages to this user") is remembered
in :class:`bot.adapter.closed_dms.ClosedDms`: that player is not tried again
until they interact. Sending never raises: it answers whether the message went.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.bounded import Recent
from bot.adapter.closed_dms import CANNOT_DM, ClosedDms

if TYPE_CHECKING:
    from discord.ext import commands

__all__ = ["DirectMessages"]


class DirectMessages:
    def __init__(self, bot: commands.Bot, closed: ClosedDms) -> None:
        self.bot = bot
        self.closed = closed
        self._channels: Recent[int, int] = Recent()  # a forgotten one is opened again
        self._opening = asyncio.Lock()  # DM channels are opened one at a time

    async def send(self, user_id: int, text: str, **kwargs: Any) -> bool:
        """Send ``text`` (and ``kwargs``: a file, a view) to ``user_id``; False when Discord
        refuses it or refused it before."""
        if user_id in self.closed:
            return False
        try:
            channel_id = await self._channel(user_id)
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await dm.send(text, **kwargs)
        except discord.HTTPException as exc:
            if exc.code == CANNOT_DM:
                self.closed.refused(user_id)
            return False
        self.closed.delivered(user_id)
        return True

    async def _channel(self, user_id: int) -> int:
        """The player's DM channel: one request per player, ever (no user look-up first).

        DM channels are opened one at a time. Discord's bucket for opening them is small
        (10 per 10 s seen) and stays full while many tables start; with one request in
        flight, discord.py's count of it always follows Discord's answers, whereas
        concurrent ones, released together at the bucket's reset and then held by the
        pacer, could reach Discord in its next window on top of a full count: the 429s
        (scope user) the load benchmark saw at 50 tables.
        """
        async with self._opening:
            channel_id = self._channels.get(user_id)
            if channel_id is None:
                opened = await self.bot.http.start_private_message(user_id)
                channel_id = self._channels[user_id] = int(opened["id"])
            return channel_id
