"""Results and the store's note that they were posted (issue 33).

Once Discord confirmed a hand's result in its channel, the store is told
(:attr:`bot.runtime.table.events.HandSettled.posted`: :func:`noted`), so that a restart
does not post it again. A result told again after a restart
(:mod:`bot.runtime.table.late_results`) is first looked for among the channel's last
messages (:func:`in_channel`): a kill after Discord took it, before the store heard,
must not post it twice. A result message is known by its **Hand log** button, which
names the hand (no other message of a table's channel carries it).

A table that closed before its last result was seen posted does not come back:
:func:`post_closed` posts its results at start, once the tables are restored, through
the same presenter path, then clears their marks whether Discord took them or not (a
channel gone or refusing is logged once, by the channel; never tried again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.adapter.hooks import LOOK_BACK
from bot.adapter.views import hand_button_id
from bot.runtime.table.late_results import closed_results

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter
    from bot.runtime.registry import TableRegistry

log = logging.getLogger("bot.adapter.late_results")

#: Seconds the start waits for closed tables' late results to be sent.
SENT_WITHIN = 30.0

__all__ = ["in_channel", "noted", "post_closed"]


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


async def post_closed(presenter: DiscordPresenter, registry: TableRegistry) -> int:
    """Post the results never seen posted of the closed tables of our servers, each in
    its table's channel, once; then clear their marks. How many were told."""
    told = await closed_results(registry.hands, registry.names, registry.owns)
    for event in told:
        presenter.channel(event.table).closing = True  # closed: no commitment thread
        await registry.observer.observe(event)
    try:  # the bot's start waits for them, not for ever
        await asyncio.wait_for(_sent(presenter, {e.table.table_id for e in told}), SENT_WITHIN)
    except TimeoutError:  # Discord slow: the marks stay, the next start looks again
        log.warning("late results of closed tables not sent within %s s", SENT_WITHIN)
        return len(told)
    for event in told:  # posted (already cleared), or refused for good: not tried again
        await noted(event.posted, event.table.table_id)
    if told:
        log.info("Posted late %d results of closed tables", len(told))
    return len(told)


async def _sent(presenter: DiscordPresenter, table_ids: set[int]) -> None:
    """Wait until the closed tables' channels sent what they have, then drop them."""
    for table_id in table_ids:
        channel = presenter.channels.get(table_id)
        if channel is not None:
            await channel.idle()
            if presenter.channels.get(table_id) is channel:
                del presenter.channels[table_id]
