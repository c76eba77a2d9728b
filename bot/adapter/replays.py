"""Replays on Discord: drawn once per hand and perspective, kept in a bounded cache, sent
only when they fit, never drawn in the bot's process.

A replay (``/hand replay``, the Replay button of ``/hand show``) is an animated GIF of
at most :data:`~bot.runtime.replay_squeeze.MAX_FRAMES` frames
(:mod:`bot.runtime.replay_frames`), drawn in a process of its own
(:func:`bot.render.render_replay_async`). What this module adds:

* **Drawn once.** :class:`Replays` keeps the GIFs drawn by :class:`ReplayKey`: the hand,
  whose cards it shows (the reader's seat, or ``None``: only the hands shown down, as a
  public replay or a railbird's private one shows it, never anyone's own cards) and the
  language of its captions. A replay asked for while it is being drawn waits for that
  drawing. Kept at most :data:`CACHE_BYTES`, least recently sent out first. Names are
  drawn as they were when the replay was drawn.
* **One drawing at a time** over the whole bot (:data:`AT_ONCE`): each takes a process of
  its own, and the next waits its turn; and one request at a time per member.
* **Checked before upload.** A GIF larger than what Discord lets the bot upload in this
  interaction (``interaction.filesize_limit``: Discord's ``attachment_size_limit``, which
  grows with a server's boosts) is not sent; the member is told privately, as when the
  drawing passes :data:`~bot.render.REPLAY_BYTES` or its process dies.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.actions import reply_private
from bot.adapter.names import hand_names
from bot.i18n import Command, Phrase, Wording, number, resolve, translate
from bot.render import (
    REPLAY_BYTES,
    DeckStyle,
    RenderFailed,
    ReplayView,
    Theme,
    TooLarge,
    alt,
    render_replay_async,
)
from bot.runtime.hand_history import load_past
from bot.runtime.replay_frames import replay_view
from bot.runtime.table import wording
from bot.storage import HandRecord

if TYPE_CHECKING:
    from bot.storage import Database

__all__ = ["AT_ONCE", "CACHE_BYTES", "Megabytes", "ReplayKey", "Replays", "send_replay"]

#: Bytes of replays kept (the least recently sent dropped first): a replay is 0.3 to
#: 3 MB (bench/README.md), so a few dozen hands asked for again, by their players or the
#: channel.
CACHE_BYTES = 48 * 1024 * 1024
#: Replays drawn at the same moment over the whole bot (each in a process of its own).
AT_ONCE = 1
MEGABYTE = 1024 * 1024


class Megabytes(Wording):
    """A number of bytes as megabytes in the reader's numbers: ``8``, ``0,4``."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def to(self, locale: object) -> str:
        return number(locale, max(0.1, round(self.size / MEGABYTE, 1)))


@dataclass(frozen=True, slots=True)
class ReplayKey:
    """What makes two replays the same GIF."""

    hand_id: int
    seat: int | None  # the reader's seat, whose cards show; None: only the hands shown down
    locale: str  # the captions' language
    theme: Theme = Theme.DARK  # a private replay: the reader's background and deck colours
    style: DeckStyle = DeckStyle.FOUR_COLOUR


class Replays:
    """The replays drawn so far (at most ``limit`` bytes) and the ones being drawn."""

    def __init__(self, limit: int = CACHE_BYTES, at_once: int = AT_ONCE) -> None:
        self.limit = limit
        self.kept: OrderedDict[ReplayKey, bytes] = OrderedDict()
        self.size = 0  # bytes kept
        self.drawn = 0  # replays drawn (not taken from the cache)
        self.asking: set[int] = set()  # members whose request is being answered
        #: How each kept replay ends, in words (its description with its heading).
        self.endings: dict[ReplayKey, str] = {}
        self._drawing: dict[ReplayKey, asyncio.Future[bytes]] = {}
        self._slots = asyncio.Semaphore(at_once)

    async def gif(self, key: ReplayKey, plan: Callable[[], Awaitable[ReplayView]]) -> bytes:
        """The GIF of ``key``: kept, being drawn, or drawn now from ``plan()``."""
        kept = self.kept.get(key)
        if kept is not None:
            self.kept.move_to_end(key)
            return kept
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = self._drawing[key] = asyncio.ensure_future(self._draw(key, plan))
            drawing.add_done_callback(lambda done: self._drawn(key, done))
        return await asyncio.shield(drawing)  # a request gone does not stop the drawing

    async def _draw(self, key: ReplayKey, plan: Callable[[], Awaitable[ReplayView]]) -> bytes:
        view = await plan()
        async with self._slots:
            gif = await render_replay_async(view, key.theme, key.style)
        self.drawn += 1
        if len(gif) <= self.limit:  # kept with its ending (a replay not kept: its heading)
            self.kept[key] = gif
            self.endings[key] = alt.replay_ending(view)
            self.size += len(gif)
            while self.size > self.limit:
                gone, old = self.kept.popitem(last=False)
                self.size -= len(old)
                del self.endings[gone]
        return gif

    def _drawn(self, key: ReplayKey, done: asyncio.Future[bytes]) -> None:
        del self._drawing[key]
        if not done.cancelled():
            done.exception()  # retrieved here: every waiter may have gone


async def send_replay(interaction: discord.Interaction[Any], db: Database,
                      record: HandRecord, public: bool) -> None:
    """The hand's replay to the user of ``interaction`` (already deferred privately), or
    with ``public`` to the channel: then it shows only the hands shown down, as the
    table did, not the asker's own cards. Too large or not drawn: a private answer."""
    replays: Replays = interaction.client.replays
    user = interaction.user.id
    if user in replays.asking:
        await reply_private(interaction, Phrase("refuse.replay_busy"))
        return
    replays.asking.add(user)
    try:
        lang = resolve(interaction.guild_locale if public else interaction.locale)
        drawn = await _gif(interaction, db, record, public, lang)
    finally:
        replays.asking.discard(user)
    if isinstance(drawn, Phrase):
        await reply_private(interaction, drawn)
        return
    gif, key = drawn
    head = translate(lang, "hand.replay_head", number=str(record.number),
                     table=wording.table_name(lang, record.table_id),
                     title=wording.stored_title(lang, record.settings, record.variant))
    ending = replays.endings.get(key, "")
    file = discord.File(io.BytesIO(gif), filename=f"hand-{record.number}.gif",
                        description=alt.fit(f"{head.replace('**', '')}. {ending}".strip()))
    if not public:
        await reply_private(interaction, head, file=file)
        return
    await interaction.edit_original_response(
        content=translate(interaction.locale, "hand.replay_posted", number=str(record.number)))
    await interaction.followup.send(head, file=file,
                                    allowed_mentions=discord.AllowedMentions.none())


async def _gif(interaction: discord.Interaction[Any], db: Database, record: HandRecord,
               public: bool, lang: str) -> tuple[bytes, ReplayKey] | Phrase:
    """The replay's GIF as this reader may see it (and its key), or why it cannot be sent."""
    seat = None
    if not public:
        seats = await db.hands.seats(record.id)
        seat = next((s.seat_no for s in seats if s.user_id == interaction.user.id), None)

    async def plan() -> ReplayView:
        past = await load_past(db, record)
        return replay_view(past, await hand_names(interaction, past), seat, lang)

    limit = min(REPLAY_BYTES, interaction.filesize_limit)
    too_big = Phrase("refuse.replay_too_big", number=str(record.number),
                     limit=Megabytes(limit), show=Command("hand show"))
    drawing = (Theme.DARK, DeckStyle.FOUR_COLOUR) if public else \
        interaction.client.presenter.prefs.drawing(record.guild_id, interaction.user.id)
    key = ReplayKey(record.id, seat, lang, *drawing)
    try:
        gif = await interaction.client.replays.gif(key, plan)
    except TooLarge:
        return too_big
    except RenderFailed:
        return Phrase("refuse.replay_failed", number=str(record.number))
    return (gif, key) if len(gif) <= interaction.filesize_limit else too_big
