"""The creator's (or a manager's) control of a sit-and-go: start it early, cancel it.

* ``/tournament start``: the creator or a server manager starts it once at
  least the minimum number of players (two, or one per paid place of a custom
  payout table) have registered; it starts by itself when full.
* late registration (when the creator chose it): ``/tournament join`` after
  the start seats the player at a free seat with the starting stack; like
  any player entering a table they wait for the big blind to reach them
  (RULES.md 3) and are dealt in from then on.
* ``/tournament cancel`` before the start: every buy-in is refunded.
* ``/tournament cancel`` after the start (the creator or a server manager):
  the rule for the remaining chips is shown before anyone registers (the
  catalogs' ``notice.sng_cancel_after_hand`` and registration texts).
  Players already out in a paid place keep their prize; the rest of the
  prize pool is split among the players still in, in proportion to their chips
  (:func:`~bot.runtime.tournament.payouts.split_by_stacks`).
  It takes effect between hands: at once when no hand is being played,
  otherwise when the hand in progress ends (the hand is played out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from bot.i18n import Listed, Phrase
from bot.runtime.errors import NotAllowed
from bot.runtime.table.live import Table
from bot.runtime.tournament.payouts import split_by_stacks
from bot.runtime.tournament.results import tell_results
from bot.runtime.tournament.sit_and_go import SitAndGo, Status, TournamentRuleError
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy, TournamentPorts

__all__ = ["ControlPorts", "cancel", "cancel_prizes", "join_late", "prize_list", "start_now"]


class ControlPorts(TournamentPorts, Protocol):
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


def _check_allowed(rt: SitAndGoRuntime, user_id: int, is_manager: bool, what: str) -> None:
    if user_id != rt.creator_id and not is_manager:
        raise NotAllowed(Phrase(f"refuse.creator_only.tournament_{what}"))


async def start_now(rt: SitAndGoRuntime, user_id: int, *, is_manager: bool = False) -> None:
    """Start before the tournament is full (at least the minimum registered)."""
    async with rt.lock:
        _check_allowed(rt, user_id, is_manager, "start")
        sng = rt.sng
        if sng.status is not Status.REGISTERING:
            raise TournamentRuleError(Phrase("refuse.sng.already_started"))
        if not sng.can_start:
            raise TournamentRuleError(Phrase("refuse.sng.too_few_registered",
                                             count=sng.settings.min_entrants,
                                             registered=len(sng.entrants)))
        await rt._start()


def cancel_prizes(sng: SitAndGo) -> tuple[dict[int, int], dict[int, int]]:
    """``(places, prizes)`` of a cancellation after the start (the rule shown before
    registration)."""
    kept = sng.prizes
    rest = sng.pool - sum(kept.values())
    split = split_by_stacks(rest, sng.standings())
    prizes = {**kept, **{u: p for u, p in split.items() if p > 0}}
    return sng.places, prizes


async def cancel(
    rt: SitAndGoRuntime, store: ControlPorts, user_id: int, *, is_manager: bool = False
) -> bool:
    """Cancel the tournament; True when it is over now, False when it ends after the
    hand in progress."""
    async with rt.lock:
        _check_allowed(rt, user_id, is_manager, "cancel")
        sng = rt.sng
        if sng.status is Status.REGISTERING:
            await store.cancel_tournament(rt.tournament_id)
            sng.cancel()
            return True
        from bot.runtime.tournament.mtt import (
            MttRuntime,  # the multi-table runtime builds on this module
        )

        if isinstance(rt, MttRuntime) and sng.status is Status.RUNNING:
            return await rt.cancel_running()
        table = rt.table
        if sng.status is not Status.RUNNING or table is None:
            raise TournamentRuleError(Phrase("refuse.sng.over"))
        policy = table.policy
        assert isinstance(policy, TournamentPolicy)
        async with table.lock:
            if table.closing or table.closed:
                raise TournamentRuleError(Phrase("refuse.sng.over"))
            if table.current is None:
                await _pay_and_close(table, policy, store)
                await table.close_now()
                return True
            policy.between_hands = lambda t: _pay_and_close(t, policy, store)
            table.tell(Phrase("notice.sng_cancel_after_hand"))
            return False


async def _pay_and_close(table: Table, policy: TournamentPolicy, store: ControlPorts) -> None:
    """Pay the pool by the cancellation rule and let the table close (under its lock)."""
    sng = policy.sng
    if sng.status is not Status.RUNNING:
        return
    places, prizes = cancel_prizes(sng)
    await store.cancel_with_prizes(policy.tournament_id, places, prizes)
    sng.cancel()
    paid = prize_list(prizes, lambda u: _name(table, u))
    table.tell(Phrase("notice.sng_cancelled", prizes=paid))
    tell_results(table, sng, policy.tournament_id, prizes)
    table.seats.clear()  # storage took the tournament chips back when it paid
    table.close_after_hand()


def prize_list(prizes: Mapping[int, int], name_of: Callable[[int], str]) -> Listed:
    """A cancellation's prizes, biggest first, as the reader's language lists them: each
    ``name prize`` with the locale's separator (``ana 1.000``), joined with Babel's
    ``format_list`` (``ana 1.000 e bia 500``). Shared by the sit-and-go and the multi-table
    director."""
    ranked = sorted(prizes.items(), key=lambda i: -i[1])
    return Listed(Phrase("notice.prize_item", name=name_of(u), prize=p) for u, p in ranked)


def _name(table: Table, user_id: int) -> str:
    seat = table.seat_of(user_id)
    return seat.name if seat is not None else f"<@{user_id}>"


async def join_late(
    rt: SitAndGoRuntime, store: ControlPorts, user_id: int, name: str
) -> int:
    """Register after the start (late registration open); returns the seat number."""
    async with rt.lock:
        table = rt.table
        if table is None:
            raise TournamentRuleError(Phrase("refuse.sng.registration_closed"))
        async with table.lock:
            rt.sng.check_register(user_id)
            free = [n for n in range(1, rt.config.seats + 1) if n not in table.seats]
            if not free:
                raise TournamentRuleError(Phrase("refuse.sng.no_seat"))
            seat = free[0]
            await store.enter_late(rt.tournament_id, table.table_id, user_id, seat)
            rt.sng.register(user_id)
            table.restore_seat(seat, user_id, name, rt.sng.settings.starting_stack)
            table.seats[seat].needs_big_blind = True  # waits for the big blind (RULES.md 3)
            table.tell(Phrase("notice.registers_late", name=name, seat=seat))
            table.start()  # deals if the table had stopped
            return seat
