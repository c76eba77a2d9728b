"""One table's channel on Discord: a calm channel within a request budget.

The channel shows a hand as **one live message** at the bottom: the table
picture, the last actions, the turn (a mention, the clock as Discord's
relative timestamp) and the buttons. When the turn passes, the live message
is posted anew (a mention notifies only in a new message) and the old one is
deleted: two requests per action. When the hand ends, the live message is
edited into the result (buttons removed, the showdown picture, the whole
hand's log): one request. A run-out edits it once per street, with each
hand's equity.

Requests go out from one task per table, so a slow or rate-limited request
delays only its own table. Everything that must appear in order (notices,
run-out stages, results) waits in :attr:`TableChannel.posts`; the live state
is a single slot, so when several changes queue up behind a slow request only
the newest is sent (coalesced), and a picture is uploaded only when it
changed. When Discord says the channel is gone or the bot may not use it
(404 Unknown Channel, 403), the channel stops sending and reports it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.render import TableView, render_table_async
from bot.runtime.views import HandResultView, TableSnapshot
from cogs.limits import EMBED_DESCRIPTION, fit_message
from cogs.scenes import Live, live_content, result_content, table_view
from cogs.views import live_buttons

if TYPE_CHECKING:
    from cogs.presenter import DiscordPresenter

log = logging.getLogger("cogs.channel")

#: Discord's codes for a channel the bot can no longer use.
#: The values complete "the table was closed because ...".
LOST_CODES = {
    10003: "the channel was deleted",
    50001: "I lost access to the channel",
    50013: "I lost permissions the table needs in the channel",
}
NO_PINGS = discord.AllowedMentions.none()
USER_PINGS = discord.AllowedMentions(users=True, everyone=False, roles=False)


class ChannelLost(Exception):
    """Discord refuses this channel for good (deleted, no access, missing permissions)."""


@dataclass(frozen=True)
class Text:
    """A message in the channel: ``ping`` mentions notify; a ``reminder`` is removed later."""

    content: str
    ping: bool = False
    reminder: bool = False


@dataclass(frozen=True)
class Stage:
    """One street of a run-out, shown by editing the live message."""

    view: TableView
    content: str


@dataclass(frozen=True)
class Result:
    live: Live
    result: HandResultView
    picture: Callable[[], Awaitable[tuple[str, bytes] | None]]


@dataclass(frozen=True)
class Picture:
    """A message with one picture, drawn when its turn to be sent comes."""

    content: str
    picture: Callable[[], Awaitable[tuple[str, bytes]]]


Post = Text | Stage | Result | Picture


@dataclass
class _Shown:
    """The live message as it is on Discord."""

    message: discord.PartialMessage
    hand_no: int
    token: str | None
    version: int
    picture: TableView | None


def hand_log(hand_no: int, lines: list[str]) -> tuple[discord.Embed, discord.File | None]:
    """Every line of the hand: in the result's embed, and in a text file when too long."""
    text = "\n".join(lines)
    if len(text) <= EMBED_DESCRIPTION:
        return discord.Embed(title="The hand", description=text), None
    embed = discord.Embed(
        title="The hand (the whole log is in the attached file)",
        description=fit_message(lines, EMBED_DESCRIPTION),
    )
    return embed, discord.File(io.BytesIO(text.encode()), filename=f"hand-{hand_no}.txt")


class TableChannel:
    """The requests of one table's channel, sent in order by one task."""

    def __init__(self, presenter: DiscordPresenter, snap: TableSnapshot) -> None:
        self.presenter = presenter
        self.table_id = snap.table_id
        self.channel = presenter.bot.get_partial_messageable(
            snap.channel_id, guild_id=snap.guild_id
        )
        self.posts: deque[Post] = deque()
        self.live: Live | None = None
        self.refresh = False
        self.lost = False
        self._shown: _Shown | None = None
        self._reminder: discord.PartialMessage | None = None
        self._task: asyncio.Task[None] | None = None

    # -- what the presenter asks -------------------------------------------------
    def post(self, item: Post) -> None:
        self.posts.append(item)
        self.kick()

    def kick(self) -> None:
        """Something changed: make sure the sender runs."""
        if self.lost:
            self.posts.clear()
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"table-{self.table_id}-channel"
            )

    async def idle(self) -> None:
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def stop(self) -> None:
        """The channel is lost: drop everything and stop the sender (if it is not the caller)."""
        self.lost = True
        self.posts.clear()
        self.live = None
        self._shown = None
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    # -- the sender ------------------------------------------------------------------
    def _dirty(self) -> bool:
        if self.lost:
            return False
        if self.posts or self.refresh:
            return True
        live, shown = self.live, self._shown
        if live is None:
            return False
        return shown is None or self._needs_new(live, shown) or shown.version != live.version

    async def _run(self) -> None:
        while self._dirty():
            try:
                while self.posts:
                    await self._send_post(self.posts.popleft())
                await self._sync_live()
            except ChannelLost as lost:
                self.lost = True
                self.posts.clear()
                await self.presenter.channel_lost(self.table_id, str(lost))
            except discord.HTTPException as exc:
                log.warning("table %s: Discord refused a request (%s)", self.table_id, exc.status)
                self._forget_failed()

    def _forget_failed(self) -> None:
        """After a refused request, treat the live state as sent (no retry loop)."""
        if self.live is not None and self._shown is not None:
            self._shown.version = self.live.version
        self.refresh = False

    async def _send_post(self, item: Post) -> None:
        if isinstance(item, Text):
            await self._text(item)
        elif isinstance(item, Stage):
            await self._stage(item)
        elif isinstance(item, Picture):
            name, png = await item.picture()
            file = self.presenter.file(name, png)
            await self._call(self.channel.send(item.content, file=file,
                                               allowed_mentions=NO_PINGS))
        else:
            await self._result(item)

    async def _text(self, item: Text) -> None:
        # consecutive plain notices go out as one message
        lines, ping = [item.content], item.ping
        while not item.reminder and self.posts:
            nxt = self.posts[0]
            if not isinstance(nxt, Text) or nxt.reminder:
                break
            self.posts.popleft()
            lines.append(nxt.content)
            ping = ping or nxt.ping
        msg = await self._call(
            self.channel.send(fit_message(lines), allowed_mentions=USER_PINGS if ping else NO_PINGS)
        )
        if item.reminder:
            await self._delete(self._reminder)
            self._reminder = self.channel.get_partial_message(msg.id)

    async def _stage(self, item: Stage) -> None:
        shown = self._shown
        if shown is None or shown.hand_no != item.view.hand_number:
            return
        file = await self._file(item.view)
        await self._call(shown.message.edit(content=item.content, attachments=[file], view=None))
        shown.picture = item.view
        await asyncio.sleep(self.presenter.runout_pause)

    async def _result(self, item: Result) -> None:
        live, shown = item.live, self._shown
        content = result_content(live.snap, item.result)
        picture = await item.picture()
        files = [self.presenter.file(*picture)] if picture else []
        embed, log_file = hand_log(item.result.hand_no, live.log)
        files += [log_file] if log_file else []
        await self._delete(self._reminder)
        self._reminder = None
        if shown is not None and shown.hand_no == item.result.hand_no:
            await self._call(
                shown.message.edit(content=content, embed=embed, attachments=files, view=None)
            )
        else:
            await self._call(
                self.channel.send(content, embed=embed, files=files, allowed_mentions=NO_PINGS)
            )
        self._shown = None
        if self.live is not None and self.live.hand_no == item.result.hand_no:
            self.live = None

    def _needs_new(self, live: Live, shown: _Shown) -> bool:
        token = live.turn.token if live.turn else None
        return shown.hand_no != live.hand_no or (token is not None and token != shown.token)

    async def _sync_live(self) -> None:
        live, shown = self.live, self._shown
        if live is None:
            self.refresh = False
            return
        view = table_view(live)
        content = live_content(live)
        buttons = live_buttons(live.snap, live.turn)
        # what is being sent: ``live`` keeps changing while the request is under way
        token, version, hand_no = live.turn.token if live.turn else None, live.version, live.hand_no
        if shown is None or self.refresh or self._needs_new(live, shown):
            self.refresh = False
            msg = await self._call(
                self.channel.send(
                    content, file=await self._file(view), view=buttons, allowed_mentions=USER_PINGS
                )
            )
            self._shown = _Shown(
                self.channel.get_partial_message(msg.id), hand_no, token, version, view
            )
            await self._delete(shown.message if shown else None)
            await self._delete(self._reminder)
            self._reminder = None
        elif shown.version != live.version:
            kwargs: dict[str, Any] = {"content": content, "view": buttons}
            if view != shown.picture:
                kwargs["attachments"] = [await self._file(view)]
                shown.picture = view
            shown.version = version
            await self._call(shown.message.edit(**kwargs))

    # -- requests ----------------------------------------------------------------------
    async def _file(self, view: TableView) -> discord.File:
        png = await render_table_async(view)
        return self.presenter.file(f"table-{self.table_id}-hand-{view.hand_number}.png", png)

    async def _call(self, request: Awaitable[Any]) -> Any:
        """One request to the channel; a refusal for good raises :class:`ChannelLost`."""
        try:
            return await request
        except (discord.Forbidden, discord.NotFound) as exc:
            if exc.code in LOST_CODES:
                raise ChannelLost(LOST_CODES[exc.code]) from None
            raise

    async def _delete(self, message: discord.PartialMessage | None) -> None:
        if message is not None:
            with contextlib.suppress(discord.NotFound):
                await self._call(message.delete())
