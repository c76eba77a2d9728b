"""Sit-and-go play: the tournament table and the tournament's life around it.

:class:`TournamentPolicy` is the :class:`~bot.runtime.table.policy.TablePolicy` of a
sit-and-go's :class:`~bot.runtime.table.live.Table`: its seats and blinds follow a
:class:`~bot.runtime.tournament.sit_and_go.SitAndGo` (RULES.md sections 3, 7 and 8):

* the blinds and ante of each hand are the level in force when it is dealt
  (``sng.game()``), and the hand record stores them so a replay uses them;
* seats come from the tournament's entry: there is no buy-in, top-up or
  cash-out, and nobody leaves with chips (``/tournament leave`` before the
  start refunds the entry; after it a player can only sit out);
* a player sitting out (by choice or after two timeouts) is still dealt in
  while they have chips, and their decisions are checked or folded at once;
* after each settled hand the outcome is recorded (``record_hand`` then
  :func:`~bot.runtime.tournament.sit_and_go.apply_outcome`): busted players leave the
  table with their place and prize announced, a new blind level is announced
  once, and when one player holds every chip the prizes are paid through
  storage and the table closes;
* after :data:`~bot.runtime.tournament.idle.IDLE_HANDS` hands in a row with no
  decision of a player's own, the tournament is cancelled by the cancellation
  rule (:mod:`bot.runtime.tournament.idle`);
* when its channel is lost (:mod:`bot.runtime.table.abandon`), the hand played out
  by the clock's rule is recorded as any other, then the tournament is cancelled as
  after its start (prizes kept, the rest of the pool split by stacks).

:class:`SitAndGoRuntime` is one tournament from registration to the start:
entries and refunds go through storage first (so a refused payment changes
nothing), and the table is opened and dealt as soon as the tournament is full
(or at :meth:`~SitAndGoRuntime.start`); :meth:`~SitAndGoRuntime.cancel_running`
is its cancellation after the start. The tournaments service
(:mod:`bot.runtime.tournament.service`) keeps it by channel and gives it its tables.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from bot.engine.variants import GameConfig
from bot.i18n import Command, Name, Ordinal, Phrase
from bot.runtime.config import TableConfig
from bot.runtime.seating import Seat, clockwise_from, next_clockwise, tournament_ready
from bot.runtime.table.abandon import Closing, Ending
from bot.runtime.table.live import Table
from bot.runtime.table.live_hand import LiveHand
from bot.runtime.table.policy import Request
from bot.runtime.tournament.blinds import Blinds, LevelUnit
from bot.runtime.tournament.idle import IdleHands, idle_phrase
from bot.runtime.tournament.results import cancel_prizes, prize_list, tell_results
from bot.runtime.tournament.sit_and_go import (
    HandOutcome,
    Placement,
    SitAndGo,
    Status,
    TournamentRuleError,
    TournamentStore,
    apply_outcome,
    draw_seats,
)

log = logging.getLogger(__name__)

__all__ = [
    "ControlPorts", "SitAndGoRuntime", "TournamentPolicy", "TournamentPorts", "ordinal",
    "out_phrase",
]


class TournamentPorts(TournamentStore, Protocol):
    """What a sit-and-go needs from storage (``StoragePorts`` implements it)."""

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, buy_in: int,
        starting_stack: int, settings: Mapping[str, Any],
    ) -> int: ...

    async def enter(self, tournament_id: int, user_id: int) -> None: ...

    async def unregister(self, tournament_id: int, user_id: int) -> None: ...

    async def create_tournament_table(
        self, *, guild_id: int, channel_id: int, creator_id: int, tournament_id: int,
        config: Mapping[str, Any],
    ) -> int: ...

    async def start(self, tournament_id: int, table_id: int, seat_of: Mapping[int, int]) -> Any: ...

    async def cancel_tournament(self, tournament_id: int, reason: str = "cancelled") -> None:
        """Cancel before the end: every buy-in refunded, chips taken back."""
        ...


class ControlPorts(TournamentPorts, Protocol):
    """What the creator's control (:mod:`bot.runtime.tournament.control`) needs besides."""

    async def cancel_with_prizes(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> None:
        """Cancel between hands, paying the whole pool as ``prizes``."""
        ...

    async def enter_late(
        self, tournament_id: int, table_id: int, user_id: int, seat_no: int
    ) -> None:
        """Late registration: the buy-in into the pool, the player seated with chips."""
        ...


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def out_phrase(p: Placement, name: Name | str) -> Phrase:
    """``{name} is out in 3rd place (shared by 2) and wins 300 chips.``, in any language."""
    key = "notice.out" + ("_shared" if p.shared > 1 else "") + ("_prize" if p.prize else "")
    return Phrase(key, name=name, place=Ordinal(p.place), shared=p.shared, prize=p.prize)


class TournamentPolicy:
    """The sit-and-go's table policy (see the module docstring)."""

    blinds_off = True  # a sitting-out player is dealt in, checked or folded at once
    buys_back = False  # a player with no chips is out: no top-up, no leaving

    def __init__(self, sng: SitAndGo, tournament_id: int, store: ControlPorts) -> None:
        self.sng = sng
        self.tournament_id = tournament_id
        self.store = store
        #: Run once after the next hand unless it ended the tournament (a cancellation).
        self.between_hands: Callable[[Table], Awaitable[object]] | None = None
        #: Hands in a row with no decision of a player's own (a dead table stops).
        self.idle = IdleHands()
        #: The last hand's outcome, recorded in the tournament but not stored yet.
        self.unstored: HandOutcome | None = None

    def ready(self, seat: Seat) -> bool:
        return tournament_ready(seat)

    def refusal(self, request: Request) -> Phrase | None:
        return _REFUSALS.get(request)

    # -- blinds: the level in force ------------------------------------------------
    def game(self, config: TableConfig) -> GameConfig:
        return self.sng.level.game(config.variant, config.structure)  # a rotation's game

    def hand_config(self, config: TableConfig) -> dict[str, Any]:
        game = self.game(config)
        level = replace(
            config, small_blind=game.small_blind, big_blind=game.big_blind, ante=game.ante
        )
        return level.alone().to_dict()

    # -- after each hand: places, levels, the end ------------------------------------
    async def after_hand(self, table: Table, hand: LiveHand) -> None:
        outcome = await self._record(table, hand)
        if outcome.winner is None and outcome.level_changed:
            table.tell(self.level_text())
        hook, self.between_hands = self.between_hands, None
        if self.idle.after(hand.decided) and outcome.winner is None and hook is None:
            table.tell(idle_phrase())  # nobody is there: cancelled as a manager would
            hook = self.cancel_now
        if hook is not None and outcome.winner is None:
            await hook(table)

    async def _record(self, table: Table, hand: LiveHand) -> HandOutcome:
        """Record the settled ``hand`` in the tournament: busted players placed and off the
        table; a winner paid, the results told and the table closing."""
        user = {n: table.seats[n].user_id for n in hand.dealt}
        start = {user[n]: stack for n, stack in hand.start_stacks.items()}
        final = {user[n]: table.seats[n].stack for n in hand.dealt}
        button = hand.hand.seat_order[-1]
        order = [user[n] for n in clockwise_from(next_clockwise(button, hand.dealt), hand.dealt)]
        if self.unstored is None:  # else recorded already, its writes failed: again
            self.unstored = self.sng.record_hand(start, final, order)
        outcome = self.unstored
        await apply_outcome(self.store, self.tournament_id, self.sng, outcome)
        self.unstored = None
        for p in outcome.busted:
            seat = table.seat_of(p.user_id)
            assert seat is not None
            del table.seats[seat.number]
            table.tell(out_phrase(p, Name(seat.name)))
        if outcome.winner is not None:
            seat = table.seat_of(outcome.winner.user_id)
            assert seat is not None
            table.tell(Phrase("notice.wins_tournament", name=Name(seat.name),
                              prize=outcome.winner.prize))
            tell_results(table, self.sng, self.tournament_id)
            table.seats.clear()  # storage took the tournament chips back when it paid the prizes
            table.close_after_hand()
        return outcome

    async def cancel_now(self, table: Table) -> None:
        """Cancel between hands by the rule (under the table's lock): the pool paid, the
        table closing."""
        await _pay_and_close(table, self, self.store)

    async def abandon(self, table: Table, hand: LiveHand | None, reason: str) -> Closing:
        """RULES.md 7: the hand played out is recorded as any other (busts, places; a
        winner is paid), then a sit-and-go still running is cancelled as after its start
        (prizes already won kept, the rest of the pool split by stacks) and its table
        closes. A cancellation asked before is this one, paid now."""
        if hand is not None:
            await self._record(table, hand)
        if self.sng.status is Status.RUNNING:
            closing = Closing(Ending.CANCELLED, await _pay_and_close(table, self, self.store))
        else:  # that hand ended the tournament: its prizes are paid
            closing = Closing(Ending.WON, self.sng.prizes)
        await table.close_now()
        return closing

    def level_text(self) -> Phrase:
        """``Blinds are now 15/30 (level 2); next level in 10 min.``"""
        nxt = self.sng.until_next_level()
        sched = self.sng.settings.schedule
        values = {"level": Blinds(self.sng.level), "number": self.sng.level_index + 1}
        if nxt is None:
            return Phrase("notice.level", **values)
        if sched.unit is LevelUnit.HANDS:
            return Phrase("notice.level_hands", count=int(nxt), **values)
        return Phrase("notice.level_minutes", count=max(1, round(nxt / 60)), **values)


_REFUSALS = {
    Request.JOIN: Phrase("refuse.sng.join", join=Command("tournament join")),
    Request.TOP_UP: Phrase("refuse.sng.top_up"),
    Request.LEAVE: Phrase("refuse.sng.leave", sitout=Command("table sitout")),
    Request.CLOSE: Phrase("refuse.sng.close"),
    Request.SETTINGS: Phrase("refuse.sng.settings"),
}


class SitAndGoRuntime:
    """One sit-and-go in a channel, from registration to its table (under one lock)."""

    def __init__(
        self,
        *,
        tournament_id: int,
        sng: SitAndGo,
        config: TableConfig,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        store: ControlPorts,
        make_table: Callable[[int, TableConfig, TournamentPolicy], Table],
        names: Callable[[int, int], Awaitable[str]],
        rng: random.Random | None = None,
    ) -> None:
        self.tournament_id = tournament_id
        self.sng = sng
        self.config = config
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.creator_id = creator_id
        self.store = store
        self._make_table = make_table
        self._names = names
        self.rng = rng
        self.lock = asyncio.Lock()
        self.table: Table | None = None
        #: Entrants' names as given at registration: the start seats them without a lookup.
        self.entrant_names: dict[int, str] = {}
        #: Players still in who agreed to cancel after the start (RULES.md 7; memory only).
        self.cancel_agreed: set[int] = set()
        #: A scheduled tournament's start time (Unix seconds, UTC; issue 34): it does not
        #: start when it fills but at that time (:mod:`bot.runtime.tournament.starts`).
        self.starts_at: float | None = None
        #: A weekly series' time zone (its next game is at the same local time a week
        #: later, scheduled when this one ends or is cancelled alone).
        self.weekly: str | None = None

    def tell_tables(self, phrase: Phrase) -> None:
        """A notice at the tournament's table (every table of a multi-table one)."""
        if self.table is not None:
            self.table.tell(phrase)

    @property
    def tables_open(self) -> int:
        """The tables the caps count for it (:mod:`bot.runtime.caps`): its one table, from
        its creation (registering) until that table closes."""
        return 1

    async def join(self, user_id: int, name: str | None = None) -> bool:
        """Pay the entry and register; returns True when this entry started the tournament.

        ``name`` (the player's display name, known from the interaction) is kept
        so that the last entry, which starts the tournament, looks no name up:
        a lookup is a network call on Discord, before the join is answered.
        """
        async with self.lock:
            self.sng.check_register(user_id)
            await self.store.enter(self.tournament_id, user_id)
            self.sng.register(user_id)
            if name:
                self.entrant_names[user_id] = name
            if not self.sng.is_full or self.starts_at is not None:
                return False
            await self.start()
            return True

    async def leave(self, user_id: int) -> None:
        """Unregister before the start; the entry is refunded."""
        async with self.lock:
            if self.sng.status is not Status.REGISTERING:
                raise TournamentRuleError(Phrase("refuse.sng.started_no_leave"))
            if user_id not in self.sng.entrants:
                raise TournamentRuleError(Phrase("refuse.sng.not_registered"))
            await self.store.unregister(self.tournament_id, user_id)
            self.sng.unregister(user_id)
            self.entrant_names.pop(user_id, None)

    async def start(self) -> None:
        """Start now (under :attr:`lock`, registration closing): open the table in the
        channel, seat the entrants at random seats with the starting stack and deal."""
        table_id = await self.store.create_tournament_table(
            guild_id=self.guild_id, channel_id=self.channel_id, creator_id=self.creator_id,
            tournament_id=self.tournament_id, config=self.config.to_dict(),
        )
        seats = draw_seats(self.sng.entrants, self.config.seats, self.rng)
        await self.store.start(self.tournament_id, table_id, seats)
        self.sng.start()
        policy = TournamentPolicy(self.sng, self.tournament_id, self.store)
        table = self._make_table(table_id, self.config, policy)
        for user_id, number in seats.items():
            name = self.entrant_names.get(user_id) or await self._names(self.guild_id, user_id)
            table.restore_seat(number, user_id, name, self.sng.settings.starting_stack)
        self.table = table
        async with table.lock:
            table.start()

    async def cancel_running(self) -> bool:
        """Cancel after the start (under :attr:`lock`): at once when no hand is being
        played (True), else when the hand in progress ends (False). The pool is paid by
        :func:`~bot.runtime.tournament.results.cancel_prizes` and the table closes."""
        table = self.table
        if self.sng.status is not Status.RUNNING or table is None:
            raise TournamentRuleError(Phrase("refuse.sng.over"))
        policy = table.policy
        assert isinstance(policy, TournamentPolicy)
        async with table.lock:
            if table.closing or table.closed:
                raise TournamentRuleError(Phrase("refuse.sng.over"))
            if table.current is None:
                await policy.cancel_now(table)
                await table.close_now()
                return True
            policy.between_hands = policy.cancel_now
            table.tell(Phrase("notice.sng_cancel_after_hand"))
            return False


async def _pay_and_close(
    table: Table, policy: TournamentPolicy, store: ControlPorts
) -> dict[int, int]:
    """Pay the pool by the cancellation rule and let the table close (under its lock);
    the prizes paid."""
    sng = policy.sng
    if sng.status is not Status.RUNNING:
        return {}
    places, prizes = cancel_prizes(sng)
    await store.cancel_with_prizes(policy.tournament_id, places, prizes)
    sng.cancel()
    paid = prize_list(prizes, lambda u: _name(table, u))
    table.tell(Phrase("notice.sng_cancelled", prizes=paid))
    tell_results(table, sng, policy.tournament_id, prizes)
    table.seats.clear()  # storage took the tournament chips back when it paid
    table.close_after_hand()
    return prizes


def _name(table: Table, user_id: int) -> Name | str:
    seat = table.seat_of(user_id)
    return Name(seat.name) if seat is not None else f"<@{user_id}>"
