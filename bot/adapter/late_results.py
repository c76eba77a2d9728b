"""Results and the store's note that they were posted (issue 33).

Once Discord confirmed a hand's result in its channel, the store is told
(:attr:`bot.runtime.table.events.HandSettled.posted`: :func:`noted`), so that a restart
does not post it again. A result told again after a restart
(:mod:`bot.runtime.table.late_results`) is first looked for among the channel's last
messages (:func:`in_channel`): a kill after Discord took it, before the store heard,
must not post it twice. A result message is known by its **Hand log** button, which
names the hand (no other message of a table's channel carries it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.adapter.hooks import LOOK_BACK
from bot.adapter.views import hand_button_id

log = logging.getLogger("bot.adapter.late_results")

__all__ = ["in_channel", "noted"]


async def in_channel(channel: discord.abc.Messageable, hand_id: int | None) -> bool:
    """Whether hand ``hand_id``'s result is among ``channel``'s last messages (False when
    Discord would not say: then it is posted)."""
    if hand_id is None:
        return False
    wanted = hand_button_id(hand_id)
    try:
        async for message in channel.history(limit=LOOK_BACK):
            if any(getattr(item, "custom_id", None) == wanted
                   for row in message.components for item in getattr(row, "children", ())):
                return True
    except discord.HTTPException as exc:
        log.warning("could not read the channel's last messages (%s %s)", exc.status, exc.code)
    return False


async def noted(posted: Callable[[], Awaitable[None]], table_id: int) -> None:
    """Tell the store a result was posted; a store that cannot hear it now is logged (a
    restart then finds the result in the channel: :func:`in_channel`)."""
    try:
        await posted()
    except Exception as exc:
        log.warning("table %s: a result posted was not noted as posted (%s)", table_id, exc)
