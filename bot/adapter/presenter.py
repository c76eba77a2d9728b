"""The Discord presenter: what happens at a table, shown in its channel and in DMs.

It is the runtime's :class:`~bot.runtime.ports.TableObserver`: the table's
outbox hands it typed events in order (:mod:`bot.runtime.table.events`). It
only updates what each table's channel should show and returns; the requests
go out from the table's own :class:`bot.adapter.channel.TableChannel` (the live
message, coalesced edits, the request budget) and its DM lane, so a slow
request never delays play, an acknowledgement or another table.

Hole cards go by DM to the players who chose it (:mod:`bot.adapter.hole_card_dms`);
each player's seat panel (**My seat**, :mod:`bot.adapter.seat_panel`) shows them and
is kept current through its interaction token. Nothing private is ever posted publicly.

A lost channel (deleted, or refused with 403/404 for good) is reported once
through :attr:`DiscordPresenter.on_channel_lost`; :meth:`DiscordPresenter.forget`
then drops the table's channel state for good: nothing more is sent there,
not even a private notice's fallback, and an abandoned table gets no
"table closed" message (its players are told by DM instead).
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.after_hand import after_hand_post, retire_offers
from bot.adapter.bounded import Recent
from bot.adapter.channel import TableChannel
from bot.adapter.closed_dms import ClosedDms
from bot.adapter.commitment_posts import CommitmentThreads, archive
from bot.adapter.dms import DirectMessages
from bot.adapter.game_choice import OpenChoices, offer
from bot.adapter.hole_card_dms import deal
from bot.adapter.hooks import Hook
from bot.adapter.lanes import Lane
from bot.adapter.pictures import PictureMode
from bot.adapter.posts import Commitment, Drawn, Picture, Result, Text
from bot.adapter.prefs import Prefs
from bot.adapter.run_out import run_out_stage
from bot.adapter.scenes import (
    Live,
    in_time_bank,
    language,
    mention,
    results_view,
    showdown_view,
    table_view,
    waited_note,
)
from bot.adapter.seat_buttons import ways_view
from bot.adapter.seat_panel import SeatPanels
from bot.i18n import Command, Name, Phrase, escaped, number, resolve, spoken, translate
from bot.i18n.cards import written
from bot.render import alt, render_results_async, render_showdown_async, render_table_async
from bot.runtime.mix import named
from bot.runtime.table import wording
from bot.runtime.table.events import (
    ActionTaken,
    ButtonDrawn,
    CardsDealt,
    CardsShownAfter,
    DeckCommitted,
    GameAsked,
    HandBegan,
    HandSettled,
    Notice,
    RabbitHunted,
    RunTwiceAsked,
    StreetDealt,
    TableClosed,
    TableEvent,
    TimeBankStarted,
    TournamentOver,
    TurnBegan,
    TurnReminder,
)
from bot.runtime.table.views import TableSnapshot
from bot.storage import TurnPings

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.adapter.meter import DiscordMeter

log = logging.getLogger("bot.adapter.presenter")

__all__ = ["DiscordPresenter"]


class DiscordPresenter:
    """Turns table events into the live message, results, notices and DMs."""

    def __init__(self, bot: commands.Bot, now: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.now = now
        self.channels: dict[int, TableChannel] = {}
        self.images_posted = 0
        #: Called with (file name, PNG bytes) for every picture posted (the demo keeps them).
        self.image_sink: Callable[[str, bytes], None] | None = None
        #: Seconds each street of an all-in run-out stays on screen before the next.
        self.runout_pause = 1.5
        #: When a turn message gets a new picture (``TABLE_PICTURES``, :mod:`bot.adapter.pictures`):
        #: tests default to every turn, the bot to ``auto``.
        self.pictures = PictureMode.TURN
        #: Called once with (table id, reason) when Discord refuses a table's channel for good.
        self.on_channel_lost: Callable[[int, str], Awaitable[None]] | None = None
        #: The night's ledger of a table that closed, posted after its closing message (None:
        #: none to post; set by the client: :func:`bot.adapter.night_ledger.closing_text`).
        self.closing_ledger: Callable[[TableSnapshot], Awaitable[str | None]] | None = None
        self.dm_closed: dict[int, set[int]] = {}
        self.lost_tables: Recent[int, None] = Recent()  # their channel lost: nothing goes there
        self._lanes: dict[int, Lane] = {}
        #: Each user's language as their last interaction told it (in memory only): their
        #: hole-card DMs speak it; a user not seen since the start gets the table's language.
        self.locales: Recent[int, str] = Recent()  # forgotten: the table's language
        #: Players whose DMs Discord refused: not tried again until they interact.
        self.closed_dms = ClosedDms()
        self.dms = DirectMessages(bot, self.closed_dms)
        #: The metrics' Discord side (:mod:`bot.adapter.meter`): told each turn posted.
        self.meter: DiscordMeter | None = None
        #: Each player's turn pings and hole-card DMs (``/prefs``; loaded by the client).
        self.prefs = Prefs()
        #: Each table's open dealer's-choice question (:mod:`bot.adapter.game_choice`).
        self.choices = OpenChoices()
        #: The players' open seat panels (**My seat**, :mod:`bot.adapter.seat_panel`).
        self.panels = SeatPanels(self)
        #: Each table's deck-commitment thread (:mod:`bot.adapter.commitment_posts`).
        self.commitment_threads = CommitmentThreads()
        self._handlers: dict[type[Any], Callable[[Any], Awaitable[None]]] = {
            DeckCommitted: self.deck_committed,
            GameAsked: self.game_asked,
            ButtonDrawn: self.button_drawn,
            HandBegan: self.hand_started,
            CardsDealt: self.hole_cards,
            StreetDealt: self.street_dealt,
            TurnBegan: self.turn,
            RunTwiceAsked: self.run_twice_asked,
            TurnReminder: self.reminder,
            TimeBankStarted: self.time_bank,
            ActionTaken: self.action,
            HandSettled: self.hand_settled,
            RabbitHunted: self.after_hand,
            CardsShownAfter: self.after_hand,
            Notice: self.notice,
            TableClosed: self.table_closed,
            TournamentOver: self.tournament_over,
        }

    async def observe(self, event: TableEvent) -> None:
        """The runtime's port: one handler per kind of event; then the table's open seat
        panels catch up (:mod:`bot.adapter.seat_panel`)."""
        await self._handlers[type(event)](event)
        self.panels.seen(event)

    # -- helpers ---------------------------------------------------------------------
    def remember_locale(self, user_id: int, locale: object) -> None:
        """The language of ``user_id``'s latest interaction (``interaction.locale``); an
        interaction also lets their DMs be tried again (:mod:`bot.adapter.closed_dms`)."""
        self.locales[user_id] = resolve(locale)
        self.closed_dms.interacted(user_id)

    def locale_of(self, user_id: int, table: TableSnapshot) -> str:
        """The language to write privately to ``user_id`` about ``table``."""
        return self.locales.get(user_id) or language(table)

    def file(self, name: str, png: bytes, description: str) -> discord.File:
        """A picture to attach, with its ``description`` (the alt text, :mod:`bot.render.alt`)."""
        self.images_posted += 1
        if self.image_sink is not None:
            self.image_sink(name, png)
        return discord.File(io.BytesIO(png), filename=name, description=alt.fit(description))

    def channel(self, snap: TableSnapshot) -> TableChannel:
        ch = self.channels.get(snap.table_id)
        if ch is None:
            ch = TableChannel(self, snap)
            if snap.table_id in self.lost_tables:
                ch.lost = True  # a sink: what is posted to it is dropped, never sent
            else:
                self.channels[snap.table_id] = ch
        return ch

    def carry(self, snap: TableSnapshot, interaction: discord.Interaction[Any]) -> Hook | None:
        """An acknowledged join: its token may carry the table's notices and its next
        hand's first messages (:meth:`TableChannel.carry`) once its private answer is in
        place (the caller confirms the hook: :func:`bot.adapter.hooks.confirming`)."""
        hook = Hook.of(interaction)
        if hook is not None:
            self.channel(snap).carry(hook)
        return hook

    def take_click(self, table_id: int, hook: Hook, *, refused: bool = False) -> None:
        """An acknowledged click, raise form or slash-command action at the table: its
        channel may use the token (``refused``: the action was refused, take it back;
        :mod:`bot.adapter.hooks`)."""
        ch = self.channels.get(table_id)
        if ch is not None:
            ch.take_click(hook, refused=refused)

    def close(self) -> None:
        """Shutting down (the tables are stopped): stop every channel's sender and DM lane
        before the HTTP session closes under them (a request cut short is never sent half)."""
        for ch in self.channels.values():
            ch.stop()
        for lane in self._lanes.values():
            lane.stop()
        self.panels.close()

    def forget(self, table_id: int) -> None:
        """The table's channel is lost for good: stop sending there, drop its state.

        Pending posts and the live message are dropped and the channel's sender
        is stopped (unless it is the caller: it stops by itself once lost);
        later events for the table go nowhere. DMs already queued still go.
        """
        self.lost_tables[table_id] = None
        self.panels.forget(table_id)
        self.commitment_threads.drop(table_id)
        ch = self.channels.pop(table_id, None)
        if ch is not None:
            ch.stop()
        self.dm_closed.pop(table_id, None)

    def live_changed(
        self, snap: TableSnapshot, *, kick: bool = True, **changes: Any
    ) -> Live | None:
        """Update the live hand of ``snap``'s table (if any) and let its channel send it
        (``kick=False``: the change waits for the next one, which is sure to come)."""
        ch = self.channel(snap)
        live = ch.live
        if live is None or live.hand_no != snap.hand_no:
            return None
        live.snap = snap
        for name, value in changes.items():
            setattr(live, name, value)
        live.version += 1
        if kick:
            ch.kick()
        return live

    def lane(self, table_id: int) -> Lane:
        return self._lanes.setdefault(table_id, Lane(f"table-{table_id}-dms"))

    async def idle(self) -> None:
        """Wait until every channel has sent what it has (tests, demo)."""
        for ch in list(self.channels.values()):
            await ch.idle()

    def refresh(self, table_id: int) -> bool:
        """Post the live hand again at the bottom of the channel (False: no hand to show)."""
        ch = self.channels.get(table_id)
        if ch is None or ch.live is None:
            return False
        ch.refresh = True
        ch.kick()
        return True

    async def channel_lost(self, table_id: int, reason: str) -> None:
        log.warning("table %s: its channel cannot be used any more (%s)", table_id, reason)
        if self.on_channel_lost is not None:
            await self.on_channel_lost(table_id, reason)

    # -- the events --------------------------------------------------------------------
    async def deck_committed(self, event: DeckCommitted) -> None:
        """The whole root, in a message of its own before the deal (the table waits)."""
        table, lang = event.table, language(event.table)
        ch = self.channel(table)
        if ch.lost:
            event.receipt.failed()
            return
        key = "hand.committed_game" if table.config.mix else "hand.committed"  # names it
        ch.post(Commitment(translate(
            lang, key, number=str(event.hand_no), commitment=event.root,
            verify=Command("hand verify"), game=named(table.config.current_game)),
            event.receipt))

    async def game_asked(self, event: GameAsked) -> None:
        """Dealer's choice: the chooser's menu, in the channel (:mod:`.game_choice`)."""
        offer(self, event, language(event.table))

    async def button_drawn(self, event: ButtonDrawn) -> None:
        table, button = event.table, event.button
        names = {s.seat: escaped(s.name) for s in table.seats}
        drawn = ", ".join(f"{names.get(seat, seat)} {c}" for seat, c in sorted(event.cards.items()))
        self.channel(table).post(Text(translate(
            language(table), "table.button_draw", drawn=drawn, name=names.get(button, button))))

    async def hand_started(self, event: HandBegan) -> None:
        table = event.table
        lines, lang = [], language(table)
        button = table.at(table.button) if table.button else None
        if button is not None:
            lines.append(translate(lang, "table.button", name=Name(button.name)))
        if table.bomb_ante:  # RULES.md 10: antes only, the flop at once
            key = "table.bomb_pot_posted_double" if table.double_board else "table.bomb_pot_posted"
            lines.append(translate(lang, key, ante=table.bomb_ante))
        # a resumed hand's bets are no longer what was posted: its notice says it resumes
        blinds = [] if event.resumed else [f"{escaped(s.name)} {number(lang, s.committed)}"
                                           for s in table.seats if s.dealt_in and s.committed]
        if blinds:
            lines.append(translate(lang, "table.posted", list=", ".join(blinds)))
        straddler = table.at(table.straddle) if table.straddle else None
        if straddler is not None and not event.resumed:
            lines.append(translate(lang, "table.straddles", name=Name(straddler.name),
                                   amount=straddler.bet))
        closed = frozenset(self.dm_closed.get(table.table_id, ()))
        ch = self.channel(table)
        ch.live = Live(table, lines, dm_closed=closed, board=table.board)
        ch.kick()
        offering, ch.offering = ch.offering, None
        if offering is not None:  # the last hand's after-hand buttons end with this deal
            self.lane(table.table_id).run(lambda: retire_offers(offering))

    async def hole_cards(self, event: CardsDealt) -> None:
        """A player's cards: by DM if they chose it (:mod:`bot.adapter.hole_card_dms`); their
        open seat panel shows them (:mod:`bot.adapter.seat_panel`)."""
        deal(self, event)

    async def street_dealt(self, event: StreetDealt) -> None:
        table, lang = event.table, language(event.table)
        street = translate(lang, f"street.{event.street.value}")
        if table.second_board:  # run twice: each street says its board
            board = translate(lang, "pot.board", number=str(event.run + 1))
            street = f"{street} ({board})"
        line = translate(lang, "table.street_line", street=street,
                         cards=written(event.board))
        # the next turn, stage or the hand's end follows: it sends this change with it
        live = self.live_changed(table, kick=False, question=None)
        if live is None:
            return
        if event.run_out and not live.run_out:  # the hands face up, before the first street
            live.run_out = True
            all_in = translate(lang, "table.all_in")
            self.channel(table).post(await run_out_stage(live, all_in, live.board))
        if event.run:
            live.second_board = event.board
        else:
            live.board = event.board
        live.log.append(line)
        if event.run_out:
            self.channel(table).post(await run_out_stage(live, street, event.board))

    async def run_twice_asked(self, event: RunTwiceAsked) -> None:
        """The buttons of the question go on the live message, posted anew (the mentions
        notify the players asked); asked again after the clock waited, it says so."""
        deadline = self.now() + event.clock
        self.live_changed(event.table, turn=None, question=event, deadline=deadline,
                      note=waited_note(event.table, event.waited))

    async def turn(self, event: TurnBegan) -> None:
        """The turn message; told again after its clock waited (RULES.md 8), it says so."""
        deadline = self.now() + event.turn.clock
        self.live_changed(event.table, turn=event.turn, deadline=deadline,
                      note=waited_note(event.table, event.turn.waited))

    async def reminder(self, event: TurnReminder) -> None:
        """The clock runs low: the turn message says so (an edit, which notifies nobody);
        a player who asked to be pinged only now gets a short message that pings, deleted
        when the turn passes (:mod:`bot.adapter.prefs`)."""
        table, turn = event.table, event.turn
        key = "turn.reminder_check" if turn.can_check else "turn.reminder_fold"
        text = translate(language(table), key, player=mention(turn.user_id),
                         seconds=event.seconds_left)
        if self.prefs.of(table.guild_id, turn.user_id).turn_pings is TurnPings.LOW:
            self.channel(table).post(Text(text, pings=frozenset({turn.user_id}), reminder=True))
        else:
            self.live_changed(table, note=text)

    async def time_bank(self, event: TimeBankStarted) -> None:
        """The time bank starts: one edit of the turn message says so and moves its
        deadline (``<t:…:R>``) to the bank's end; with no turn message, a message."""
        table, turn = event.table, event.turn
        text = spoken(Phrase("notice.time_bank", name=Name(turn.name),
                             seconds=round(event.seconds)), language(table))
        live = self.channel(table).live
        if live is None or live.turn is None or live.turn.token != turn.token:
            self.channel(table).post(Text(text))
            return
        self.live_changed(table, note=text, **in_time_bank(live.turn, event.seconds, self.now()))

    async def action(self, event: ActionTaken) -> None:
        # an action is always followed by the next turn, a run-out or the hand's end:
        # sending it alone would cost one more request for a state nobody acts on
        live = self.live_changed(event.table, kick=False, turn=None, deadline=None, note="")
        if live is not None:
            live.log.append(wording.action(language(event.table), event.action))

    async def hand_settled(self, event: HandSettled) -> None:
        table, result = event.table, event.result
        live = self.live_changed(table, turn=None, deadline=None, note="", question=None)
        if live is None:
            live = Live(table)

        async def picture() -> Drawn | None:
            if result.second_board and not (table.double_board and result.shown):
                # run twice: both boards, and each board's share of every pot
                view = table_view(live, result=result)
                return Drawn(f"hand-{result.hand_no}.png", await render_table_async(view),
                             alt.table(view))
            if result.shown and len(result.board) >= 3:  # a double board's too: both boards
                shown = showdown_view(table, result)
                return Drawn(f"showdown-{result.hand_no}.png",
                             await render_showdown_async(shown), alt.showdown(shown))
            return None

        self.channel(table).post(Result(live, result, picture, event.posted))

    async def after_hand(self, event: RabbitHunted | CardsShownAfter) -> None:
        """A rabbit hunt or cards shown after a hand: a message with its picture."""
        self.channel(event.table).post(after_hand_post(event))

    async def notice(self, event: Notice) -> None:
        """A public notice in the table's language; one for a player in theirs (by DM with
        its ways forward as buttons, else in the channel with a mention)."""
        table, user_id = event.table, event.user_id
        if user_id is not None:
            text = spoken(event.phrase or event.text, self.locale_of(user_id, table))
            self.lane(table.table_id).run(lambda: self._tell(event, text, user_id))
            return
        text = spoken(event.phrase or event.text, language(table))
        if event.transient and self.live_changed(table, note=text) is not None:
            return
        if event.logged:  # a line of the hand: on its message, before its result
            live = self.live_changed(table)
            if live is not None:
                live.log.append(text)
                return
        self.channel(table).post(Text(text, pings=frozenset(event.pings)))

    async def _tell(self, event: Notice, text: str, user_id: int) -> None:
        table, lang = event.table, self.locale_of(user_id, event.table)
        dm = translate(lang, "notice.dm", table=wording.table_name(lang, table.table_id), text=text)
        ways = ways_view(table.table_id, user_id, event.ways, lang)
        if await self.dms.send(user_id, dm, view=ways):
            return
        if table.table_id not in self.lost_tables:  # never into a lost channel
            self.channel(table).post(Text(translate(
                language(table), "notice.mention", player=mention(user_id), text=text),
                pings=frozenset({user_id})))

    async def dm(self, user_id: int, text: str) -> bool:
        """A direct message to ``user_id``; False when Discord refuses it (never raises)."""
        return await self.dms.send(user_id, text)

    async def tournament_over(self, event: TournamentOver) -> None:
        """The results picture: places, names and prizes (names looked up when drawn)."""
        guild = self.bot.get_guild(event.table.guild_id)
        lookup = getattr(self.bot, "display_name", None)

        lang = language(event.table)

        async def picture() -> Drawn:
            names = [str(await lookup(guild, user_id) if lookup
                         else f"{translate(lang, 'render.player')} {user_id}")
                     for _, user_id, _ in event.places]
            view = results_view(event, names)
            return Drawn(f"tournament-{event.tournament_id}-results.png",
                         await render_results_async(view), alt.results(view))

        self.channel(event.table).post(Picture(translate(lang, "results.caption"), picture))

    async def table_closed(self, event: TableClosed) -> None:
        table = event.table
        lang = language(table)
        back = ", ".join(f"{mention(u)} {number(lang, n)}" for u, n in event.returned.items())
        ch = self.channel(table)
        ch.live, ch.closing = None, True
        ch.post(Text(translate(lang, "table.closed_returned", list=back) if back
                     else translate(lang, "table.closed")))
        ledger = None if self.closing_ledger is None else await self.closing_ledger(table)
        if ledger:
            ch.post(Text(ledger))
        self.dm_closed.pop(table.table_id, None)
        self._lanes.pop(table.table_id, None)
        await ch.idle()
        if self.channels.get(table.table_id) is ch:
            del self.channels[table.table_id]
        await archive(ch)  # its commitment thread, once its last post is sent
