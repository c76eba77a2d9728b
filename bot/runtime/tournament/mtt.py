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

A restart (:func:`restore_mtt`) rebuilds the tournament from storage: the
stacks of every open table, the places already decided, the blind clock, and
each table's hand in progress, resumed on its own deck; players left at 0 whose
elimination was not stored are placed by their stacks at the start of their
last hand (so the busts of an interrupted hand-for-hand round are placed
together, as the round would have).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bot.i18n import Phrase, translate
from bot.runtime.config import TableConfig
from bot.runtime.ports import StoredTable, StoredTournament
from bot.runtime.table.live import Table
from bot.runtime.tournament import balance
from bot.runtime.tournament.director import Director, MttPorts
from bot.runtime.tournament.sit_and_go import SitAndGo, TournamentSettings, apply_outcome
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy, out_phrase

if TYPE_CHECKING:
    from bot.runtime.registry import TableRegistry
    from bot.runtime.table.live_hand import LiveHand

log = logging.getLogger(__name__)

__all__ = ["MttPolicy", "MttRestorePorts", "MttRuntime", "OpenThread", "restore_mtt"]

#: ``(guild_id, parent channel id, thread name) -> thread id``
OpenThread = Callable[[int, int, str], Awaitable[int]]
#: ``(table_id, thread id, config, policy) -> Table`` (the registry's)
MakeTable = Callable[[int, int, TableConfig, TournamentPolicy], Table]


class MttPolicy(TournamentPolicy):
    """A multi-table tournament's table: the director records each hand and decides
    when the table deals again."""

    def __init__(self, sng: SitAndGo, tournament_id: int, store: MttPorts) -> None:
        super().__init__(sng, tournament_id, store)
        self.director = Director(sng, tournament_id, store, self.level_text)

    async def after_hand(self, table: Table, hand: LiveHand) -> None:
        await self.director.hand_done(table, hand)

    async def abandon(self, table: Table, reason: str) -> Mapping[int, int]:
        """A lost thread cancels the whole tournament (every buy-in refunded, as a
        sit-and-go's lost channel does); the other tables stop without storage work."""
        returned = await super().abandon(table, reason)
        others = [t for t in self.director.tables.values() if t is not table]
        self.director.tables.clear()
        task = asyncio.get_running_loop().create_task(_stop_all(others, reason))
        self.director.tasks.add(task)
        task.add_done_callback(self.director.tasks.discard)
        return returned


async def _stop_all(tables: list[Table], reason: str) -> None:
    """Stop the other tables; their notice does not give ``reason`` (English words from
    the cogs: the log keeps it)."""
    log.info("multi-table tournament cancelled: %s", reason)
    for table in tables:
        async with table.lock:
            if table.closed:
                continue
            table.seats.clear()
            table.tell(Phrase("notice.mtt_stopped"))  # the reason (English) is the log's
            table.stop()


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

    def table_config(self) -> TableConfig:
        return self.config.with_seats(self.sng.settings.table_size)

    async def _start(self) -> None:
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
        return await self.director.cancel()


class MttRestorePorts(MttPorts, Protocol):
    async def mtt_tables(self, tournament_id: int) -> list[tuple[int, StoredTable]]:
        """``(number, table)`` of each open table of the tournament."""
        ...

    async def mtt_last_starts(self, tournament_id: int) -> Mapping[int, int]: ...


async def restore_mtt(
    reg: TableRegistry, store: MttRestorePorts, stored: StoredTournament,
    settings: TournamentSettings, config: TableConfig,
) -> list[Table]:
    """Resume a running multi-table tournament (see the module docstring)."""
    where = {"guild_id": stored.guild_id, "channel_id": stored.channel_id,
             "creator_id": stored.creator_id}
    open_tables = await store.mtt_tables(stored.tournament_id)
    stacks = {user: stack for _, st in open_tables for _, user, stack, _ in st.seats}
    sng, outcome = SitAndGo.resume(
        settings, reg.clock, entrants=stored.entrants, stacks=stacks, places=stored.places,
        hands_played=stored.hands_played, elapsed=stored.level_elapsed,
        last_start=await store.mtt_last_starts(stored.tournament_id))
    rt = reg.add_tournament(stored.tournament_id, sng, config, **where)
    assert isinstance(rt, MttRuntime)
    for number, st in open_tables:
        table = rt._make_mtt_table(st.table_id, st.channel_id,
                                   TableConfig.from_dict(dict(st.config)), rt.policy)
        table.hands_dealt = st.hands_dealt
        for seat, user, stack, sitting_out in st.seats:
            if user in sng.stacks:
                name = await reg.names(stored.guild_id, user)
                table.restore_seat(seat, user, name, stack, sitting_out)
        rt.tables[number] = table
    if outcome is not None:
        await apply_outcome(store, stored.tournament_id, sng, outcome)
        first = next(iter(rt.tables.values()))
        for p in outcome.busted:
            first.tell(out_phrase(p, f"<@{p.user_id}>"))
    await _resume_tables(reg, rt)
    return list(rt.tables.values())


async def _resume_tables(reg: TableRegistry, rt: MttRuntime) -> None:
    """Each table's hand in progress goes on; the others wait for the director."""
    director = rt.director
    if rt.sng.finished:
        await director.finish_after_restart()
        return
    for table in list(rt.tables.values()):
        table.tell(Phrase("notice.mtt_restarted", level=rt.policy.level_text()))
        unfinished = await reg.hands.unfinished_hands(table.table_id)
        for hand in unfinished:
            await table.resume(hand)  # its end (or a cancellation) comes to the director
        if table.current is None and not table.held and not table.closed:
            director.arrive(table)
