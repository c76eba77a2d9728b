"""The Discord presenter: what happens at a table, shown in its channel and in DMs.

It implements :class:`bot.runtime.ports.TableObserver`. The runtime calls it
in order from one task per table, outside the table's lock, so rendering
(Pillow, in a worker thread through ``bot.render``'s ``*_async`` functions)
never delays play or an interaction's acknowledgement.

Keeping the channel readable:

* one **hand message** per hand, edited as the hand goes (table picture and
  the last actions), never re-posted;
* one **turn message** mentioning the player to act, with the action buttons;
  it is deleted when the turn is over (a new mention notifies the next
  player; an edit would not);
* a **result message** at the end (the showdown picture when hands were
  shown, who won what, and the "you have" labels of shown hands).

Hole cards go by DM, as a picture naming the table with a link to it. When
Discord refuses the DM (closed DMs) the channel is told, with no card in it,
that the player should press **My cards** (on the hand message) or use
``/cards``, which answer only them. Nothing private is ever posted publicly.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.cards import Card
from bot.engine.evaluate import best_high, best_low, hand_label
from bot.render import (
    HoleCardsView,
    PotResult,
    PotWinner,
    SeatStatus,
    ShowdownHand,
    ShowdownView,
    TableView,
    render_hole_cards_async,
    render_showdown_async,
    render_table_async,
)
from bot.render import PotView as RenderPot
from bot.render import SeatView as RenderSeat
from bot.runtime.views import ActionView, HandResultView, TableSnapshot, TurnView
from cogs.limits import fit_text
from cogs.views import hand_buttons, turn_buttons

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger("cogs.presenter")

#: How many recent actions the hand message lists.
LOG_LINES = 12


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def table_link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def game_line(snap: TableSnapshot) -> str:
    return snap.config.title


@dataclass
class _TableState:
    hand_no: int = 0
    hand_message: discord.PartialMessage | None = None
    turn_message: discord.PartialMessage | None = None
    reminder_message: discord.PartialMessage | None = None
    log: list[str] = field(default_factory=list)
    dm_failed: set[int] = field(default_factory=set)


class DiscordPresenter:
    """Turns table events into channel messages, pictures and DMs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.state: dict[int, _TableState] = {}
        self.images_posted = 0
        #: Called with (file name, PNG bytes) for every picture posted (the demo keeps them).
        self.image_sink: Callable[[str, bytes], None] | None = None

    def _image(self, name: str, png: bytes) -> discord.File:
        self.images_posted += 1
        if self.image_sink is not None:
            self.image_sink(name, png)
        return discord.File(io.BytesIO(png), filename=name)

    # -- helpers -------------------------------------------------------------------
    def _state(self, table_id: int) -> _TableState:
        return self.state.setdefault(table_id, _TableState())

    def _channel(self, snap: TableSnapshot) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(snap.channel_id, guild_id=snap.guild_id)

    async def _send(
        self, snap: TableSnapshot, content: str, **kwargs: Any
    ) -> discord.Message | None:
        try:
            return await self._channel(snap).send(
                fit_text(content),
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
                **kwargs,
            )
        except discord.HTTPException:
            log.warning("table %s: could not post in channel %s", snap.table_id, snap.channel_id)
            return None

    @staticmethod
    async def _delete(message: discord.PartialMessage | None) -> None:
        if message is not None:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()

    def render_view(
        self, snap: TableSnapshot, note: str = "", turn: TurnView | None = None
    ) -> TableView:
        """The table picture's view of a snapshot (no hidden card is ever in it)."""
        hole_n = snap.config.variant.hole_cards
        seats = []
        for s in snap.seats:
            if s.dealt_in:
                status = (
                    SeatStatus.FOLDED
                    if s.folded
                    else SeatStatus.ALL_IN
                    if s.all_in
                    else SeatStatus.ACTIVE
                )
                cards = 0 if s.folded else hole_n
            else:
                status = SeatStatus.SITTING_OUT if s.sitting_out else SeatStatus.WAITING
                cards = 0
            seats.append(
                RenderSeat(
                    seat=s.seat,
                    name=s.name[:20],
                    stack=s.stack,
                    bet=s.bet,
                    status=status,
                    cards=cards,
                    shown=s.shown,
                )
            )
        collected = snap.pot - sum(s.bet for s in snap.seats)
        return TableView(
            table_name=f"Table {snap.table_id}",
            hand_number=snap.hand_no,
            max_seats=snap.config.seats,
            seats=tuple(seats),
            board=snap.board,
            pots=(RenderPot(collected, "Pot"),) if collected > 0 else (),
            button=snap.button,
            to_act=snap.to_act,
            clock=turn.clock + turn.time_bank if turn else None,
            clock_total=turn.clock + turn.time_bank if turn else None,
            game=game_line(snap),
            street=(snap.street or "").capitalize(),
            note=note,
        )

    async def _table_png(
        self, snap: TableSnapshot, note: str = "", turn: TurnView | None = None
    ) -> discord.File:
        png = await render_table_async(self.render_view(snap, note, turn))
        return self._image(f"table-{snap.table_id}-hand-{snap.hand_no}.png", png)

    async def _edit_hand(self, snap: TableSnapshot, turn: TurnView | None = None) -> None:
        st = self._state(snap.table_id)
        content = self._hand_text(snap, st)
        file = await self._table_png(snap, turn=turn)
        if st.hand_message is None or st.hand_no != snap.hand_no:
            st.hand_no = snap.hand_no
            msg = await self._send(snap, content, file=file, view=hand_buttons(snap.table_id))
            st.hand_message = msg and self._channel(snap).get_partial_message(msg.id)
            return
        try:
            await st.hand_message.edit(content=fit_text(content), attachments=[file])
        except discord.HTTPException:
            log.warning("table %s: could not edit the hand message", snap.table_id)

    @staticmethod
    def _hand_text(snap: TableSnapshot, st: _TableState) -> str:
        head = f"**Hand #{snap.hand_no}** · {game_line(snap)}"
        street = f" · {snap.street.capitalize()}" if snap.street else ""
        pot = f" · pot {snap.pot:,}" if snap.pot else ""
        lines = [head + street + pot]
        lines.extend(f"> {line}" for line in st.log[-LOG_LINES:])
        return "\n".join(lines)

    # -- the observer port ----------------------------------------------------------
    async def button_drawn(
        self, table: TableSnapshot, cards: Mapping[int, Card], button: int
    ) -> None:
        names = {s.seat: s.name for s in table.seats}
        drawn = ", ".join(f"{names.get(seat, seat)} {c}" for seat, c in sorted(cards.items()))
        await self._send(
            table,
            f"Drawing for the button: {drawn}. **{names.get(button, button)}** has the button.",
        )

    async def hand_started(self, table: TableSnapshot) -> None:
        st = self._state(table.table_id)
        await self._delete(st.turn_message)
        await self._delete(st.reminder_message)
        st.turn_message = st.reminder_message = None
        st.log = []
        st.dm_failed = set()
        button = table.at(table.button) if table.button else None
        if button is not None:
            st.log.append(f"{button.name} has the button")
        blinds = [f"{s.name} {s.committed:,}" for s in table.seats if s.dealt_in and s.committed]
        if blinds:
            st.log.append("Posted: " + ", ".join(blinds))
        st.hand_message = None
        await self._edit_hand(table)

    async def hole_cards(self, table: TableSnapshot, user_id: int, cards: tuple[Card, ...]) -> None:
        await self.send_hole_cards(table, user_id, cards)

    async def send_hole_cards(
        self, table: TableSnapshot, user_id: int, cards: tuple[Card, ...]
    ) -> bool:
        """DM the player their cards; on refusal, tell the channel (without cards)."""
        st = self._state(table.table_id)
        label = (
            hand_label(cards, table.board, table.config.variant.hi_lo)
            if len(table.board) >= 3
            else ""
        )
        view = HoleCardsView(
            table_name=f"Table {table.table_id}",
            hand_number=table.hand_no,
            cards=cards,
            board=table.board,
            label=label,
            game=game_line(table),
        )
        try:
            png = await render_hole_cards_async(view)
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(
                f"Your cards for hand #{table.hand_no} at table {table.table_id} "
                f"({game_line(table)}): {table_link(table.guild_id, table.channel_id)}",
                file=self._image(f"hand-{table.hand_no}-cards-{user_id}.png", png),
            )
            return True
        except discord.HTTPException:
            st.dm_failed.add(user_id)
            await self._send(
                table,
                f"{mention(user_id)}, I cannot send you direct messages, so your cards are not "
                "in your DMs: press **My cards** on the hand message or use `/cards` "
                "(only you will see them).",
            )
            return False

    async def street_dealt(self, table: TableSnapshot, street: str) -> None:
        st = self._state(table.table_id)
        if table.board:
            st.log.append(f"{street.capitalize()}: {' '.join(str(c) for c in table.board)}")
        await self._edit_hand(table)

    async def turn(self, table: TableSnapshot, turn: TurnView) -> None:
        st = self._state(table.table_id)
        await self._delete(st.turn_message)
        await self._delete(st.reminder_message)
        st.turn_message = st.reminder_message = None
        need = "you can check" if turn.can_check else f"**{turn.to_call:,}** to call"
        bank = f" (+{int(turn.time_bank)} s time bank)" if turn.time_bank >= 1 else ""
        text = (
            f"{mention(turn.user_id)}, your turn: {need} · pot {turn.pot:,} · "
            f"{int(turn.clock)} s to act{bank}."
        )
        if turn.user_id in st.dm_failed:
            text += " Your cards: **My cards** button or `/cards`."
        msg = await self._send(table, text, view=turn_buttons(table, turn))
        if msg is not None:
            st.turn_message = self._channel(table).get_partial_message(msg.id)

    async def reminder(self, table: TableSnapshot, turn: TurnView, seconds_left: int) -> None:
        st = self._state(table.table_id)
        msg = await self._send(
            table,
            f"{mention(turn.user_id)}, {seconds_left} s left to act "
            f"({'check' if turn.can_check else 'fold'} when time runs out).",
        )
        if msg is not None:
            st.reminder_message = self._channel(table).get_partial_message(msg.id)

    async def action(self, table: TableSnapshot, action: ActionView) -> None:
        st = self._state(table.table_id)
        await self._delete(st.turn_message)
        await self._delete(st.reminder_message)
        st.turn_message = st.reminder_message = None
        st.log.append(action.text)
        await self._edit_hand(table)

    async def hand_ended(self, table: TableSnapshot, result: HandResultView) -> None:
        st = self._state(table.table_id)
        await self._delete(st.turn_message)
        await self._delete(st.reminder_message)
        st.turn_message = st.reminder_message = None
        st.log.extend(result.lines)
        await self._edit_hand(table)
        text = [f"**Hand #{result.hand_no} result**"]
        text.extend(result.lines)
        for shown in result.shown:
            if shown.label:
                text.append(f"{shown.name} shows {' '.join(map(str, shown.cards))}: {shown.label}")
        kwargs: dict[str, Any] = {}
        if result.shown and len(result.board) >= 3:
            png = await render_showdown_async(self.showdown_view(table, result))
            kwargs["file"] = self._image(f"showdown-{result.hand_no}.png", png)
        await self._send(table, "\n".join(text), **kwargs)

    def showdown_view(self, table: TableSnapshot, result: HandResultView) -> ShowdownView:
        hi_lo = table.config.variant.hi_lo
        hands = []
        for shown in result.shown:
            high = best_high(shown.cards, result.board)
            low = best_low(shown.cards, result.board) if hi_lo else None
            hands.append(
                ShowdownHand(
                    name=shown.name,
                    hole=shown.cards,
                    high=high,
                    low=low,
                    won=result.payouts.get(shown.seat, 0),
                )
            )
        pots = tuple(
            PotResult(
                label=p.label,
                amount=p.amount,
                winners=tuple(PotWinner(w.name, w.amount, w.half) for w in p.winners),
            )
            for p in result.pots
        )
        return ShowdownView(
            table_name=f"Table {table.table_id}",
            hand_number=result.hand_no,
            board=result.board,
            hands=tuple(hands),
            pots=pots,
            hi_lo=hi_lo,
            game=game_line(table),
        )

    async def notice(self, table: TableSnapshot, text: str, user_id: int | None = None) -> None:
        if user_id is None:
            await self._send(table, text)
            return
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(f"Table {table.table_id}: {text}")
        except discord.HTTPException:
            await self._send(table, f"{mention(user_id)}: {text}")

    async def table_closed(self, table: TableSnapshot, returned: Mapping[int, int]) -> None:
        st = self.state.pop(table.table_id, _TableState())
        await self._delete(st.turn_message)
        await self._delete(st.reminder_message)
        back = ", ".join(f"{mention(u)} {n:,}" for u, n in returned.items())
        await self._send(
            table, "The table is closed." + (f" Stacks returned: {back}." if back else "")
        )
