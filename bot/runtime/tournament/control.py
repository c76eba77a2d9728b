"""The creator's (or a manager's) control of a sit-and-go: start it early, cancel it.

* ``/tournament start``: the creator or a server manager starts it once at
  least the minimum number of players (two, or one per paid place of a custom
  payout table) have registered; it starts by itself when full.
* late registration (when the creator chose it): ``/tournament join`` after
  the start seats the player at a free seat with the starting stack; like
  any player entering a table they wait for the big blind to reach them
  (RULES.md 3) and are dealt in from then on.
* ``/tournament cancel`` before the start (the creator or a server manager):
  every buy-in is refunded.
* ``/tournament cancel`` after the start (RULES.md 7): by a server manager, or
  when every player still in agrees: each player still in who runs it adds
  their agreement (:class:`Cancelling` ``AGREED``; the table is told how many of
  how many agree), and the last one cancels it. The creator alone no longer
  can, nor can anyone out of the tournament. Agreements are kept in memory: a
  restart of the bot starts the count again. The rule for the remaining chips
  is shown before anyone registers (the catalogs' ``tournament.cancel_rule``).
  Players already out in a paid place keep their prize; the rest of the
  prize pool is split among the players still in, in proportion to their chips
  (:func:`~bot.runtime.tournament.results.cancel_prizes`).
  It takes effect between hands: at once when no hand is being played,
  otherwise when the hand in progress ends (the hand is played out): the
  runtime's :meth:`~bot.runtime.tournament.table_policy.SitAndGoRuntime.cancel_running`
  (a multi-table tournament's director holds every table first).
"""

from __future__ import annotations

from enum import Enum

from bot.i18n import Command, Name, Phrase
from bot.runtime.errors import NotAllowed
from bot.runtime.tournament.sit_and_go import Status, TournamentRuleError
from bot.runtime.tournament.table_policy import ControlPorts, SitAndGoRuntime

__all__ = ["Cancelling", "cancel", "join_late", "start_now"]


class Cancelling(Enum):
    """What ``/tournament cancel`` did."""

    DONE = "cancelled now"
    AFTER_HANDS = "cancelled when the hands in progress end"
    AGREED = "one more player still in agrees; the others have not yet"


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
        await rt.start()


async def cancel(
    rt: SitAndGoRuntime, store: ControlPorts, user_id: int, *, is_manager: bool = False
) -> Cancelling:
    """Cancel the tournament, or after its start add a player's agreement to cancel it."""
    async with rt.lock:
        sng = rt.sng
        if sng.status is Status.REGISTERING:
            _check_allowed(rt, user_id, is_manager, "cancel")
            await store.cancel_tournament(rt.tournament_id)
            sng.cancel()
            return Cancelling.DONE
        if not is_manager and not _agree(rt, user_id):
            return Cancelling.AGREED
        return Cancelling.DONE if await rt.cancel_running() else Cancelling.AFTER_HANDS


def _agree(rt: SitAndGoRuntime, user_id: int) -> bool:
    """Count a player's agreement to cancel after the start; True once every player
    still in agrees. Refuses anyone else (a server manager cancels without asking)."""
    still_in = set(rt.sng.alive)
    if user_id not in still_in:
        raise NotAllowed(Phrase("refuse.sng.cancel_after_start"))
    if rt.sng.status is not Status.RUNNING:
        raise TournamentRuleError(Phrase("refuse.sng.over"))
    rt.cancel_agreed.add(user_id)
    agreed = len(rt.cancel_agreed & still_in)
    if agreed == len(still_in):
        return True
    rt.tell_tables(Phrase("notice.sng_cancel_agreed", count=agreed, total=len(still_in),
                          cancel=Command("tournament cancel")))
    return False


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
            table.tell(Phrase("notice.registers_late", name=Name(name), seat=seat))
            table.start()  # deals if the table had stopped
            return seat
