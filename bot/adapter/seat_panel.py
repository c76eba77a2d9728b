"""Each player's seat panel: a private message kept current through an interaction token.

**My seat** on the table's message opens it (an ephemeral answer to that click, only the
player's): their hole cards as a picture at the top (with its description,
:mod:`bot.render.alt`), what they hold in words, the pot, what a call costs, their clock
and their buttons (:mod:`bot.adapter.seat_panel_view`). The bot keeps it current by
editing it through the token of the newest interaction whose ``@original`` it is
(``PATCH /webhooks/{app}/{token}/messages/@original``): the click that opened it, then
any click in it (acknowledged as a deferred update, type 6, its ``@original`` is the
panel), which renews the token. Panels never use the channel's routes: they cost the
table's channel budget nothing, and interaction routes are outside Discord's global rate
limit (:mod:`bot.adapter.hooks`).

When the panel changes (a new hand, cards dealt, a street, a turn, the time bank, the
result; not the actions between: a turn always follows them) each open panel of the table
is marked; its edits go out on the table's panel lane (:class:`bot.adapter.lanes.Lane`),
one at a time, built when sent (only the newest state goes; one edit in flight per panel,
none when the text and buttons did not change; the picture is drawn and uploaded only
when the cards or the board change). A long 429 (:class:`bot.adapter.hooks.TokenWait`)
puts the edit off, never the table. The panels never run ahead of the table's message:
an all-in run-out's streets (paced by the channel, :mod:`bot.adapter.run_out`) and the
hand's result reach them from the table's channel once its message shows them
(:meth:`SeatPanels.shown`), and the board a panel shows is the one the message shows.

A token is valid 15 minutes: a minute before (:data:`bot.adapter.hooks.TOKEN_MARGIN`),
or as soon as an edit is refused with 401/50027 or 404/10015, the panel is edited a last
time (when it still can be) to say it is out of date, with one button, **Reopen** (the
same custom id as **My seat**): its click is a new interaction, which turns that message
into a fresh panel. A stale panel is not edited again. One panel a player at a table:
**My seat** pressed again deletes the old message (through its own token). When the
table closes, each panel still kept current gets a last edit on the lane (coalesced with
one queued): under the last hand's result, the table is closed and the chips that went
back to the player's balance; no button. The close and the chips' return are done by
then: they wait for none of it.

After a restart no panel is kept current, and none can be until its player clicks in it.
The decision (issue 31): a token is a secret valid 15 minutes, kept in memory only, never
stored (so never to be redacted, restored or leaked); storing each panel's newest token
would keep the panels edited across a restart, but needs a table, redaction and timers
restored for panels mostly a few minutes from going stale anyway. Instead the first click
in an old panel (a button of the table's actions or pre-actions on a private message
that is not the player's kept panel, :meth:`SeatPanels.left_over`) is acknowledged as
an update of that message, which is the player's panel again at once, kept current
through the click's token; the click then does what it says, or, its turn passed, is
refused in a private message of its own while the panel shows the table as it is.
**Reopen** and **My seat** work as always.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.hooks import (
    TOKEN_LIFETIME,
    TOKEN_MARGIN,
    TokenWait,
    falling_back,
    now,
    refused_token,
)
from bot.adapter.lanes import Lane
from bot.adapter.polite import defer_once
from bot.adapter.posts import Result, Stage
from bot.adapter.scenes import Live, hole_cards_view
from bot.adapter.seat_panel_view import (
    Seen,
    closed_panel,
    panel_buttons,
    panel_cards,
    panel_text,
    stale_panel,
)
from bot.engine.cards import Card
from bot.i18n import resolve
from bot.render import alt, render_hole_cards_async
from bot.runtime.errors import TableError
from bot.runtime.table.events import (
    CardsDealt,
    HandBegan,
    RunTwiceAsked,
    StreetDealt,
    TableClosed,
    TableEvent,
    TimeBankStarted,
    TurnBegan,
)
from bot.runtime.table.views import HandResultView, PrivateCards, TableSnapshot

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter
    from bot.runtime.registry import TableRegistry
    from bot.runtime.seating import PreAction
    from bot.runtime.table.live import Table

log = logging.getLogger("bot.adapter.seat_panel")

__all__ = ["Panel", "SeatPanels"]

#: The events after which a table's panels may show something new (an action is always
#: followed by a turn, a street or the result: the panel waits for that). A run-out's
#: streets and the hand's result come from the table's channel once its message shows
#: them (:meth:`SeatPanels.shown`).
CHANGES = (HandBegan, CardsDealt, StreetDealt, TurnBegan, TimeBankStarted, RunTwiceAsked)

#: A table's boards as its message shows them: (hand number, board, board 2).
Boards = tuple[int, tuple[Card, ...], tuple[Card, ...]]


@dataclass
class Panel:
    """One player's open panel at one table."""

    table_id: int
    user_id: int
    interaction: discord.Interaction[Any]  # the newest whose @original is the panel
    until: float  # loop time after which its token is not used
    locale: str
    message_id: int = 0  # 0 until its first edit answers
    sent: tuple[Any, ...] | None = None  # the text and buttons shown
    picture: tuple[Any, ...] | None = None  # the cards and board of the picture shown
    hole: tuple[int, tuple[Card, ...]] | None = None  # (hand number, their cards)
    queued: bool = False
    stale: bool = False
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class SeatPanels:
    """The open seat panels of the tables this presenter shows."""

    def __init__(self, presenter: DiscordPresenter) -> None:
        self.presenter = presenter
        self._open: dict[int, dict[int, Panel]] = {}  # table id -> user id -> panel
        self._results: dict[int, tuple[TableSnapshot, HandResultView]] = {}
        self._boards: dict[int, Boards] = {}
        #: Tables closed, their panels' last edits under way: user id -> chips returned.
        self._closing: dict[int, Mapping[int, int]] = {}
        self._lanes: dict[int, Lane] = {}
        #: Edits sent (tests and the request figures read it).
        self.edits = 0

    # -- what the presenter and the actions tell -------------------------------------
    def seen(self, event: TableEvent) -> None:
        """A table event went by: the panels of its table may change."""
        table_id = event.table.table_id
        if isinstance(event, TableClosed):
            self._closed(table_id, event.returned)
            return
        if isinstance(event, HandBegan):
            self._results.pop(table_id, None)
            snap = event.table
            self._boards[table_id] = (snap.hand_no, snap.board, snap.second_board)
        elif isinstance(event, StreetDealt):
            if event.run_out:  # the channel shows it street by street: the panels follow
                return
            self._dealt(table_id, event)
        if isinstance(event, CHANGES):
            self.changed(table_id)

    def shown(self, table_id: int, post: Stage | Result) -> None:
        """The table's message shows a run-out's street, or the hand's result (or Discord
        refused it: it will not show it later): the panels show it too, never before."""
        if isinstance(post, Stage):
            view = post.view
            self._boards[table_id] = (view.hand_number, view.board, view.second_board)
        else:
            self._results[table_id] = (post.live.snap, post.result)
        self.changed(table_id)

    def _dealt(self, table_id: int, event: StreetDealt) -> None:
        """A street dealt (not in a run-out): the board as the table's message shows it."""
        hand_no, board, second = self._boards.get(table_id, (0, (), ()))
        if hand_no != event.table.hand_no:
            board, second = event.table.board, event.table.second_board
        if event.run:
            second = event.board
        else:
            board = event.board
        self._boards[table_id] = (event.table.hand_no, board, second)

    def get(self, table_id: int, user_id: int) -> Panel | None:
        """``user_id``'s panel at ``table_id`` (stale or not), if they opened one."""
        return self._open.get(table_id, {}).get(user_id)

    def at(self, table_id: int) -> list[Panel]:
        """The panels opened at ``table_id``."""
        return list(self._open.get(table_id, {}).values())

    def changed(self, table_id: int) -> None:
        """Every open panel of the table gets the table as it is now (coalesced)."""
        for panel in self.at(table_id):
            self._queue(panel)

    async def open(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**My seat** (or **Reopen**): a fresh panel for the player, through this click's
        token: a new private message, or, clicked on a panel, in its place."""
        on_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if on_panel:
            await defer_once(interaction)  # its @original is that panel
        else:
            await defer_once(interaction, ephemeral=True, thinking=True)
        here = interaction.message.id if on_panel and interaction.message is not None else 0
        self._take(interaction, table_id, here)

    def _take(self, interaction: discord.Interaction[Any], table_id: int, here: int) -> None:
        """The player's panel is now ``interaction``'s ``@original`` (message ``here``, 0:
        not known yet), kept current; their other panel at the table goes."""
        old = self.get(table_id, interaction.user.id)
        if old is not None:
            if old.timer is not None:
                old.timer.cancel()
            if old.message_id != here:  # one panel a player: the old message goes
                self._lane(table_id).run(lambda: self._retire(old))
        panel = Panel(table_id, interaction.user.id, interaction, 0.0,
                      resolve(interaction.locale), message_id=here)
        self._open.setdefault(table_id, {})[interaction.user.id] = panel
        self._renewed(panel, interaction)
        self._queue(panel)

    def owns(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether the interaction is a click in the player's panel at ``table_id``."""
        panel = self.get(table_id, interaction.user.id)
        message = interaction.message
        return panel is not None and message is not None and panel.message_id == message.id

    def left_over(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether the interaction is a click in a panel of the player's at ``table_id`` that
        is not kept current (opened before a restart): a private message with the table's
        actions or pre-actions, not their panel (nor maybe it: its first edit is awaited)."""
        message, panel = interaction.message, self.get(table_id, interaction.user.id)
        if message is None or not message.flags.ephemeral or (
                panel is not None and panel.message_id in (0, message.id)):
            return False
        ours = (f"omaha:act:{table_id}:", f"omaha:pre:{table_id}:")
        return any(str(getattr(item, "custom_id", "")).startswith(ours)
                   for row in message.components for item in getattr(row, "children", ()))

    def renew(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A click in the panel, acknowledged as an update: its token is the newest. A
        panel not kept current (:meth:`left_over`) is the player's panel again."""
        panel, message = self.get(table_id, interaction.user.id), interaction.message
        if message is not None and (panel is None or panel.message_id != message.id):
            self._take(interaction, table_id, message.id)
        elif panel is not None:
            panel.stale = False
            self._renewed(panel, interaction)
            self._queue(panel)

    def forget(self, table_id: int) -> None:
        """The table is gone: its panels are no longer kept current."""
        for panel in self._open.pop(table_id, {}).values():
            if panel.timer is not None:
                panel.timer.cancel()
        for known in (self._results, self._boards, self._closing):
            known.pop(table_id, None)
        lane = self._lanes.pop(table_id, None)
        if lane is not None:
            lane.stop()

    def _closed(self, table_id: int, returned: Mapping[int, int]) -> None:
        """The table closed: each panel kept current gets a last edit (coalesced with one
        queued) saying so under the last hand's result, with the chips that went back to
        the player's balance and no button; then the table's panels are forgotten. The
        close and the chips' return wait for none of it: they are done."""
        self._closing[table_id] = returned
        for panel in self.at(table_id):
            if panel.timer is not None:
                panel.timer.cancel()
        self.changed(table_id)
        self._lane(table_id).run(partial(self._gone, table_id))

    async def _gone(self, table_id: int) -> None:
        """The last edits of a closed table's panels are sent: forget them (their lane, this
        job's, ends by itself)."""
        self._lanes.pop(table_id, None)
        self.forget(table_id)

    def close(self) -> None:
        """Shutting down: no more edits."""
        for table_id in set(self._open) | set(self._lanes):
            self.forget(table_id)

    def _current(self, panel: Panel) -> bool:
        """Whether ``panel`` is still its player's panel at its table (not replaced)."""
        return self.get(panel.table_id, panel.user_id) is panel

    # -- the token's life ------------------------------------------------------------
    def _renewed(self, panel: Panel, interaction: discord.Interaction[Any]) -> None:
        panel.interaction = interaction
        panel.until = now() + TOKEN_LIFETIME - TOKEN_MARGIN
        if panel.timer is not None:
            panel.timer.cancel()
        panel.timer = asyncio.get_running_loop().call_later(
            panel.until - now(), self._expire, panel)

    def _expire(self, panel: Panel) -> None:
        """The token's last minute: the panel says it is out of date (a last edit)."""
        if self._current(panel) and not panel.stale:
            self._lane(panel.table_id).run(lambda: self._go_stale(panel))

    async def _go_stale(self, panel: Panel) -> None:
        if panel.stale:
            return
        panel.stale = True
        text, view = stale_panel(panel.locale, panel.table_id)
        with contextlib.suppress(discord.HTTPException, TokenWait):
            await falling_back(panel.interaction.edit_original_response(
                content=text, view=view, attachments=[]))
            self.edits += 1

    async def _retire(self, panel: Panel) -> None:
        """A panel replaced by a new one (My seat pressed again): deleted (its token still
        valid), else told it is out of date."""
        panel.stale = True
        try:
            await falling_back(panel.interaction.delete_original_response())
        except (discord.HTTPException, TokenWait):
            panel.stale = False
            await self._go_stale(panel)

    # -- the edits ---------------------------------------------------------------------
    def _lane(self, table_id: int) -> Lane:
        return self._lanes.setdefault(table_id, Lane(f"table-{table_id}-panels"))

    def _queue(self, panel: Panel) -> None:
        if panel.queued or panel.stale:
            return
        panel.queued = True
        self._lane(panel.table_id).run(lambda: self._send(panel))

    async def _send(self, panel: Panel) -> None:
        panel.queued = False
        if panel.stale or not self._current(panel):
            return
        if now() >= panel.until:
            if panel.table_id not in self._closing:  # closed: Reopen would open nothing
                await self._go_stale(panel)
            return
        seen = self._seen(panel)
        content, view = panel_text(seen), panel_buttons(seen)
        shown = (content, tuple(repr(c) for c in view.to_components()))
        picture = self._picture_key(seen)
        if shown == panel.sent and picture == panel.picture:
            return
        kwargs: dict[str, Any] = {"content": content, "view": view}
        if picture != panel.picture:
            kwargs["attachments"] = await self._attachments(seen)
        try:
            message = await falling_back(panel.interaction.edit_original_response(**kwargs))
        except TokenWait as wait:
            asyncio.get_running_loop().call_later(wait.retry_after, self._queue, panel)
            return
        except discord.HTTPException as exc:
            if refused_token(exc):
                await self._go_stale(panel)
            else:
                log.warning("table %s: a seat panel was not edited (%s %s)",
                            panel.table_id, exc.status, exc.code)
            return
        self.edits += 1
        panel.message_id = message.id
        panel.sent, panel.picture = shown, picture

    def _seen(self, panel: Panel) -> Seen:
        """What the panel shows now; the table closed, its last words under it."""
        seen = self._playing(panel)
        closing = self._closing.get(panel.table_id)
        if closing is None:
            return seen
        return replace(seen, closed=closed_panel(
            panel.locale, panel.table_id, closing.get(panel.user_id)))

    def _playing(self, panel: Panel) -> Seen:
        """What the panel shows of the game: the hand's result until the next deal, else
        the live hand of the table's message, with the player's cards and pre-action."""
        ch = self.presenter.channels.get(panel.table_id)
        live = ch.live if ch is not None else None
        done = self._results.get(panel.table_id)
        lang, user = panel.locale, panel.user_id
        if done is not None and (live is None or live.hand_no <= done[1].hand_no):
            snap, result = done
            boards = result.board, result.second_board
            return Seen(user, lang, snap, board=boards[0], second_board=boards[1],
                        result=result, cards=self._cards(panel, snap, *boards))
        if live is None:
            return Seen(user, lang, None)
        snap, asked = live.snap, live.question
        if asked is not None and user not in asked.users.values():
            asked = None
        boards = self._shown_boards(panel.table_id, live)
        return Seen(user, lang, snap, live.turn, live.deadline, *boards,
                    self._cards(panel, snap, *boards), pre_action=self._pre_action(panel),
                    question=asked)

    def _shown_boards(
        self, table_id: int, live: Live
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The boards of the live hand as the table's message shows them."""
        known = self._boards.get(table_id)
        if known is not None and known[0] == live.hand_no:
            return known[1], known[2]
        return live.board, live.second_board

    def _cards(
        self, panel: Panel, snap: TableSnapshot, board: tuple[Card, ...],
        second: tuple[Card, ...] = (),
    ) -> PrivateCards | None:
        """The player's cards in hand ``snap.hand_no`` (kept once read: the table forgets
        them when the hand ends) with the board shown; None when they were not dealt."""
        hole = panel.hole
        if hole is None or hole[0] != snap.hand_no:
            hole = None
            table = self._table(panel.table_id)
            current = table.current if table is not None else None
            if table is not None and current is not None and current.hand_no == snap.hand_no:
                with contextlib.suppress(TableError):
                    hole = (snap.hand_no, table.hole_cards(panel.user_id).cards)
            panel.hole = hole
        return None if hole is None else panel_cards(hole[1], board, snap, second)

    def _pre_action(self, panel: Panel) -> PreAction | None:
        table = self._table(panel.table_id)
        seat = table.seat_of(panel.user_id) if table is not None else None
        return None if seat is None else seat.pre_action

    def _table(self, table_id: int) -> Table | None:
        """The live table (the player's cards and pre-action are read there, never
        carried by an event)."""
        registry: TableRegistry | None = getattr(self.presenter.bot, "registry", None)
        if registry is None:
            return None
        try:
            return registry.by_id(table_id)
        except TableError:
            return None

    @staticmethod
    def _picture_key(seen: Seen) -> tuple[Any, ...] | None:
        if seen.snap is None or seen.cards is None:
            return None
        cards = seen.cards
        return (seen.snap.hand_no, cards.cards, cards.board, cards.second_board)

    async def _attachments(self, seen: Seen) -> list[discord.File]:
        """The picture of the player's cards (none when they hold none)."""
        if seen.snap is None or seen.cards is None:
            return []
        view = hole_cards_view(seen.snap, seen.cards, seen.locale)
        drawing = self.presenter.prefs.drawing(seen.snap.guild_id, seen.user_id)
        png = await render_hole_cards_async(view, *drawing)  # their colours and background
        name = f"hand-{seen.snap.hand_no}-seat.png"
        return [self.presenter.file(name, png, alt.hole_cards(view))]
