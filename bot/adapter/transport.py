"""How a table's channel sends a request: by the channel's routes or an interaction's token.

:class:`Transport` is what :class:`bot.adapter.channel.TableChannel` (and the deck
commitments, :mod:`bot.adapter.commitment_posts`) send through. A refusal for good (404
Unknown Channel, 403, a locked thread: :data:`bot.adapter.posts.LOST_CODES`) raises
:class:`bot.adapter.posts.ChannelLost`. A thread archived after a week without messages
refuses requests (400, code 50083): it is unarchived (``PATCH /channels/{id}`` with
``archived: false``) and the request sent again, once. A request through an interaction's
token that Discord no longer takes, or asks to wait long (a 429), answers "not sent" so
the caller uses the channel's route instead (:mod:`bot.adapter.hooks`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.adapter.hooks import TokenWait, falling_back, refused_token, throttled
from bot.adapter.posts import LOST_CODES, THREAD_ARCHIVED, ChannelLost, Shown

__all__ = ["Transport"]

log = logging.getLogger("bot.adapter.channel")


class Transport:
    """The requests of table ``table_id``, whose channel is ``channel_id``."""

    def __init__(self, http: discord.http.HTTPClient, table_id: int, channel_id: int) -> None:
        self.http = http
        self.table_id = table_id
        self.channel_id = channel_id

    async def call(self, request: Awaitable[Any]) -> Any:
        """One request; a refusal for good raises :class:`ChannelLost`."""
        try:
            return await request
        except discord.HTTPException as exc:
            if exc.code in LOST_CODES:
                raise ChannelLost(LOST_CODES[exc.code], exc.code) from None
            raise

    async def send(
        self, request: Callable[[], Awaitable[Any]], *files: discord.File | None,
        into: int | None = None,
    ) -> Any:
        """One request by a channel's route (``request()`` makes it) into ``into`` (the
        table's channel by default); in an archived thread, the thread is unarchived and
        the request made again, once (``files`` rewound first)."""
        try:
            return await self.call(request())
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
        log.info("table %s: thread %s was archived; unarchiving it", self.table_id,
                 into or self.channel_id)
        await self.call(self.http.edit_channel(
            into or self.channel_id, archived=False, reason="a table plays in this thread"))
        for file in files:
            if file is not None:
                file.reset()
        return await self.call(request())

    async def by_hook(self, request: Awaitable[Any]) -> tuple[bool, Any]:
        """One request through an interaction's token: (True, its answer), or (False, None)
        when Discord no longer takes the token or asks it to wait long (a 429; the caller
        then uses the channel's route)."""
        try:
            return True, await self.call(falling_back(request))
        except TokenWait as wait:
            log.info("table %s: a token must wait %.1f s: the channel's route instead",
                     self.table_id, wait.retry_after)
            return False, None
        except discord.HTTPException as exc:
            if not (refused_token(exc) or throttled(exc)) and exc.code != THREAD_ARCHIVED:
                raise
            log.info("table %s: an interaction token was refused (%s %s)",
                     self.table_id, exc.status, exc.code)
            return False, None

    async def edit(self, shown: Shown, **kwargs: Any) -> None:
        """Edit the live message: through a valid interaction token, else the channel."""
        hook = shown.via()
        if hook is not None:
            request: Awaitable[Any]
            if hook.message_id == shown.message.id:  # the message the click was on
                request = hook.interaction.edit_original_response(**kwargs)
            else:  # the click's followup
                request = hook.interaction.followup.edit_message(shown.message.id, **kwargs)
            if (await self.by_hook(request))[0]:
                return
            shown.hook = None
            for file in kwargs.get("attachments", []):
                if isinstance(file, discord.File):
                    file.reset()
        files = [f for f in kwargs.get("attachments", []) if isinstance(f, discord.File)]
        await self.send(lambda: shown.message.edit(**kwargs), *files)

    async def delete_shown(self, shown: Shown) -> bool:
        """Delete the live message through the token that reaches it: False when there is
        none (or it was refused): the channel's route must then."""
        hook = shown.via()
        with contextlib.suppress(discord.NotFound):
            if hook is not None and hook.message_id == shown.message.id:
                return bool((await self.by_hook(hook.interaction.delete_original_response()))[0])
            if hook is not None:
                deleting = hook.interaction.followup.delete_message(shown.message.id)
                return bool((await self.by_hook(deleting))[0])
        return False

    async def delete(self, message: discord.PartialMessage | None) -> None:
        if message is not None:
            with contextlib.suppress(discord.NotFound):
                await self.send(message.delete)
