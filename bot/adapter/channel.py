"""One table's channel on Discord: a calm channel within a request budget.

The channel shows a hand as **one live message** at the bottom: the table
picture, the last actions, the turn (a mention, the clock as Discord's
relative timestamp) and the buttons. When the turn passes, the live message
is posted anew (a mention notifies only in a new message) and the old one is
deleted: two requests per action. When the turn passed by a player's click,
raise form or slash command, both go through interaction routes, which Discord
exempts from its global rate limit (:mod:`bot.adapter.hooks`: the next live
message is the click's or command's followup, the old one the click's
``@original`` or deleted through the token that posted it); otherwise through
the channel's routes. When the hand ends, the live message is
edited into the result (the turn's buttons replaced by **Hand log**, the
showdown picture): one request. A new live message pings the players it asks
who chose to be pinged (:mod:`bot.adapter.prefs`), once per decision. A
run-out edits it once per street, with each hand's equity. Before each hand its
deck commitment goes out as a message of its own, never edited or deleted, in the
table's commitment thread (:mod:`bot.adapter.commitment_posts`), at once and before
any other waiting request, in a task of its own: the table deals only once Discord
has it (:class:`bot.adapter.posts.Commitment`). The join that completed the table
(or the click that ended the last hand) carries the first message of the next hand,
and the commitment too when it goes to the table's channel.

Requests go out from one task per table, so a slow or rate-limited request
delays only its own table. Everything that must appear in order (notices,
run-out stages, results) waits in :attr:`TableChannel.posts`; the live state
is a single slot, so when several changes queue up behind a slow request only
the newest is sent (coalesced), and a picture is uploaded only when it
changed. When Discord says the channel is gone or the bot may not use it
(404 Unknown Channel, 403), or that the table's thread was locked (160005),
the channel stops sending and reports it once. The requests themselves, by the
channel's routes or an interaction's token (and an archived thread unarchived), are
:class:`bot.adapter.transport.Transport`'s.
When Discord refuses a new live message otherwise (a 5xx after discord.py's
own retries, or another refusal), it is sent again after a growing pause
(:data:`RETRY_PAUSES`): a turn prompt is never lost. A refused edit is
dropped (the next change sends the whole state again).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.after_hand import Offering
from bot.adapter.commitment_posts import deliver
from bot.adapter.hooks import NOTICE_CONFIRM_WAIT, Hook, post_followup
from bot.adapter.late_results import in_channel, noted
from bot.adapter.limits import fit_message
from bot.adapter.pictures import TablePictures, render_gate
from bot.adapter.posts import (
    NO_PINGS,
    ChannelLost,
    Commitment,
    Picture,
    Post,
    Result,
    Shown,
    Stage,
    Text,
    pinging,
)
from bot.adapter.scenes import (
    Live,
    language,
    live_content,
    live_pings,
    live_token,
    result_content,
    table_view,
)
from bot.adapter.transport import Transport
from bot.adapter.views import hand_log_button, live_buttons, result_buttons
from bot.i18n import translate
from bot.render import TableView, alt
from bot.runtime.table.views import TableSnapshot

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter

log = logging.getLogger("bot.adapter.channel")

#: Seconds before sending a refused live message again (the last one repeats).
RETRY_PAUSES = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)

class TableChannel:
    """The requests of one table's channel, sent in order by one task."""

    def __init__(self, presenter: DiscordPresenter, snap: TableSnapshot) -> None:
        self.presenter = presenter
        self.table_id = snap.table_id
        #: The table's language when the channel opened (a long batch of notices ends
        #: in "… and 3 more lines" in it).
        self.language = language(snap)
        self.guild_id = snap.guild_id
        self.channel = presenter.bot.get_partial_messageable(
            snap.channel_id, guild_id=snap.guild_id
        )
        self.requests = Transport(presenter.bot.http, snap.table_id, snap.channel_id)
        self.posts: deque[Post] = deque()
        self.live: Live | None = None
        self.refresh = False
        self.lost = False
        self.closing = False  # the table closed: no commitment thread opened for its last posts
        self._shown: Shown | None = None
        self._reminder: discord.PartialMessage | None = None
        self.offering: Offering | None = None  # after-hand buttons, retired at the next deal
        self._task: asyncio.Task[None] | None = None
        self._click: Hook | None = None  # a click on the live message, to carry the next one
        #: The click whose token edited the last hand's result, or the join that completed
        #: the table: it carries the next hand's first message (outside the global rate
        #: limit, like a turn's).
        self._carrier: Hook | None = None
        self._earlier: Hook | None = None  # the join before it (its answer surely in place)
        self._posting = False  # a new live message is being sent
        self._early: Hook | None = None  # a click that came before Discord's answer to it
        self._failures = 0  # new live messages refused in a row
        self._pinged: str | None = None  # the last decision whose message was posted
        #: Tasks beside the sender: old messages deleted, deck commitments posted.
        self._sweeps: set[asyncio.Task[None]] = set()
        #: The live message's pictures (:mod:`bot.adapter.pictures`).
        self.pictures = TablePictures(lambda: presenter.pictures)

    # -- what the presenter asks -------------------------------------------------
    def post(self, item: Post) -> None:
        if not (self.lost or self.closing):  # its commitment thread, before its first hand
            self.presenter.commitment_threads.open(self)
        if isinstance(item, Commitment):
            self.commit(item)
            return
        self.posts.append(item)
        self.kick()

    def carry(self, hook: Hook) -> None:
        """An acknowledged join: its token (the newest's) carries the table's notices and
        its next hand's first message while no click does."""
        self._earlier, self._carrier = self._carrier, hook

    def commit(self, item: Commitment) -> None:
        """Post a deck commitment at once, beside the sender (its table waits for it, and
        is told it is on its way: it is not given up while it is)."""
        if self.lost:
            item.receipt.failed()
            return
        item.receipt.took()
        self._beside(deliver(self, item))

    def carriers(self) -> list[Hook]:
        """The tokens that may carry the next hand's first messages, newest first: valid,
        and not a join that was refused."""
        return [h for h in (self._carrier, self._earlier)
                if h is not None and h.valid() and not h.refused()]

    def carrier(self) -> Hook | None:
        """The token that carries the next hand's first message, if any."""
        return next(iter(self.carriers()), None)

    def say_commitments_here(self) -> None:
        """Tell the table once that its deck commitments are posted in its channel."""
        self.post(Text(translate(self.language, "notice.commitments_here")))

    def take_click(self, hook: Hook, *, refused: bool = False) -> None:
        """A player acts by a click, the raise form or a slash command (already
        acknowledged): a click's token reaches the live message it is on; the first
        action on a live message carries the next one (a double click's second is
        refused). A command is bound to the live message shown now (or to the one being
        posted). ``refused``: the runtime refused that action after all, it carries
        nothing."""
        if refused:
            if self._click is not None and self._click.interaction is hook.interaction:
                self._click = None
            if self._early is not None and self._early.interaction is hook.interaction:
                self._early = None
            return
        shown = self._shown
        if self.lost:
            return
        if self._posting and (hook.by_command or shown is None
                              or hook.message_id != shown.message.id):
            self._early = hook  # on the message being posted: Discord's answer is on its way
            return
        if shown is None:
            return
        if hook.by_command:
            hook = hook.on(shown.message.id)
        elif hook.message_id != shown.message.id:
            return
        else:
            shown.hook = hook
        if self._click is None or self._click.message_id != hook.message_id:
            self._click = hook

    def kick(self) -> None:
        """Something changed: make sure the sender runs."""
        if self.lost:
            self._drop_posts()
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"table-{self.table_id}-channel"
            )

    async def idle(self) -> None:
        while pending := [t for t in (self._task, *self._sweeps) if t and not t.done()]:
            await asyncio.wait(pending)

    def stop(self) -> None:
        """The channel is lost: drop everything and stop the sender (if it is not the caller)."""
        self.lost = True
        self._drop_posts()
        self.live = None
        self._shown = None
        self.pictures.stop()
        for sweep in list(self._sweeps):
            if sweep is not asyncio.current_task():
                sweep.cancel()
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    def _drop_posts(self) -> None:
        """Nothing queued will be sent."""
        self.posts.clear()

    async def lose(self, lost: ChannelLost) -> None:
        """Discord refuses the channel for good: stop, and report it once."""
        if self.lost:
            return
        self.lost = True
        self._drop_posts()
        await self.presenter.channel_lost(self.table_id, str(lost))

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
                await self.lose(lost)
            except discord.HTTPException as exc:
                log.warning("table %s: Discord refused a request (%s %s)",
                            self.table_id, exc.status, exc.code)
                if self._posting:
                    await self._pause_after_refusal()
                else:
                    self._forget_failed()

    async def _pause_after_refusal(self) -> None:
        """A new live message (a turn prompt) was refused: it is sent again after a pause."""
        self._posting = False
        pause = RETRY_PAUSES[min(self._failures, len(RETRY_PAUSES) - 1)]
        self._failures += 1
        await asyncio.sleep(pause)

    def _forget_failed(self) -> None:
        """After a refused edit, treat the live state as sent (the next change sends it all)."""
        if self.live is not None and self._shown is not None:
            self._shown.version = self.live.version

    async def _send_post(self, item: Post) -> None:
        if isinstance(item, Text):
            await self._text(item)
        elif isinstance(item, Stage):
            await self._stage(item)
        elif isinstance(item, Picture):
            file = self.presenter.file(*await item.picture())
            await self.requests.send(lambda: self.channel.send(
                item.content, file=file, allowed_mentions=NO_PINGS), file)
        elif isinstance(item, Result):
            await self._result(item)

    async def _text(self, item: Text) -> None:
        # consecutive plain notices go out as one message
        lines, pings = [item.content], set(item.pings)
        while not item.reminder and item.view is None and self.posts:
            nxt = self.posts[0]
            if not isinstance(nxt, Text) or nxt.reminder or nxt.view is not None:
                break
            self.posts.popleft()
            lines.append(nxt.content)
            pings |= nxt.pings
        text, view = fit_message(lines, locale=self.language), item.view or discord.utils.MISSING
        if item.view is None and not item.reminder and await self._carried(text, pings):
            return
        msg = await self.requests.send(
            lambda: self.channel.send(text, view=view, allowed_mentions=pinging(pings))
        )
        if item.reminder:
            await self.requests.delete(self._reminder)
            self._reminder = self.channel.get_partial_message(msg.id)

    async def _carried(self, text: str, pings: set[int]) -> bool:
        """A notice posted by the token that carries the next hand (a join's, or the click
        that ended the last hand), outside the global rate limit: it does not wait behind
        other tables' requests, nor make the next hand's first message wait."""
        usable = self.carriers()
        # one whose answer is in place now, else the newest once its answer is
        carrier = next((h for h in usable if h.settled()), self.carrier())
        if carrier is None or not await carrier.ready(NOTICE_CONFIRM_WAIT):
            return False
        sent, _ = await self.requests.by_hook(post_followup(
            carrier, self.channel, text, allowed_mentions=pinging(pings)))
        return bool(sent)

    async def _stage(self, item: Stage) -> None:
        shown = self._shown
        if shown is None or shown.hand_no != item.view.hand_number:
            return
        file = self._table_file(item.view, await self.pictures.draw_now(item.view))
        try:
            await self.requests.edit(shown, content=item.content, attachments=[file], view=None)
        finally:  # the seat panels show the street now, never before the message
            self.presenter.panels.shown(self.table_id, item)
        shown.picture = item.view
        await asyncio.sleep(self.presenter.runout_pause)

    async def _result(self, item: Result) -> None:
        try:
            await self._show_result(item)
        finally:  # the seat panels show the result now, never before the message
            self.presenter.panels.shown(self.table_id, item)

    async def _show_result(self, item: Result) -> None:
        live, shown = item.live, self._shown
        if item.result.after_restart and await in_channel(self.channel, live.snap.hand_id):
            self._beside(noted(item.posted, self.table_id))  # posted before a kill
            return
        content = result_content(live.snap, item.result)
        async with render_gate().slot():
            picture = await item.picture()
        files = [self.presenter.file(*picture)] if picture else []
        log = result_buttons(live.snap, item.result, self.language)
        await self.requests.delete(self._reminder)
        self._reminder = None
        if shown is not None and shown.hand_no == item.result.hand_no:
            await self.requests.edit(shown, content=content, attachments=files, view=log)
            self._carrier = shown.via()
            sent: discord.PartialMessage | discord.Message = shown.message
        else:
            sent = await self.requests.send(lambda: self.channel.send(
                content, files=files, view=log or discord.utils.MISSING,
                allowed_mentions=NO_PINGS), *files)
        offers = item.result.rabbit_hunt or item.result.showing
        self.offering = (sent, hand_log_button(live.snap.hand_id, self.language)) \
            if offers else None
        self._shown = None
        if self.live is not None and self.live.hand_no == item.result.hand_no:
            self.live = None
        self._beside(noted(item.posted, self.table_id))

    def _needs_new(self, live: Live, shown: Shown) -> bool:
        token = live_token(live)
        return shown.hand_no != live.hand_no or (token is not None and token != shown.token)

    async def _sync_live(self) -> None:
        live, shown = self.live, self._shown
        if live is None:
            self.refresh = False
            return
        if shown is None or self.refresh or self._needs_new(live, shown):
            await self._post_live(live, shown)
        elif shown.version != live.version:
            view = table_view(live)
            kwargs: dict[str, Any] = {"content": self._content(live), "view": self._buttons(live)}
            if view != shown.picture:
                file = await self._file(view)
                if file is not None:  # None: the street's picture is still being drawn
                    kwargs["attachments"] = [file]
                shown.picture = view
            shown.version = live.version
            await self.requests.edit(shown, **kwargs)

    def _content(self, live: Live) -> str:
        """The live message's text, with a link to the table's commitment thread."""
        content, thread = live_content(live), self.presenter.commitment_threads.known(
            self.table_id)
        if thread is None:
            return content
        link = translate(self.language, "table.commitments_link", thread=f"<#{thread}>")
        return fit_message((content, link), locale=self.language)

    @staticmethod
    def _buttons(live: Live) -> discord.ui.View:
        question = live.question.token if live.question else None
        return live_buttons(live.snap, live.turn, question)

    async def _post_live(self, live: Live, shown: Shown | None) -> None:
        """Post the live message anew (the click's followup when a click carries it),
        then delete the old one and the reminder."""
        view, content, buttons = table_view(live), self._content(live), self._buttons(live)
        # what is being sent: ``live`` keeps changing while the request is under way
        token, version, hand_no = live_token(live), live.version, live.hand_no
        pings = self._pings(live, token)
        click = acted = None if self.refresh else self._take_click(shown)
        carrier, self._carrier, self._earlier = self.carrier(), None, None
        if click is None and shown is None and carrier is not None:
            click = carrier  # a new hand's first message, after the result its token edited
        file = await self._file(view)
        picture: dict[str, Any] = {"file": file} if file else {}
        self._posting, self._early = True, None
        sent, msg = False, None
        if click is not None and await click.ready():
            sent, msg = await self.requests.by_hook(post_followup(
                click, self.channel, content, view=buttons, allowed_mentions=pinging(pings),
                **picture))
        if not sent:
            click = None
            if file:
                file.reset()
            msg = await self.requests.send(lambda: self.channel.send(
                content, view=buttons, allowed_mentions=pinging(pings),
                **picture), *picture.values())
        assert msg is not None
        self._posting, self._failures, self.refresh = False, 0, False
        if acted is not None and self.presenter.meter is not None:
            self.presenter.meter.prompted(acted.interaction.id)
        self._pinged = token
        self._shown = Shown(
            self.channel.get_partial_message(msg.id), hand_no, token, version, view, click
        )
        self._bind_early(msg.id)
        if shown is not None:
            await self._delete_shown(shown)
        self._sweep(self._reminder)
        self._reminder = None

    def _pings(self, live: Live, token: str | None) -> frozenset[int]:
        """Whom a new live message for decision ``token`` notifies: the players it asks
        who chose to be pinged on their turn, once per decision (the message posted again
        by ``/table refresh`` pings nobody)."""
        if token is None or token == self._pinged:
            return frozenset()
        return self.presenter.prefs.pinged(live.snap.guild_id, live_pings(live))

    def _bind_early(self, message_id: int) -> None:
        """An action that came while ``message_id`` was being posted: on it."""
        early, self._early = self._early, None
        if early is None or self._shown is None:
            return
        if early.by_command:
            self._click = early.on(message_id)
        elif early.message_id == message_id:
            self._shown.hook = self._click = early

    def _take_click(self, shown: Shown | None) -> Hook | None:
        """The click that passed the turn, if it was on ``shown`` and its token is valid."""
        click, self._click = self._click, None
        if click is None or shown is None or click.message_id != shown.message.id:
            return None
        return click if click.valid() else None

    # -- requests ----------------------------------------------------------------------
    async def _file(self, view: TableView) -> discord.File | None:
        png = await self.pictures.for_view(view)
        return None if png is None else self._table_file(view, png)

    def _table_file(self, view: TableView, png: bytes) -> discord.File:
        return self.presenter.file(f"table-{self.table_id}-hand-{view.hand_number}.png", png,
                                   alt.table(view))

    async def _delete_shown(self, shown: Shown) -> None:
        if not await self.requests.delete_shown(shown):
            self._sweep(shown.message)

    def _sweep(self, message: discord.PartialMessage | None) -> None:
        """Delete an old message by the channel's route, which may wait for the global
        budget, without holding up the table's next turn message (order does not matter)."""
        if message is None or self.lost:
            return
        self._beside(self._delete_quietly(message))

    def _beside(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._sweeps.add(task)
        task.add_done_callback(self._sweeps.discard)

    async def _delete_quietly(self, message: discord.PartialMessage) -> None:
        try:
            await self.requests.delete(message)
        except (ChannelLost, discord.HTTPException) as exc:  # the sender sees a lost channel
            log.warning("table %s: an old message was not deleted (%s)", self.table_id, exc)
