"""When a table's channel goes away: stop the table cleanly and tell its players by DM.

A table's channel is lost when it (or the table's thread) is deleted, when the
bot is removed from the server, or when Discord refuses the channel for good
(403 Missing Access or Missing Permissions, 404 Unknown Channel: the
presenter's :class:`bot.adapter.channel.TableChannel` reports those through
``DiscordPresenter.on_channel_lost``). Then :class:`ChannelLoss`:

1. silences the table's channel at once (``DiscordPresenter.forget``): no
   request goes to it any more, not even a private notice's fallback;
2. abandons the table (:mod:`bot.runtime.table.abandon`, RULES.md 7): the hand in
   progress is played out by the clock's rule (every decision left a timeout:
   check, otherwise fold), never refunded; then every stack goes back to its
   owner's balance, or a tournament is cancelled as after its start (prizes kept,
   the rest of the pool split by stacks);
3. tells each player privately, by DM where Discord allows it (a refused DM is
   logged, nothing more), how that hand ended for them, with its number, and what
   went back to their balance ("Table 3 in #poker was closed because the thread
   was locked; hand #12 was played out by the clock's rule [...]. You lost 300
   chips in it. Your 9,700 chips are back in your balance."). Nothing is posted in
   the lost channel. A multi-table tournament is cancelled only once the hands at
   its other tables end: the lost table's players are told their stack first, then,
   when the cancellation is paid (``Abandoned.later``), a second DM says what went
   to their balance (:func:`paid_out`), which the other tables see posted.

:class:`ChannelLoss` is built by the composition root
(:meth:`bot.client.OmahaDealer.build_services`), which also points the
presenter's callback at it, so a refused request abandons the table whichever
cogs are loaded. :class:`ChannelWatch` is the cog that hears the gateway's
deletions (``on_guild_channel_delete``, ``on_raw_thread_delete``,
``on_guild_remove``) and hands them to ``bot.channel_loss``; it looks no other
cog up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import resolve, translate
from bot.runtime.errors import NoTable
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Abandoned, Ending, Later

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter
    from bot.client import OmahaDealer

log = logging.getLogger("cogs.channel_loss")

CHANNEL_DELETED = "the channel was deleted"
THREAD_DELETED = "the thread was deleted"
BOT_REMOVED = "I was removed from the server"


#: The reasons a table is abandoned, as the runtime states them, and their messages.
REASONS = {
    CHANNEL_DELETED: "loss.reason.channel_deleted",
    THREAD_DELETED: "loss.reason.thread_deleted",
    BOT_REMOVED: "loss.reason.bot_removed",
    "I lost access to the channel": "loss.reason.no_access",
    "I lost permissions the table needs in the channel": "loss.reason.no_permissions",
    "the thread was locked": "loss.reason.thread_locked",
}


def where(channel_name: str | None, channel_id: int, locale: object = "en") -> str:
    """``#poker``, or the channel's id when its name is not known any more."""
    return f"#{channel_name}" if channel_name else translate(locale, "loss.channel", id=channel_id)


#: The DM's first words by where the chips went (a tournament's table: ``loss.sng_table``).
_HEADS = {Ending.CASHED_OUT: "loss.table", Ending.REFUNDED: "loss.tournament"}
#: What went back to the balance by where the chips went (else a prize: ``loss.prize``).
_BACK = {Ending.CASHED_OUT: "loss.refund", Ending.REFUNDED: "loss.refund_buyin"}


def farewell(gone: Abandoned, user_id: int, place: str, locale: object = "en") -> str:
    """The DM ``user_id`` gets about an abandoned table, in ``locale``: what happened, how
    the hand played out ended for them, and what went back to their balance."""
    reason = translate(locale, REASONS[gone.reason]) if gone.reason in REASONS else gone.reason
    values = {"table": gone.table_id, "title": gone.title, "place": place, "reason": reason}
    head = translate(locale, _HEADS.get(gone.ending, "loss.sng_table"), **values)
    if gone.hand is not None:
        head += translate(locale, "loss.hand", hand=str(gone.hand))
    lines = [head + "."]
    net = gone.nets.get(user_id)
    if net is not None:
        lines.append(translate(locale, "loss.hand_won", count=net) if net > 0 else
                     translate(locale, "loss.hand_lost", count=-net) if net < 0 else
                     translate(locale, "loss.hand_even"))
    lines += _what_went_back(gone, user_id, locale)
    return " ".join(lines)


def paid_out(gone: Abandoned, place: str, amount: int, locale: object = "en") -> str:
    """The DM a player of a multi-table tournament's lost table gets once the cancellation
    is paid: ``amount`` went to their balance (a prize kept, or their share by stacks)."""
    head = translate(locale, "loss.mtt_cancelled", table=gone.table_id, place=place)
    paid = (translate(locale, "loss.prize", count=amount) if amount
            else translate(locale, "loss.no_prize"))
    return f"{head} {paid}"


def _what_went_back(gone: Abandoned, user_id: int, locale: object) -> list[str]:
    amount = gone.returned.get(user_id, 0)
    if gone.ending is Ending.CANCELLING:
        return [translate(locale, "loss.mtt_cancelling", count=gone.stacks.get(user_id, 0))]
    lines = [translate(locale, "loss.sng_cancelled")] if gone.ending is Ending.CANCELLED else []
    if amount:
        lines.append(translate(locale, _BACK.get(gone.ending, "loss.prize"), count=amount))
    return lines


class ChannelLoss:
    """Abandons the tables of lost channels and tells their players (see the module)."""

    def __init__(self, bot: commands.Bot, registry: TableRegistry, presenter: DiscordPresenter):
        self.bot = bot
        self.registry = registry
        self.presenter = presenter
        #: Every table abandoned so far, in order (the demo and tests read it).
        self.abandoned: list[Abandoned] = []
        #: Waiting for a multi-table tournament's cancellation to be paid (see the module).
        self._later: set[asyncio.Task[None]] = set()

    # -- the causes ---------------------------------------------------------------
    async def channel_gone(self, channel_id: int, name: str | None, reason: str) -> None:
        """A channel or thread was deleted."""
        self._silence(t.table_id for t in self.registry.all() if t.channel_id == channel_id)
        gone = await self.registry.abandon_channel(channel_id, reason)
        await self._tell(gone, {channel_id: name})

    async def guild_gone(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (kicked, banned, or the server deleted)."""
        self._silence(t.table_id for t in self.registry.all() if t.guild_id == guild.id)
        gone = await self.registry.abandon_guild(guild.id, BOT_REMOVED)
        names = {g.channel_id: _name(guild.get_channel_or_thread(g.channel_id)) for g in gone}
        await self._tell(gone, names, guild.name)

    async def channel_refused(self, table_id: int, reason: str) -> None:
        """The presenter's callback: Discord refuses the table's channel for good."""
        self._silence([table_id])
        try:
            table = self.registry.by_id(table_id)
        except NoTable:  # closed meanwhile: nothing left to do
            return
        name = _name(self.bot.get_channel(table.channel_id))
        gone = await self.registry.abandon(table_id, reason)
        await self._tell([gone] if gone else [], {table.channel_id: name})

    # -- helpers ------------------------------------------------------------------
    def _silence(self, table_ids: Iterable[int]) -> None:
        for table_id in table_ids:
            self.presenter.forget(table_id)

    async def _tell(
        self, gone: list[Abandoned], names: dict[int, str | None], server: str = ""
    ) -> None:
        for g in gone:
            self.abandoned.append(g)
            for user_id in g.told:
                lang, place = self._place(g, user_id, names, server)
                await self._dm(g, user_id, farewell(g, user_id, place, lang))
            if g.later is not None:
                task = asyncio.get_running_loop().create_task(
                    self._tell_paid(g, g.later, names, server), name=f"loss-{g.table_id}")
                self._later.add(task)
                task.add_done_callback(self._later.discard)

    async def _tell_paid(
        self, gone: Abandoned, later: Later, names: dict[int, str | None], server: str
    ) -> None:
        """Once the cancellation is paid, DM each player of the lost table what went to
        their balance (nothing if it never is: the bot stopped first)."""
        paid = await later.wait()
        if paid is None:
            return
        for user_id in gone.told:
            lang, place = self._place(gone, user_id, names, server)
            await self._dm(gone, user_id, paid_out(gone, place, paid.get(user_id, 0), lang))

    def _place(
        self, gone: Abandoned, user_id: int, names: dict[int, str | None], server: str
    ) -> tuple[str, str]:
        """The player's language and the lost channel as they read it there."""
        lang = self._locale(user_id, gone.guild_id)
        place = where(names.get(gone.channel_id), gone.channel_id, lang)
        if server:
            place = translate(lang, "loss.on_server", place=place, server=server)
        return lang, place

    async def _dm(self, gone: Abandoned, user_id: int, text: str) -> None:
        """A DM; a refused one is logged, nothing more (the lost channel is no fallback)."""
        if not await self.presenter.dm(user_id, text):
            log.info("table %s: could not DM user %s", gone.table_id, user_id)

    def _locale(self, user_id: int, guild_id: int) -> str:
        """The player's language (their last interaction), else the server's."""
        guild = self.bot.get_guild(guild_id)
        return self.presenter.locales.get(user_id) or resolve(
            getattr(guild, "preferred_locale", None))


def _name(channel: Any) -> str | None:
    name = getattr(channel, "name", None)
    return name if isinstance(name, str) else None


class ChannelWatch(commands.Cog, name="Channel loss"):
    """Hears deletions and removals from the gateway (no command)."""

    def __init__(self, loss: ChannelLoss) -> None:
        self.loss = loss
        super().__init__()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.loss.channel_gone(channel.id, channel.name, CHANNEL_DELETED)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.loss.channel_gone(payload.thread_id, _name(payload.thread), THREAD_DELETED)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.loss.guild_gone(guild)


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(ChannelWatch(bot.channel_loss))


__all__ = ["ChannelLoss", "ChannelWatch", "farewell", "paid_out", "setup"]
