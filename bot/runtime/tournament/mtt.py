"""Multi-table tournaments (issue 12, part 4): up to 60 players at several tables.

:class:`MttRuntime` is a sit-and-go's runtime (registration, ``/tournament
start``, cancellation before the start: :mod:`bot.runtime.tournament.table_policy`) whose start
seats the field at several tables, each in its own thread under the tournament's
channel (the ``threads`` port opens them: ``(guild, parent channel, name) ->
thread id``; a refusal raises :class:`~bot.runtime.errors.TableError` before
anything is stored, and the tournament stays open for registration). The seats
are drawn by :func:`bot.runtime.tournament.balance.seat_draw` with the runtime's
``rng`` (``None`` in real play: the system's secret generator). Tables are
numbered 1, 2, ... in the order they are made; what happens between hands is the
:class:`~bot.runtime.tournament.director.Director`'s.

A restart rebuilds the tournament from storage
(:func:`bot.runtime.tournament.restore.restore_tournament`): the stacks of every
open table, the places already decided, the blind clock, and each table's hand
in progress, resumed on its own deck; players left at 0 whose elimination was
not stored are placed by their stacks at the start of their last hand (so the
busts of an interrupted hand-for-hand round are placed together, as the round
would have).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.i18n import Phrase, translate
from bot.runtime.config import TableConfig
from bot.runtime.table.abandon import Closing, Ending
from bot.runtime.table.live import Table
from bot.runtime.tournament import balance
from bot.runtime.tournament.director import Director, MttPorts
from bot.runtime.tournament.sit_and_go import SitAndGo, Status, TournamentRuleError
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy

if TYPE_CHECKING:
    from bot.runtime.table.live_hand import LiveHand

log = logging.getLogger(__name__)

__all__ = ["MttPolicy", "MttRuntime", "OpenThread"]

#: ``(guild_id, parent channel id, thread name) -> thread id``
OpenThread = Callable[[int, int, str], Awaitable[int]]
#: ``(table_id, thread id, config, policy) -> Table``: a live table in a thread (the
#: tournaments service makes it through the table registry)
MakeTable = Callable[[int, int, TableConfig, TournamentPolicy], Table]


class MttPolicy(TournamentPolicy):
    """A multi-table tournament's table: the director records each hand and decides
    when the table deals again."""

    def __init__(self, sng: SitAndGo, tournament_id: int, store: MttPorts) -> None:
        super().__init__(sng, tournament_id, store)
        self.director = Director(sng, tournament_id, store, self.level_text)

    async def after_hand(self, table: Table, hand: LiveHand) -> None:
        # Not done again after a failed write (:attr:`Table.unfinished`): the director
        # takes the busted players off their tables before it writes, so it cannot yet.
        table.unfinished = None
        await self.director.hand_done(table, hand)
        if self.idle.after(hand.decided) and self.sng.status is Status.RUNNING:
            self.director.cancel_idle()  # every table's hands counted, in the order they end

    async def abandon(self, table: Table, hand: LiveHand | None, reason: str) -> Closing:
        """A lost thread: its hand played out is recorded, the table never deals again,
        and the whole tournament is cancelled as after its start once the hands in
        progress at its other tables end (:meth:`Director.lost`); the table closes then.
        If that hand ended the tournament, its prizes are paid and the table closes now.
        The closing's ``later`` is what the cancellation pays (:attr:`Director.payouts`)."""
        log.info("multi-table tournament %s: a table is lost (%s)", self.tournament_id, reason)
        if await self.director.lost(table, hand):
            await table.close_now()
            return Closing(Ending.WON, self.sng.prizes)
        return Closing(Ending.CANCELLING, {}, later=self.director.payouts)


class MttRuntime(SitAndGoRuntime):
    """One multi-table tournament in a channel, its tables in threads under it."""

    def __init__(self, *, threads: OpenThread, make_mtt_table: MakeTable, **kw: Any) -> None:
        super().__init__(**kw)
        self._threads = threads
        self._make_mtt_table = make_mtt_table
        self.policy = MttPolicy(self.sng, self.tournament_id, self.mtt_store)

    @property
    def mtt_store(self) -> MttPorts:
        store = self.store
        assert hasattr(store, "mtt_move"), "a multi-table tournament needs MttPorts"
        return store  # type: ignore[return-value]

    @property
    def director(self) -> Director:
        return self.policy.director

    @property
    def tables(self) -> dict[int, Table]:
        """The open tables by number."""
        return self.director.tables

    def tell_tables(self, phrase: Phrase) -> None:
        """A notice at every open table of the tournament."""
        for table in self.tables.values():
            table.tell(phrase)

    @property
    def tables_open(self) -> int:
        """The tables the caps count for it: while registering the most it can open, then
        those still open (a broken table no longer counts)."""
        if self.sng.status is Status.REGISTERING:
            return self.sng.settings.most_tables
        return len(self.tables)

    def table_config(self) -> TableConfig:
        return self.config.with_seats(self.sng.settings.table_size)

    async def start(self) -> None:
        """Start now (under :attr:`lock`): open a thread per table (every thread first: a
        refusal stores nothing), store the tables and the seat draw, seat and deal."""
        draw = balance.seat_draw(
            self.sng.entrants, self.sng.settings.table_size, self.rng)
        threads = {}
        for t in draw:  # every thread first: a refusal stores nothing
            threads[t.number] = await self._threads(
                self.guild_id, self.channel_id,
                translate(self.config.language, "tournament.thread_name",
                          number=str(self.tournament_id), table=str(t.number)))
        config = self.table_config()
        ids = {}
        for t in draw:
            ids[t.number] = await self.store.create_tournament_table(
                guild_id=self.guild_id, channel_id=threads[t.number],
                creator_id=self.creator_id, tournament_id=self.tournament_id,
                config=config.to_dict())
        await self.mtt_store.mtt_start(self.tournament_id, {
            ids[t.number]: {user: seat for seat, user in t.seats.items()} for t in draw})
        self.sng.start()
        for t in draw:
            table = self._make_mtt_table(ids[t.number], threads[t.number], config, self.policy)
            for seat, user in t.seats.items():
                name = self.entrant_names.get(user) or await self._names(self.guild_id, user)
                table.restore_seat(seat, user, name, self.sng.settings.starting_stack)
            self.tables[t.number] = table
            table.tell(Phrase(
                "notice.mtt_table", number=t.number, count=len(draw),
                level=self.policy.level_text(),
            ))
        for table in self.tables.values():
            async with table.lock:
                table.start()

    async def cancel_running(self) -> bool:
        """Cancel after the start (see :meth:`Director.cancel`)."""
        if self.sng.status is not Status.RUNNING:
            raise TournamentRuleError(Phrase("refuse.sng.over"))
        return await self.director.cancel()
