"""Sit-and-go tournaments (RULES.md section 7): registration, blind levels, places and prizes.

:class:`SitAndGo` is pure state (no I/O, no Discord, no SQLite): the table
runtime drives it and mirrors each step into storage (``TournamentRepo``
through the :class:`TournamentStore` port; :func:`apply_outcome` does the
storage half of a finished hand). Its settings are
:mod:`bot.runtime.tournament.settings` and the placing of busted players
:mod:`bot.runtime.tournament.placing`; their public names are importable from here too.

Life of a sit-and-go::

    sng = SitAndGo(TournamentSettings.create(buy_in=100), clock)
    sng.check_register(u); await store.enter(tid, u); sng.register(u)   # per entrant
    settings.payout_summary(), settings.schedule.lines()   # shown at registration
    sng.payout_lines()                    # the payout table (in chips) shown before the start
    seats = draw_seats(sng.entrants, 6, rng); await store.start(tid, table_id, seats)
    sng.start()                           # level 1 starts now on the clock
    per hand:  game = sng.game()          # GameConfig for the level in force (RULES.md 3)
               ... the hand is played ...
               outcome = sng.record_hand(start_stacks, final_stacks, order=seat order)
               await apply_outcome(store, tid, sng, outcome)   # eliminate, finish
    sng.finished, sng.winner, sng.places, sng.prizes
    after a restart: sng, outcome = SitAndGo.resume(settings, clock, entrants=..., stacks=seats,
               places=stored places, hands_played=..., elapsed=..., last_start=last hand's
               starting stacks); if outcome: await apply_outcome(store, tid, sng, outcome)
               (bot.runtime.tournament.restore does this for every tournament a restart interrupted)

Decisions where RULES.md is silent (the tests name each one):

* A player is out when a hand ends with their stack at 0 (chips only ever
  change in hands). Places are counted from the bottom: with ``n`` entrants
  the first player out finishes ``n``-th.
* Players busted in the same hand take the places just above the players
  still in, ordered by their stacks at the start of that hand, bigger stack
  finishing higher. Players with equal starting stacks **share** their places:
  each is recorded at the best of them (two players tied for 3rd and 4th both
  finish 3rd), and the prizes of all the shared places are pooled and split
  equally; odd chips go one at a time to the tied players clockwise from the
  button of that hand (the ``order`` passed to :meth:`SitAndGo.record_hand`;
  registration order when none is given), as RULES.md section 6 does with a
  split pot's odd chips.
* The tournament ends when one player holds every chip: that player finishes
  1st. Prizes by place come from :mod:`bot.runtime.tournament.payouts` (standard table by
  number of entrants unless the creator set one) and add up to the pool,
  ``buy_in x entrants``, exactly. Only positive prizes are listed (storage
  refuses a prize of 0).
* The payout table shown during registration is the one for the players
  registered so far (at least the minimum); it is fixed at the start.
* Blind levels (see :mod:`bot.runtime.tournament.blinds`) count minutes on the injected
  clock from :meth:`SitAndGo.start` (or hands recorded, for a hand schedule);
  a hand is played at the level in force when it is dealt.
* The starting stack is at least 10 big blinds of the first level.
* Registration closes at the start, unless the creator chose late registration:
  then it stays open during the first ``late_levels`` levels, until the first
  player is out (so places are still counted from the bottom) or every seat
  is taken; a late entrant pays the same buy-in, gets the same starting stack,
  and the payout table is the one for the new number of entrants. A
  sit-and-go needs ``min_entrants`` players to start and starts by itself
  when full at ``max_entrants``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.engine.variants import GameConfig
from bot.i18n import Phrase
from bot.runtime.tournament.blinds import BlindLevel, LevelUnit
from bot.runtime.tournament.payouts import PayoutTable
from bot.runtime.tournament.placing import Placement, check_stored_seats, place_busted, place_stored
from bot.runtime.tournament.settings import TournamentRuleError, TournamentSettings

__all__ = [
    "HandOutcome",
    "NowClock",
    "Placement",
    "SitAndGo",
    "Status",
    "TournamentRuleError",
    "TournamentSettings",
    "TournamentStore",
    "apply_outcome",
    "draw_seats",
]

class NowClock(Protocol):
    """The part of :class:`bot.runtime.clock.Clock` a tournament needs."""

    def now(self) -> float: ...


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What one recorded hand did to the tournament."""

    hand_number: int  # 1, 2, ... in the tournament
    busted: tuple[Placement, ...]  # best place first
    winner: Placement | None  # set when this hand ended the tournament
    level_changed: bool  # a new level is in force since the last hand ended (announce it once)


class TournamentStore(Protocol):
    """The storage side (``bot.storage.tournaments.TournamentRepo`` fits)."""

    async def eliminate(self, tournament_id: int, user_id: int, place: int) -> None: ...

    async def save_progress(
        self, tournament_id: int, hands_played: int, level_elapsed: float
    ) -> None: ...

    async def finish(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> Any: ...


def draw_seats(
    entrants: Sequence[int], seats: int, rng: random.Random | None = None
) -> dict[int, int]:
    """Random seats ``user -> seat number (1..seats)`` for the start (``TournamentRepo.start``).

    Real play passes nothing (``secrets.SystemRandom``); tests pass a seeded ``Random``.
    """
    if len(set(entrants)) != len(entrants):
        raise TournamentRuleError("A player is listed twice.")
    if len(entrants) > seats:
        raise TournamentRuleError(f"{len(entrants)} players do not fit at {seats} seats.")
    rng = rng if rng is not None else random.SystemRandom()
    chosen = rng.sample(range(1, seats + 1), len(entrants))
    return dict(zip(entrants, chosen, strict=True))


@dataclass
class SitAndGo:
    """One sit-and-go's state. See the module docstring for the rules it applies."""

    settings: TournamentSettings
    clock: NowClock
    entrants: list[int] = field(default_factory=list)
    status: Status = Status.REGISTERING
    stacks: dict[int, int] = field(default_factory=dict)  # players still in
    placements: dict[int, Placement] = field(default_factory=dict)
    hands_played: int = 0
    started_at: float | None = None
    #: The prize of each place, 1st first: fixed at the start (and at each late entry).
    amounts: tuple[int, ...] = ()
    _reported_level: int = 0  # the level in force when the last hand ended

    # -- registration --------------------------------------------------------------------
    @property
    def pool(self) -> int:
        """The prize pool: every entrant's buy-in."""
        return self.settings.buy_in * len(self.entrants)

    @property
    def is_full(self) -> bool:
        return len(self.entrants) >= self.settings.max_entrants

    @property
    def can_start(self) -> bool:
        return self.status is Status.REGISTERING and len(self.entrants) >= (
            self.settings.min_entrants
        )

    def check_register(self, user_id: int) -> None:
        """Raise :class:`TournamentRuleError` if ``user_id`` may not register now."""
        if self.status is not Status.REGISTERING and not self.late_open:
            raise TournamentRuleError(Phrase("refuse.sng.registration_closed"))
        if user_id in self.entrants:
            raise TournamentRuleError(Phrase("refuse.sng.already_registered"))
        if self.is_full:
            raise TournamentRuleError(Phrase("refuse.sng.full", count=self.settings.max_entrants))

    def register(self, user_id: int) -> None:
        """Add an entrant (after storage took their buy-in)."""
        self.check_register(user_id)
        self.entrants.append(user_id)
        if self.status is Status.RUNNING:  # late registration: a stack and a bigger pool
            self.stacks[user_id] = self.settings.starting_stack
            self.amounts = self.payout_table().amounts(self.pool)

    @property
    def late_open(self) -> bool:
        """Late registration is open: running, in the first ``late_levels`` levels, nobody
        out yet (places stay counted from the bottom) and a seat free."""
        return (
            self.status is Status.RUNNING and self.level_index < self.settings.late_levels
            and not self.placements and not self.is_full
        )

    def unregister(self, user_id: int) -> None:
        """Remove an entrant before the start (storage refunds the buy-in)."""
        if self.status is not Status.REGISTERING:
            raise TournamentRuleError(Phrase("refuse.sng.started_no_leave"))
        if user_id not in self.entrants:
            raise TournamentRuleError(Phrase("refuse.sng.not_registered"))
        self.entrants.remove(user_id)

    def payout_table(self) -> PayoutTable:
        """The table for the players registered so far (at least the minimum); fixed at start."""
        count = max(len(self.entrants), self.settings.min_entrants)
        return self.settings.payout_table(count)

    def payout_lines(self) -> tuple[str, ...]:
        """The payout table as shown before the start: ``1st: 650 chips (65%)``."""
        return self.payout_table().lines(self.pool)

    # -- start and blinds ----------------------------------------------------------------
    def start(self) -> None:
        """Close registration, give everyone the starting stack, start level 1 on the clock."""
        if self.status is not Status.REGISTERING:
            raise TournamentRuleError(Phrase("refuse.sng.already_started"))
        if len(self.entrants) < self.settings.min_entrants:
            raise TournamentRuleError(Phrase("refuse.sng.too_few",
                                             count=self.settings.min_entrants))
        self.amounts = self.payout_table().amounts(self.pool)
        self.stacks = dict.fromkeys(self.entrants, self.settings.starting_stack)
        self.started_at = self.clock.now()
        self.status = Status.RUNNING

    @classmethod
    def resume(
        cls,
        settings: TournamentSettings,
        clock: NowClock,
        *,
        entrants: Sequence[int],
        stacks: Mapping[int, int],
        places: Mapping[int, int],
        hands_played: int,
        elapsed: float,
        last_start: Mapping[int, int] | None = None,
    ) -> tuple[SitAndGo, HandOutcome | None]:
        """Rebuild a running sit-and-go after a restart from what storage holds.

        ``entrants`` in registration order; ``stacks`` the tournament's seats
        (user -> stack), including players left at 0 whose elimination was not
        stored before the restart; ``places`` the places already stored;
        ``last_start`` the starting stacks of the last finished hand (needed to
        place players left at 0); ``elapsed`` the level time already played
        (seconds, or ignored for a hand schedule; whether downtime counts is the
        caller's choice). Players who share a stored place get their pooled prize
        with the odd chips in registration order (the seat order of that hand is
        not stored).

        Returns the state and, when players still had to be placed or only one
        player is left, the :class:`HandOutcome` to pass to :func:`apply_outcome`.
        Raises :class:`TournamentRuleError` when the facts do not fit together.
        """
        sng = cls(settings, clock, entrants=list(entrants))
        check_stored_seats(sng.entrants, stacks, places, settings.starting_stack)
        sng.amounts = settings.payout_table(len(sng.entrants)).amounts(sng.pool)
        sng.status = Status.RUNNING
        sng.stacks = dict(stacks)
        rank = {u: i for i, u in enumerate(sng.entrants)}
        sng.restore_places(places, rank)
        busted = sng.place_left_at_zero(last_start, rank)
        sng.restore_clock(hands_played, elapsed)
        winner = sng.settle()
        if not busted and winner is None:
            return sng, None
        return sng, HandOutcome(hands_played, tuple(busted), winner, False)

    def restore_places(self, places: Mapping[int, int], rank: Mapping[int, int]) -> None:
        """After a restart (:meth:`resume`): placements for the stored places; players sharing
        one get the pooled prize, odd chips in registration order. The places must be exactly
        those below the seated."""
        placed, covered = place_stored(places, rank, self.amounts)
        self.placements.update(placed)
        if sorted(covered) != list(range(len(self.stacks) + 1, len(self.entrants) + 1)):
            raise TournamentRuleError("The stored places do not fit the players still seated.")

    def place_left_at_zero(
        self, last_start: Mapping[int, int] | None, rank: Mapping[int, int]
    ) -> list[Placement]:
        """After a restart (:meth:`resume`): place the seated players left with no chips
        (their elimination was not stored) by their stacks at the start of the last hand;
        returns their placements."""
        pending = [u for u, s in self.stacks.items() if s == 0]
        start = dict(last_start or {})
        if any(u not in start or start[u] <= 0 for u in pending):
            raise TournamentRuleError(
                "A player left with no chips needs their stack at the start of the last hand."
            )
        busted = self._place(pending, start, rank)
        self._eliminate(busted)
        return busted

    def restore_clock(self, hands_played: int, elapsed: float) -> None:
        """After a restart (:meth:`resume`): continue the blind levels where they were
        (``elapsed`` seconds of a minute schedule, or the hands played of a hand schedule)."""
        self.hands_played = hands_played
        self.started_at = self.clock.now() - (
            0.0 if self.settings.schedule.unit is LevelUnit.HANDS else max(0.0, elapsed)
        )
        self._reported_level = self.level_index

    def _elapsed(self) -> float:
        if self.started_at is None:
            raise TournamentRuleError("The tournament has not started.")
        if self.settings.schedule.unit is LevelUnit.HANDS:
            return float(self.hands_played)
        return max(0.0, self.clock.now() - self.started_at)

    @property
    def clock_seconds(self) -> float:
        """Seconds on the blind clock since the start (what a restart resumes from)."""
        return 0.0 if self.started_at is None else max(0.0, self.clock.now() - self.started_at)

    @property
    def level_index(self) -> int:
        """The level in force now, 0-based (the schedule's last level repeats)."""
        return self.settings.schedule.index_at(self._elapsed())

    @property
    def level(self) -> BlindLevel:
        """The blinds and ante in force now, as played in this structure."""
        raw = self.settings.schedule.levels[self.level_index]
        return raw.for_structure(self.settings.blinds_structure)

    def game(self) -> GameConfig:
        """The engine settings for the next hand (the level in force when it is dealt)."""
        return self.level.game(self.settings.variant, self.settings.structure)

    def until_next_level(self) -> float | None:
        """Seconds (minute schedule) or hands (hand schedule) until the next level;
        None on the last level."""
        sched = self.settings.schedule
        index = self.level_index
        if index >= len(sched.levels) - 1:
            return None
        if sched.unit is LevelUnit.HANDS:
            return float((index + 1) * sched.duration - self.hands_played)
        return (index + 1) * sched.seconds_per_level - self._elapsed()

    # -- hands, places, prizes -----------------------------------------------------------
    def record_hand(
        self,
        start: Mapping[int, int],
        final: Mapping[int, int],
        order: Sequence[int] = (),
    ) -> HandOutcome:
        """Record a finished hand: ``user -> stack`` at its start and at its end.

        ``start`` lists every player dealt in (players not dealt in keep their
        stacks); ``order`` lists them clockwise from the first seat after the
        button (it breaks the odd-chip ties of shared places). Returns the
        players busted in it, best place first, and the winner when it ended
        the tournament. Raises :class:`TournamentRuleError` and changes nothing
        when the stacks do not fit the tournament's (chips created or lost,
        an unknown or eliminated player, a stack that is not the one recorded).
        """
        if self.status is not Status.RUNNING:
            raise TournamentRuleError("This tournament is not running.")
        self._check_hand(start, final, order)
        busted = [u for u in start if final[u] == 0]
        placements = self._place(busted, start, self._seat_ranking(start, order))
        for user, stack in final.items():
            self.stacks[user] = stack
        self._eliminate(placements)
        self.hands_played += 1
        winner = self.settle()
        level = self.level_index
        changed = winner is None and level > self._reported_level
        self._reported_level = level
        return HandOutcome(self.hands_played, tuple(placements), winner, changed)

    def _place(
        self, busted: Sequence[int], start: Mapping[int, int], ranking: Mapping[int, int]
    ) -> list[Placement]:
        """Places for players busted in one hand, best first (see the module docstring)."""
        next_place = len(self.stacks) - len(busted) + 1
        return place_busted(busted, start, ranking, next_place, self.amounts)

    def _eliminate(self, placements: Sequence[Placement]) -> None:
        """Take busted players off the table and record their places."""
        for p in placements:
            del self.stacks[p.user_id]
            self.placements[p.user_id] = p

    def settle(self) -> Placement | None:
        """When one player is left, they win: 1st place, and the tournament is over (after
        each recorded hand and after a restart). Returns the winner's placement, else None."""
        if len(self.stacks) != 1:
            return None
        (user,) = self.stacks
        winner = Placement(user, 1, 1, self.amounts[0], None)
        self.placements[user] = winner
        self.status = Status.FINISHED
        if sum(self.prizes.values()) != self.pool:  # defensive: places 1..n are each paid once
            raise AssertionError("the prizes do not add up to the pool")
        return winner

    def _check_hand(
        self, start: Mapping[int, int], final: Mapping[int, int], order: Sequence[int]
    ) -> None:
        if set(start) != set(final):
            raise TournamentRuleError("The hand's starting and final players differ.")
        if len(start) < 2:
            raise TournamentRuleError("A hand needs at least two players.")
        for user, stack in start.items():
            self._check_player_stacks(user, stack, final[user])
        if sum(start.values()) != sum(final.values()):
            raise TournamentRuleError("The hand created or lost chips.")
        if order and (len(order) != len(start) or set(order) != set(start)):
            raise TournamentRuleError("The seat order must list exactly the hand's players.")

    def _check_player_stacks(self, user: int, stack: int, final: object) -> None:
        """A player still in, who started with the stack recorded and ended with a whole,
        non-negative number of chips."""
        if user not in self.stacks:
            raise TournamentRuleError(f"Player {user} is not in this tournament any more.")
        if stack != self.stacks[user]:
            raise TournamentRuleError(
                f"Player {user} started the hand with {stack:,} chips,"
                f" not the {self.stacks[user]:,} recorded."
            )
        if isinstance(final, bool) or not isinstance(final, int) or final < 0:
            raise TournamentRuleError(f"Player {user} cannot end a hand with {final}.")

    def _seat_ranking(self, start: Mapping[int, int], order: Sequence[int]) -> dict[int, int]:
        seq = list(order) if order else [u for u in self.entrants if u in start]
        return {u: i for i, u in enumerate(seq)}

    @property
    def finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def winner(self) -> int | None:
        if not self.finished:
            return None
        return next(p.user_id for p in self.placements.values() if p.place == 1)

    @property
    def alive(self) -> tuple[int, ...]:
        """Players still in, in registration order."""
        return tuple(u for u in self.entrants if u in self.stacks)

    @property
    def places(self) -> dict[int, int]:
        """``user -> place`` of everyone placed so far (everyone once finished)."""
        return {u: p.place for u, p in self.placements.items()}

    @property
    def prizes(self) -> dict[int, int]:
        """``user -> prize`` for the players placed so far, positive prizes only."""
        return {u: p.prize for u, p in self.placements.items() if p.prize > 0}

    def finish_args(self) -> tuple[dict[int, int], dict[int, int]]:
        """``(places, prizes)`` for ``TournamentRepo.finish`` (prizes add up to the pool)."""
        if not self.finished:
            raise TournamentRuleError("The tournament is not over yet.")
        return self.places, self.prizes

    def cancel(self) -> None:
        """Stop the tournament (storage refunds every buy-in)."""
        if self.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentRuleError(Phrase("refuse.sng.over"))
        self.status = Status.CANCELLED

    def standings(self) -> list[tuple[int, int]]:
        """``(user, stack)`` of the players still in, biggest stack first."""
        rank = {u: i for i, u in enumerate(self.entrants)}
        return sorted(self.stacks.items(), key=lambda item: (-item[1], rank[item[0]]))


async def apply_outcome(
    store: TournamentStore, tournament_id: int, sng: SitAndGo, outcome: HandOutcome
) -> None:
    """Mirror a recorded hand into storage: eliminate the busted players (best place first)
    and, when the hand ended the tournament, pay the prizes out.

    Call it after the hand's settlement is stored (the busted seats must hold 0 chips).
    The blind clock's progress is stored first, so that a restart resumes the level.
    """
    await store.save_progress(tournament_id, sng.hands_played, sng.clock_seconds)
    for p in outcome.busted:
        await store.eliminate(tournament_id, p.user_id, p.place)
    if outcome.winner is not None:
        places, prizes = sng.finish_args()
        await store.finish(tournament_id, places, prizes)
