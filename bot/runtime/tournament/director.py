"""The tournament director of a multi-table tournament: between hands, over every table.

Each table plays its hands on its own (:class:`~bot.runtime.table.live.Table`, under its
own lock). When a hand ends, :meth:`Director.hand_done` (the table policy's
``after_hand``, under that table's lock) records it and holds the table
(``Table.hold``: no next deal); :meth:`Director.between_hands`, a task, then does
under the director's one lock what involves several tables, and releases it:

* **One clock**: one :class:`~bot.runtime.tournament.sit_and_go.SitAndGo` holds every stack,
  place and the blind level for the whole field; each table deals at the level
  in force (levels run in minutes on the tournament's clock).
* **Balancing and breaking** follow :mod:`bot.runtime.tournament.balance` (its
  :func:`~bot.runtime.tournament.balance.plan`), one move at a time and re-planned after
  each: a move is made only when the table the player leaves is between hands
  (held by the director); the table they join may be playing, and deals them in
  from its next hand. A move that must wait for a table's hand waits for it (the
  plan is made again when that table's hand ends). A table left empty by a break
  is closed. A table with fewer than two players stays held until players are
  moved to it. The moved player is told by mention in their new table's thread.
* **Hand for hand** (:func:`~bot.runtime.tournament.balance.hand_for_hand`): from one bust
  before the money, every table waits for all the others after each hand: a round
  is one hand at every table that can play. The hands of a round are recorded
  together when the last table's hand ends.
* **Places when several players bust in the same hand-for-hand round on different
  tables** (decision): RULES.md section 7 places players busted "in the same
  hand" by their stacks at the start of that hand, bigger stack higher, equal
  stacks sharing the places (their prizes pooled and split). Hand for hand makes
  a round one hand of the tournament, so the same rule applies across tables:
  the round is recorded as one hand (:meth:`SitAndGo.record_hand` with every
  table's starting and final stacks); odd chips of a shared prize go in table
  order, then clockwise from each button. The standard tournament-director rule
  (TDA) ties them whatever their stacks; RULES.md, which this bot follows
  everywhere, is kept instead. Outside hand for hand, busts on different tables
  are placed in the order their hands end (the later bust finishes higher).
  Hands already in progress when hand for hand begins count in its first round.
* **Cancellation after the start** (:meth:`Director.cancel`): every table is held
  as soon as its hand in progress ends; when all are, the pool is paid by
  the rule shown before registration (:func:`~bot.runtime.tournament.results.cancel_prizes`)
  and every table closes. A tournament nobody plays any more is cancelled the same
  way (:meth:`Director.cancel_idle`, :mod:`bot.runtime.tournament.idle`), and so is
  one a table of which lost its thread (:meth:`Director.lost`, RULES.md 7): that
  table's hand is played out by the clock's rule, it deals no more and closes with
  the others; :attr:`Director.payouts` then says what the cancellation paid, for
  the lost table's players (their thread shows nothing more: the Discord side DMs them).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import crashpoint
from bot.i18n import Name, Phrase
from bot.runtime.errors import TableError
from bot.runtime.seating import Seat, clockwise_from, next_clockwise
from bot.runtime.table.abandon import Later
from bot.runtime.table.live import Table
from bot.runtime.table.live_hand import LiveHand
from bot.runtime.tournament import balance
from bot.runtime.tournament.idle import idle_phrase
from bot.runtime.tournament.results import cancel_prizes, prize_list, tell_results
from bot.runtime.tournament.sit_and_go import (
    HandOutcome,
    Placement,
    SitAndGo,
    Status,
    TournamentRuleError,
    apply_outcome,
)
from bot.runtime.tournament.table_policy import ControlPorts, out_phrase

log = logging.getLogger(__name__)

__all__ = ["Director", "MttPorts", "RoundHand"]


class MttPorts(ControlPorts, Protocol):
    """What a multi-table tournament needs from storage beyond a sit-and-go's."""

    async def mtt_start(
        self, tournament_id: int, seating: Mapping[int, Mapping[int, int]]
    ) -> None: ...

    async def mtt_move(
        self, tournament_id: int, user_id: int, from_table: int, to_table: int, to_seat: int
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class RoundHand:
    """One table's hand, waiting to be recorded with the rest of its hand-for-hand round."""

    number: int
    start: Mapping[int, int]
    final: Mapping[int, int]
    order: Sequence[int]


def hand_figures(table: Table, hand: LiveHand) -> tuple[dict[int, int], dict[int, int], list[int]]:
    """``(start, final, order)`` of a settled hand, by user (order: clockwise from the
    seat after the button)."""
    user = {n: table.seats[n].user_id for n in hand.dealt}
    start = {user[n]: stack for n, stack in hand.start_stacks.items()}
    final = {user[n]: table.seats[n].stack for n in hand.dealt}
    button = hand.hand.seat_order[-1]
    order = [user[n] for n in clockwise_from(next_clockwise(button, hand.dealt), hand.dealt)]
    return start, final, order


@dataclass
class Director:
    """The shared state of one multi-table tournament (see the module docstring)."""

    sng: SitAndGo
    tournament_id: int
    store: MttPorts
    level_text: Callable[[], Phrase]
    tables: dict[int, Table] = field(default_factory=dict)  # by number, open tables only
    parked: set[int] = field(default_factory=set)  # held between hands by the director
    vacating: set[tuple[int, int]] = field(default_factory=set)  # (table id, seat) emptied
    bag: list[RoundHand] = field(default_factory=list)
    round: int = 0
    cancelling: bool = False
    levels_told: dict[int, int] = field(default_factory=dict)  # table number -> level
    announced_h4h: bool = False
    #: Each hand-for-hand round recorded: its hands and what it decided (for the record).
    rounds: list[tuple[tuple[RoundHand, ...], HandOutcome]] = field(default_factory=list)
    cond: asyncio.Condition = field(default_factory=asyncio.Condition)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    #: What a cancellation after the start puts in each balance (prizes kept, the split by
    #: stacks), once paid; dropped if the tournament ends otherwise or the bot stops first.
    #: The Discord side tells it to a lost table's players, whose thread cannot show it.
    payouts: Later = field(default_factory=Later)

    # -- queries ---------------------------------------------------------------------
    def number_of(self, table: Table) -> int:
        return next(n for n, t in self.tables.items() if t is table)

    def table_of(self, user_id: int) -> Table | None:
        return next((t for t in self.tables.values() if t.seat_of(user_id)), None)

    @property
    def paid_places(self) -> int:
        return min(self.sng.payout_table().places, len(self.sng.entrants))

    @property
    def hand_for_hand(self) -> bool:
        """Tables wait for each other after every hand (a round is pending or due)."""
        if self.sng.status is not Status.RUNNING:
            return False
        return bool(self.bag) or balance.hand_for_hand(len(self.sng.stacks), self.paid_places)

    def _gated(self) -> bool:
        return self.cancelling or self.hand_for_hand

    def _all_parked(self) -> bool:
        return set(self.tables) <= self.parked

    # -- after each hand (under the table's lock) ---------------------------------------
    async def hand_done(self, table: Table, hand: LiveHand) -> None:
        """Record the hand (now, or with its hand-for-hand round) and hold the table."""
        start, final, order = hand_figures(table, hand)
        number = self.number_of(table)
        if self.hand_for_hand:
            self.bag.append(RoundHand(number, start, final, order))
        else:
            outcome = self.sng.record_hand(start, final, order)
            await self._apply(outcome)
        if self.sng.finished:  # this table closes after the hand; no other is open
            self.tables.clear()
            self.parked.clear()
            return
        self.arrive(table)

    def arrive(self, table: Table) -> None:
        """Hold ``table`` and let the director see to it (a task: the caller may hold the
        table's lock, and the director takes table locks under its own)."""
        table.hold()
        self._spawn(self.between_hands(table), "between-hands")

    def _spawn(self, work: Coroutine[Any, Any, None], what: str) -> None:
        """Run ``work`` as one of the director's tasks (:meth:`stop` ends them)."""
        task = asyncio.get_running_loop().create_task(
            work, name=f"mtt-{self.tournament_id}-{what}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _apply(self, outcome: HandOutcome) -> None:
        """Take the busted players off their tables (at once, before any await: a plan must
        not count them), store the outcome, tell the tables; the winner ends it."""
        where: list[tuple[Placement, Table, Seat]] = []
        for p in outcome.busted:
            table = self.table_of(p.user_id)
            assert table is not None
            seat = table.seat_of(p.user_id)
            assert seat is not None
            del table.seats[seat.number]
            where.append((p, table, seat))
            self.vacating.add((table.table_id, seat.number))  # stored seat until eliminated
        try:
            await apply_outcome(self.store, self.tournament_id, self.sng, outcome)
        finally:
            self.vacating.difference_update((t.table_id, s.number) for _, t, s in where)
        for p, table, seat in where:
            table.tell(out_phrase(p, Name(seat.name)))
        if outcome.winner is not None:
            self._tell_winner(outcome.winner)

    def _tell_winner(self, winner: Placement) -> None:
        table = self.table_of(winner.user_id)
        assert table is not None
        seat = table.seat_of(winner.user_id)
        assert seat is not None
        table.tell(Phrase("notice.wins_tournament", name=Name(seat.name), prize=winner.prize))
        tell_results(table, self.sng, self.tournament_id)
        for t in self.tables.values():
            t.seats.clear()  # storage took the tournament chips back when it paid the prizes
            t.close_after_hand()

    # -- between hands (a task, under the director's lock) ------------------------------
    async def between_hands(self, table: Table) -> None:
        """Park ``table``; close a hand-for-hand round or a cancellation once every table
        is parked; balance; release what can play. A failed move (storage refused it) is
        logged and play goes on: the next table between hands plans again."""
        async with self.cond:
            if table.closed or self.number_of_or_none(table) is None:
                return
            self.parked.add(self.number_of(table))
            if self._gated() and not await self._wait_round():
                return  # the table that closed the round did the rest
            if self.sng.status is not Status.RUNNING:
                return
            try:
                await self._balance()
            except TableError:
                log.exception("tournament %s: balancing failed", self.tournament_id)
            await self._release()

    def number_of_or_none(self, table: Table) -> int | None:
        return next((n for n, t in self.tables.items() if t is table), None)

    async def _wait_round(self) -> bool:
        """Wait until every table is held; True for the one that closes the round."""
        r = self.round
        self.cond.notify_all()
        if self.hand_for_hand and not self.announced_h4h:
            self.announced_h4h = True
            for table in self.tables.values():
                table.tell(Phrase("notice.mtt_hand_for_hand"))
        await self.cond.wait_for(lambda: self.round > r or self._all_parked())
        if self.round > r:
            return False
        self.round += 1
        self.cond.notify_all()
        await self._close_round()
        return True

    async def _close_round(self) -> None:
        """Every table is held: record the round's hands as one, or pay a cancellation."""
        bag, self.bag = self.bag, []
        if bag:
            start = {u: s for h in sorted(bag, key=lambda h: h.number) for u, s in h.start.items()}
            final = {u: s for h in bag for u, s in h.final.items()}
            order = [u for h in sorted(bag, key=lambda h: h.number) for u in h.order]
            outcome = self.sng.record_hand(start, final, order)
            self.rounds.append((tuple(bag), outcome))
            await self._apply(outcome)
        if self.cancelling and self.sng.status is Status.RUNNING:
            await self._pay_cancellation()
        if self.sng.status is not Status.RUNNING:
            await self._close_all()

    async def _balance(self) -> None:
        """Break and balance, one move at a time, while the next move's table is held."""
        while True:
            moves = balance.plan([self._balance_view(n, t) for n, t in self.tables.items()])
            if not moves or moves[0].from_table not in self.parked:
                break
            if (self.tables[moves[0].to_table].table_id, moves[0].to_seat) in self.vacating:
                break  # that seat's player is being eliminated: plan again after it
            await self._move(moves[0])
        for number in [n for n, t in self.tables.items() if not t.seats]:
            await self._close_broken(number)

    def _balance_view(self, number: int, table: Table) -> balance.MttTable:
        seats = {n: s.user_id for n, s in table.seats.items()}
        return balance.MttTable(number, table.config.seats, seats, table.button)

    async def _move(self, move: balance.Move) -> None:
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        await self.store.mtt_move(
            self.tournament_id, move.user_id, src.table_id, dst.table_id, move.to_seat)
        crashpoint.reached("mtt.moved")
        first, second = sorted((src, dst), key=self.number_of)
        async with first.lock, second.lock:
            seat = src.seats.pop(move.from_seat)
            dst.seats[move.to_seat] = Seat(
                number=move.to_seat, user_id=seat.user_id, name=seat.name, stack=seat.stack,
                time_bank=float(dst.config.time_bank), sitting_out=seat.sitting_out)
        why = "notice.mtt_moves_" + ("break" if move.broken else "balance")
        src.tell(Phrase(why, name=Name(seat.name), table=str(move.to_table)))
        dst.tell(Phrase(
            "notice.mtt_moved_here", player=f"<@{seat.user_id}>", table=str(move.from_table),
            seat=str(move.to_seat), count=seat.stack), pings=(seat.user_id,))

    async def _close_broken(self, number: int) -> None:
        table = self.tables.pop(number)
        self.parked.discard(number)
        table.tell(Phrase("notice.mtt_table_broken", table=str(number)))
        async with table.lock:
            await table.close_now()
        if len(self.tables) == 1:
            (final,) = self.tables.values()
            final.tell(Phrase("notice.mtt_final_table"))

    async def _release(self) -> None:
        """Let every held table that can play deal its next hand."""
        level = self.sng.level_index
        for number in sorted(self.parked):
            table = self.tables[number]
            if sum(1 for s in table.seats.values() if s.stack > 0) < 2:
                continue  # waits for players to be moved to it
            self.parked.discard(number)
            if level > self.levels_told.get(number, 0):
                self.levels_told[number] = level
                table.tell(self.level_text())
            async with table.lock:
                table.release()

    async def stop(self) -> None:
        """The bot is stopping: end the between-hands work without moving chips (storage
        keeps the truth; a restart resumes from it)."""
        self.payouts.drop()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- the end ------------------------------------------------------------------------
    async def cancel(self) -> bool:
        """Cancel after the start: hold every table between hands; True when it is over now,
        False when it ends once the hands in progress have."""
        async with self.cond:
            if self.cancelling or self.sng.status is not Status.RUNNING:
                raise TournamentRuleError(Phrase("refuse.mtt.cancelling"))
            self.cancelling = True
            return await self._hold_all()

    async def _hold_all(self) -> bool:
        """Hold every table between hands (under :attr:`cond`, cancelling); when all are,
        pay the cancellation and close them (True)."""
        for number, table in self.tables.items():
            async with table.lock:  # a deal in progress is over once the lock is ours
                if table.current is None:
                    table.hold()
                    self.parked.add(number)
        if not self._all_parked():
            for table in self.tables.values():
                table.tell(Phrase("notice.mtt_cancel_after_hands"))
            return False
        self.round += 1
        self.cond.notify_all()
        await self._close_round()
        return True

    async def lost(self, table: Table, hand: LiveHand | None) -> bool:
        """``table``'s thread is lost (RULES.md 7; under its lock, ``hand`` played out by the
        clock's rule and settled, if one was being played): the hand is recorded as any
        other, the table deals no more, and the tournament is cancelled as after its start
        (:meth:`cancel`: once every other table's hand in progress has ended, prizes kept,
        the rest of the pool split by stacks, every table closed). True when that hand
        ended the tournament instead (its prizes paid by :meth:`hand_done`)."""
        asked, self.cancelling = self.cancelling, True  # nothing balanced or released now
        table.close_after_hand()  # never dealt again; the cancellation closes it
        if hand is not None:
            await self.hand_done(table, hand)  # recorded (or with its round), the table held
        elif not self.sng.finished:
            self.arrive(table)
        if self.sng.finished:
            return True
        if not asked:  # a task: it takes every table's lock, this one's included
            self._spawn(self._cancel_held(), "cancel")
        return False

    async def _cancel_held(self) -> None:
        """The cancellation :attr:`cancelling` already asked for: hold every table, pay."""
        async with self.cond:
            if self.sng.status is Status.RUNNING:
                await self._hold_all()

    def cancel_idle(self) -> None:
        """Nobody has made a decision for too long (:mod:`bot.runtime.tournament.idle`):
        tell every table and cancel as :meth:`cancel` does. From this moment no table is
        released for another hand (:attr:`cancelling`, as :meth:`lost` does): only the
        hands already being played end; the holding and paying run in a task (the caller
        holds a table's lock, which they take). A cancellation already under way leaves
        it at that."""
        if self.cancelling:
            return
        for table in self.tables.values():
            table.tell(idle_phrase())
        self.cancelling = True
        self._spawn(self._cancel_held(), "idle")

    async def finish_after_restart(self) -> None:
        """The restart came between the last hand and the prizes (paid since): tell it."""
        winner = self.sng.winner
        assert winner is not None
        async with self.cond:
            self._tell_winner(self.sng.placements[winner])
            await self._close_all()

    async def _pay_cancellation(self) -> None:
        places, prizes = cancel_prizes(self.sng)
        await self.store.cancel_with_prizes(self.tournament_id, places, prizes)
        self.sng.cancel()
        self.payouts.pay(prizes)
        names = {s.user_id: s.name for t in self.tables.values() for s in t.seats.values()}
        paid = prize_list(prizes, lambda u: Name(names[u]) if u in names else f"<@{u}>")
        for table in self.tables.values():
            table.tell(Phrase("notice.sng_cancelled", prizes=paid))
            tell_results(table, self.sng, self.tournament_id, prizes)
            table.seats.clear()  # storage took the tournament chips back when it paid

    async def _close_all(self) -> None:
        for number in sorted(self.tables):
            table = self.tables.pop(number)
            table.seats.clear()
            async with table.lock:
                if not table.closed:
                    await table.close_now()
        self.parked.clear()
        self.payouts.drop()
