"""Where a table's deck commitments go: a public thread of the table, out of the conversation.

Each hand's commitment (:class:`bot.adapter.posts.Commitment`) is posted before its deal
in the table's **commitment thread**, "Deck commitments — table N" in the table's
language: a public thread the bot opens once per table from the table's channel
(``POST /channels/{id}/threads``, archived after a week without messages, the longest
Discord allows; a commitment into an archived thread unarchives it,
:class:`bot.adapter.transport.Transport`). The thread's id is remembered between restarts
(``bot_state``, ``commitments:<table id>``), and the hand stores where its commitment is
(``hands.commitment_channel``), which ``/hand verify`` reads
(:mod:`bot.adapter.commitments`). The table's live message links the thread.

The thread is opened when the table's channel first shows something (its first join),
so that it is there before the first hand; each commitment's request goes before any
other waiting request (:func:`bot.adapter.pacing.urgent`). While the thread is still
being opened (its request waits its turn under the global rate limit: with 500 tables
opened together, for many seconds; issue 33), a table that has an interaction token to
post through (the join that completed it) posts its first commitment by that token in
the table's channel instead of waiting.

When the bot may not open threads there (Create Public Threads or Send Messages in
Threads missing: 403), the commitments are posted in the table's channel as before, and
the table is told so once. When the server has as many active threads as Discord allows
(1,000; 400, code 160006, or 160007 under an announcement channel: other bots' threads
count too), the commitments go to the table's channel for a while (the table is told
once), and the table tries a thread again :data:`FULL_RETRY` seconds later (at its next
post, a hand's at the latest). A table that plays in a thread (a tournament's) posts
them in its thread: Discord has no thread in a thread. A commitment thread deleted or
locked is replaced by a new one at the next hand.

When the table closes, after its last post, its commitment thread is archived (``PATCH
/channels/{id}`` with ``archived: true``, which Discord lets the bot that opened the
thread do): it no longer counts against the server's active threads and stays readable,
so ``/hand verify`` still reads its commitments. The table is forgotten here, and its
``bot_state`` entry deleted (:func:`archive`). A tournament's table thread is left as
it is (archived after a week without messages).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

import aiohttp
import discord

from bot.adapter.hooks import post_followup
from bot.adapter.pacing import urgent
from bot.adapter.posts import NO_PINGS, ChannelLost, Commitment, Text
from bot.adapter.threads import ARCHIVE_MINUTES
from bot.i18n import translate

if TYPE_CHECKING:
    from bot.adapter.channel import TableChannel

__all__ = ["CommitmentThreads", "State", "archive", "deliver", "post_commitment"]

log = logging.getLogger("bot.adapter.commitments")

#: Discord's answers when the bot may not open or use threads there.
FORBIDDEN = frozenset({50001, 50013})
#: The parent cannot hold a thread (the table plays in a thread, or a DM).
NO_THREAD_HERE = 50024
#: Discord's answers when the server has its most active threads (announcement ones: 160007).
THREADS_FULL = frozenset({160006, 160007})
#: Seconds after such an answer before a hand tries a thread again.
FULL_RETRY = 300.0


class State(Protocol):
    """Named values kept between restarts (:class:`bot.storage.bot_state.BotState`)."""

    async def get(self, name: str) -> str | None: ...

    async def put(self, name: str, value: str) -> None: ...

    async def delete(self, name: str) -> None: ...


class CommitmentThreads:
    """Each table's commitment thread: opening (once), remembering, forgetting."""

    def __init__(self) -> None:
        self.state: State | None = None
        #: Each table's thread as being opened or known: its id, or None for the channel.
        self._threads: dict[int, asyncio.Task[int | None]] = {}
        #: Tables whose commitments stay in their channel for good (no thread allowed).
        self.in_channel: set[int] = set()
        #: Tables whose remembered thread is gone: a new one is opened.
        self._replaced: set[int] = set()
        #: Tables refused a thread as the server has too many: when to try again (loop time).
        self._full: dict[int, float] = {}
        #: Tables told that their commitments are in their channel while the server is full.
        self._told_full: set[int] = set()

    def known(self, table_id: int) -> int | None:
        """The table's thread when it is open (None: not yet, or the channel)."""
        task = self._threads.get(table_id)
        return None if task is None else _opened(task)

    def holds(self) -> set[int]:
        """The tables something is kept for here (none once closed)."""
        return {*self._threads, *self._replaced, *self.in_channel, *self._full, *self._told_full}

    def opening(self, table_id: int) -> bool:
        task = self._threads.get(table_id)
        return task is not None and not task.done()

    def open(self, ch: TableChannel) -> asyncio.Task[int | None]:
        """The table's thread, opened (or read back) once, in a task of its own."""
        task = self._threads.get(ch.table_id)
        if task is None or self._again(ch.table_id, task):
            task = asyncio.get_running_loop().create_task(
                self._find_or_open(ch), name=f"table-{ch.table_id}-commitment-thread")
            self._threads[ch.table_id] = task
        return task

    def _again(self, table_id: int, task: asyncio.Task[int | None]) -> bool:
        """Whether to try again: the last try failed, or the server was full a while ago."""
        if not task.done():
            return False
        if task.cancelled() or task.exception() is not None:
            return True
        retry = self._full.get(table_id)
        return retry is not None and asyncio.get_running_loop().time() >= retry

    def forget(self, table_id: int, *, for_good: bool = False) -> None:
        """The thread is gone (a new one at the next hand), or refused for good."""
        self._threads.pop(table_id, None)
        self._replaced.add(table_id)
        if for_good:
            self.in_channel.add(table_id)

    def drop(self, table_id: int) -> asyncio.Task[int | None] | None:
        """Forget the table (closed, or its channel lost): its thread's task, if any."""
        for tables in (self._replaced, self.in_channel, self._told_full):
            tables.discard(table_id)
        self._full.pop(table_id, None)
        return self._threads.pop(table_id, None)

    async def close(self, table_id: int) -> int | None:
        """The table closed: it is forgotten here. Its thread (None: none, or the channel),
        once opened if it is being opened; read back if not known since the start."""
        replaced = table_id in self._replaced
        task = self.drop(table_id)
        if task is not None:
            await asyncio.wait([task])
            return _opened(task)
        stored = None if replaced or self.state is None else await self.state.get(
            _state_name(table_id))
        return None if stored is None else int(stored)

    async def _find_or_open(self, ch: TableChannel) -> int | None:
        name = _state_name(ch.table_id)
        if ch.table_id in self.in_channel or isinstance(
                ch.presenter.bot.get_channel(ch.channel.id), discord.Thread):
            return None
        stored = await self.state.get(name) if self.state is not None else None
        if stored is not None and ch.table_id not in self._replaced:
            return int(stored)
        try:
            thread = await _open_thread(ch)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            self._not_opened(ch, exc)
            return None
        self._full.pop(ch.table_id, None)
        if thread is None:
            self.in_channel.add(ch.table_id)
        elif self.state is not None:
            await self.state.put(name, str(thread))
        return thread

    def _not_opened(self, ch: TableChannel, exc: Exception) -> None:
        """Discord refused the thread or could not be reached: the channel now; a thread
        at the next post (a full server: a hand :data:`FULL_RETRY` seconds later)."""
        log.warning("table %s: the commitment thread was not opened (%s)", ch.table_id, exc)
        if not (isinstance(exc, discord.HTTPException) and exc.code in THREADS_FULL):
            self._threads.pop(ch.table_id, None)
            return
        self._full[ch.table_id] = asyncio.get_running_loop().time() + FULL_RETRY
        if ch.table_id not in self._told_full:
            self._told_full.add(ch.table_id)
            ch.post(Text(translate(ch.language, "notice.commitments_threads_full")))


def _opened(task: asyncio.Task[int | None]) -> int | None:
    """The thread a finished task opened (None: not finished, failed, or the channel)."""
    if not task.done() or task.cancelled() or task.exception() is not None:
        return None
    return task.result()


def _state_name(table_id: int) -> str:
    """The ``bot_state`` name of the table's thread."""
    return f"commitments:{table_id}"


async def archive(ch: TableChannel) -> None:
    """The table closed and its last post is sent: its commitment thread is archived (it
    stays readable), the table forgotten here and its ``bot_state`` entry deleted. A
    refusal is only logged: Discord archives the thread a week later anyway."""
    threads = ch.presenter.commitment_threads
    try:
        thread = await threads.close(ch.table_id)
        if thread is not None and not ch.lost:
            await ch.requests.call(ch.presenter.bot.http.edit_channel(
                thread, archived=True, reason="the table closed"))
        if threads.state is not None:
            await threads.state.delete(_state_name(ch.table_id))
    except Exception as exc:  # refused, out of reach, or the database failed: logged only
        log.warning("table %s: its commitment thread was not archived or its entry not "
                    "deleted (%r)", ch.table_id, exc)


async def _open_thread(ch: TableChannel) -> int | None:
    """Open the table's commitment thread: its id, or None when the bot may not (said
    once in the table's channel) or the channel cannot hold one."""
    title = translate(ch.language, "thread.commitments", table=str(ch.table_id))[:100]
    try:
        data = await ch.requests.call(ch.presenter.bot.http.start_thread_without_message(
            ch.channel.id, name=title, auto_archive_duration=ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value, invitable=True,
            reason="the table's deck commitments"))
    except ChannelLost:  # the bot may not open threads here
        log.info("table %s: no commitment thread allowed; commitments in the channel",
                 ch.table_id)
        ch.say_commitments_here()
        return None
    except discord.HTTPException as exc:
        if exc.code != NO_THREAD_HERE:
            raise
        return None
    return int(data["id"])


async def post_commitment(ch: TableChannel, item: Commitment) -> tuple[int, int | None]:
    """Post ``item`` (the table waits for it): the message's id and where (None: the
    table's channel). A thread deleted or locked meanwhile is replaced, once."""
    threads = ch.presenter.commitment_threads
    for _ in range(2):
        if threads.opening(ch.table_id) and ch.carrier() is not None:
            break  # the thread is not there yet: the token now, the thread next time
        thread = await threads.open(ch)
        if thread is None:
            break
        there = ch.presenter.bot.get_partial_messageable(thread, guild_id=ch.guild_id)
        try:
            with urgent():
                msg = await ch.requests.send(lambda: there.send(  # noqa: B023 (awaited here)
                    item.content, allowed_mentions=NO_PINGS), into=thread)
            return int(msg.id), thread
        except ChannelLost as lost:  # deleted, locked, or no longer allowed
            log.info("table %s: its commitment thread refused (%s)", ch.table_id, lost)
            forbidden = lost.code in FORBIDDEN
            threads.forget(ch.table_id, for_good=forbidden)
            if forbidden:
                ch.say_commitments_here()
                break
    return await _in_channel(ch, item), None


async def _in_channel(ch: TableChannel, item: Commitment) -> int:
    """A deck commitment in the table's channel: by the token that carries the next hand
    when there is one (outside the global rate limit), else the channel's route."""
    carrier = ch.carrier()
    if carrier is not None and await carrier.ready():
        sent, msg = await ch.requests.by_hook(post_followup(
            carrier, ch.channel, item.content, allowed_mentions=NO_PINGS))
        if sent:
            return int(msg.id)
    with urgent():
        msg = await ch.requests.send(
            lambda: ch.channel.send(item.content, allowed_mentions=NO_PINGS))
    return int(msg.id)


async def deliver(ch: TableChannel, item: Commitment) -> None:
    """Post a deck commitment (:func:`post_commitment`) and tell its table whether it is
    posted. A channel lost meanwhile closes the table, as the channel's sender would."""
    if not item.receipt.pending:  # the table stopped waiting: the hand is not dealt
        return
    try:
        message_id, where = await post_commitment(ch, item)
    except ChannelLost as lost:
        item.receipt.failed()
        await ch.lose(lost)
        return
    except Exception as exc:  # refused (an HTTP error), or Discord out of reach
        log.warning("table %s: a deck commitment was not posted (%r)", ch.table_id, exc)
        item.receipt.failed()
        return
    except BaseException:
        item.receipt.failed()
        raise
    item.receipt.posted(message_id, where)
