"""The players' requests about their seats: join, leave, sit out, sit in, top up, pre-actions,
and the creator's: close, settings. Part of :class:`bot.runtime.table.live.Table`.

Each request takes the table's lock, re-checks what it needs, moves chips
through the economy port first (a refused payment changes nothing), then
changes the seat and tells the table. A request the table's policy refuses
(a tournament has no buy-in, top-up, cash-out, closing or settings change)
gets the policy's polite message.

Rules decided here (RULES.md 7 and where it is silent):

* Leaving during a hand folds the hand when the turn reaches the player (at
  once if it is theirs) and cashes the stack out when the hand ends; until the
  hand ends, sitting in keeps the seat (the player stays, their hand folded
  if it was already). Sitting out during a hand takes effect from the next hand.
* Top-ups only when the player is not in a hand, never past the maximum
  buy-in. A player left with no chips is sat out until they top up; the
  top-up deals them in again from the next hand as an entering player
  (RULES.md 7 and 3: a full big blind, never on the button or small blind).
* Closing during a hand closes the table when the hand ends.
* A player who sits down once the game has begun owes a big blind (they
  post it or wait for it, :mod:`bot.runtime.seating`); at a stopped table
  nobody owes one, since the next hand draws for the button.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.engine.events import Action
from bot.i18n import Command, Name, Phrase, Wording
from bot.runtime.config import TableConfig
from bot.runtime.decisions import Decision, Source
from bot.runtime.errors import NotAllowed, StoreUnavailable, TableError, TableSettingsError
from bot.runtime.seating import PreAction, Seat, rebuy, seat_down
from bot.runtime.table import settle, time_banks
from bot.runtime.table.policy import Request
from bot.runtime.table.views import SeatSnapshot

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = [
    "close",
    "join",
    "leave",
    "restore_seat",
    "set_pre_action",
    "sit_in",
    "sit_out",
    "top_up",
    "update_settings",
]


class Title(Wording):
    """A table's title (``Pot Limit Omaha 1/2``) in the reader's language."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config

    def to(self, locale: object) -> str:
        from bot.runtime.table.wording import (
            title,  # bot.runtime.table.wording reads the runtime's views
        )

        return title(locale, self.config)


def _refuse(table: Table, request: Request) -> None:
    refusal = table.policy.refusal(request)
    if refusal is not None:
        raise TableError(refusal)

async def join(
    table: Table,
    user_id: int,
    name: str,
    buyin: int | None = None,
    seat: int | None = None,
    *,
    post_big_blind: bool = False,
) -> SeatSnapshot:
    """Sit down with ``buyin`` chips (default: the maximum) from the balance."""
    async with table.lock:
        _refuse(table, Request.JOIN)
        table.check_open()
        mine = table.seat_of(user_id)
        if mine is not None:
            raise TableError(Phrase("refuse.already_seated", seat=mine.number))
        required = await table.economy.return_minimum(table_id=table.table_id, user_id=user_id)
        amount = _buyin(table.config, buyin, required)
        number = _free_seat(table.config, table.seats, seat)
        await table.economy.buy_in(
            guild_id=table.guild_id,
            table_id=table.table_id,
            user_id=user_id,
            seat=number,
            amount=amount,
        )
        table.seats[number] = seat_down(
            number, user_id, name, amount, float(table.config.time_bank), table.dealer,
            post_big_blind=post_big_blind,
        )
        table.tell(Phrase("notice.sits_down", name=Name(name), seat=number, count=amount))
        table.schedule_deal()
        view = table.snapshot().at(number)
        assert view is not None
        return view

def restore_seat(
    table: Table, number: int, user_id: int, name: str, stack: int, sitting_out: bool = False
) -> None:
    """Put back a seat remembered by storage (start-up only, before any play)."""
    table.seats[number] = Seat(
        number=number,
        user_id=user_id,
        name=name,
        stack=stack,
        time_bank=float(table.config.time_bank),
        sitting_out=sitting_out or stack == 0,
    )

async def leave(table: Table, user_id: int) -> Phrase:
    """Leave now, or at the end of the hand (folding when the turn comes)."""
    async with table.lock:
        _refuse(table, Request.LEAVE)
        seat = table.require_seat(user_id)
        cur = table.current
        if cur is not None and seat.number in cur.dealt and not cur.hand.is_over:
            return await _leave_after_hand(table, seat)
        amount = await settle.cash_out(table, seat)
        table.tell(Phrase("notice.leaves", name=Name(seat.name)))
        table.schedule_deal()
        return Phrase("reply.left", count=amount)

async def _leave_after_hand(table: Table, seat: Seat) -> Phrase:
    cur = table.current
    assert cur is not None
    if seat.leaving:
        return Phrase("reply.already_leaving")
    seat.leaving = True
    seat.pre_action = None
    if cur.hand.to_act == seat.number:
        try:
            await table.apply(cur, seat, Decision(Action.fold(), Source.LEAVE))
        except StoreUnavailable:
            seat.leaving = False  # nothing taken: the player is told so
            raise
        await table.advance(cur)
        return Phrase("reply.folded_leaving")
    st = cur.hand.player(seat.number)
    if st.folded or st.all_in:
        return Phrase("reply.leaving")
    return Phrase("reply.leaving_fold_later")

async def sit_out(table: Table, user_id: int) -> Phrase:
    async with table.lock:
        seat = table.require_seat(user_id)
        if seat.sitting_out:
            return Phrase("reply.already_sitting_out")
        await settle.mark_sitting_out(table, seat)
        table.tell(Phrase("notice.sits_out", name=Name(seat.name)))
        table.schedule_deal()
        if table.current and seat.number in table.current.dealt:
            return Phrase("reply.sit_out_next")
        return Phrase("reply.sitting_out", sitin=Command("table sitin"))

async def sit_in(table: Table, user_id: int, *, post_big_blind: bool = False) -> Phrase:
    """Come back into the game (posting a big blind now, if owed, when asked); a player
    leaving at the end of the hand stays instead (:mod:`bot.runtime.table.ways`)."""
    async with table.lock:
        seat = table.require_seat(user_id)
        if seat.leaving:
            seat.leaving = False
            table.tell(Phrase("notice.stays", name=Name(seat.name)))
            if not seat.sitting_out:
                return Phrase("reply.staying")
        if seat.stack <= 0:
            raise TableError(Phrase("refuse.no_chips_at_table", topup=Command("table topup")))
        if not seat.sitting_out:
            if post_big_blind and seat.needs_big_blind:
                seat.post_big_blind = True
                return Phrase("reply.will_post_big_blind")
            return Phrase("reply.already_in")
        seat.sitting_out = False
        seat.timeouts = 0
        seat.post_big_blind = post_big_blind
        await table.economy.set_sitting_out(
            table_id=table.table_id, user_id=user_id, sitting_out=False
        )
        table.tell(Phrase("notice.back", name=Name(seat.name)))
        table.schedule_deal()
        if seat.needs_big_blind and not post_big_blind:
            return Phrase("reply.back_wait_big_blind")
        return Phrase("reply.back")

async def top_up(table: Table, user_id: int, amount: int) -> Phrase:
    """Add chips from the balance between hands; the reply says the new stack and, for a
    player who had none, when they are dealt in again (RULES.md 7)."""
    async with table.lock:
        _refuse(table, Request.TOP_UP)
        seat = table.require_seat(user_id)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise TableError(Phrase("refuse.top_up_whole"))
        cur = table.current
        if cur is not None and seat.number in cur.dealt:
            raise TableError(Phrase("refuse.top_up_in_hand"))
        _check_top_up(table.config, seat, amount)
        await table.economy.top_up(
            guild_id=table.guild_id, table_id=table.table_id, user_id=user_id, amount=amount
        )
        came_back = rebuy(seat, amount, table.dealer)
        if came_back:
            await table.economy.set_sitting_out(
                table_id=table.table_id, user_id=user_id, sitting_out=False
            )
        table.tell(Phrase("notice.tops_up", name=Name(seat.name), amount=amount, stack=seat.stack))
        table.schedule_deal()
        if not came_back:
            return Phrase("reply.topped_up", count=seat.stack)
        key = "reply.back_in_big_blind" if seat.needs_big_blind else "reply.back_in"
        return Phrase(key, count=seat.stack)

async def set_pre_action(table: Table, user_id: int, pre: PreAction | None) -> Phrase:
    async with table.lock:
        seat = table.require_seat(user_id)
        cur = table.current
        if pre is None:
            seat.pre_action = None
            return Phrase("reply.pre_action_cleared")
        if cur is None or seat.number not in cur.dealt or cur.hand.is_over:
            raise TableError(Phrase("refuse.pre_action_not_playing"))
        st = cur.hand.player(seat.number)
        if st.folded or st.all_in:
            raise TableError(Phrase("refuse.no_more_decisions"))
        if cur.hand.to_act == seat.number:
            raise TableError(Phrase("refuse.act_directly"))
        seat.pre_action = pre
        return Phrase("reply.pre_action_set", action=Phrase(f"pre_action.{pre.name.lower()}"))

async def close(table: Table, user_id: int, *, is_manager: bool = False) -> Phrase:
    async with table.lock:
        _refuse(table, Request.CLOSE)
        table.check_open()
        table.check_allowed(user_id, is_manager, "close")
        if table.current is not None:
            table.close_after_hand()
            table.tell(Phrase("notice.closing"))
            return Phrase("notice.closing")
        await table.close_now()
        return Phrase("reply.closed")

async def update_settings(
    table: Table, user_id: int, *, is_manager: bool = False, **changes: Any
) -> TableConfig:
    async with table.lock:
        _refuse(table, Request.SETTINGS)
        table.check_open()
        table.check_allowed(user_id, is_manager, "settings")
        if table.current is not None:
            raise NotAllowed(Phrase("refuse.settings_in_hand"))
        new = table.config.changed(**changes)
        if new.mix is not None and new.mix != table.config.mix:  # a new list starts afresh
            new = replace(new, mix=replace(new.mix, since=table.hands_dealt))
        if new.seats < max(table.seats, default=0):
            raise TableSettingsError(Phrase("refuse.cannot_shrink", seat=max(table.seats)))
        await table.tables.update_table(table.table_id, new.to_dict())
        old, table.config = table.config, new
        if new.time_bank != old.time_bank:
            for s in table.seats.values():
                bank, s.time_bank = s.time_bank, float(new.time_bank)
                await time_banks.keep(table, s, bank)
        table.tell(Phrase("notice.new_settings", title=Title(new)))
        table.schedule_deal()
        return new


def _buyin(config: TableConfig, buyin: int | None, required: int = 0) -> int:
    """The buy-in: ``buyin`` or the most allowed; ``required``, the stack the player left a
    cash table of this game and blinds with less than an hour ago, is the least and may
    pass the maximum (RULES.md 7)."""
    low, high = max(config.min_buyin, required), max(config.max_buyin, required)
    amount = high if buyin is None else buyin
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TableError(Phrase("refuse.buy_in_whole"))
    if required > 0 and amount < required:
        raise TableError(Phrase("refuse.return_stack", count=required))
    if not low <= amount <= high:
        raise TableError(Phrase("refuse.buy_in_range", low=low, high=high))
    return amount


def _free_seat(config: TableConfig, seats: dict[int, Seat], wanted: int | None) -> int:
    free = [n for n in range(1, config.seats + 1) if n not in seats]
    if not free:
        raise TableError(Phrase("refuse.table_full"))
    if wanted is None:
        return free[0]
    if isinstance(wanted, bool) or not isinstance(wanted, int) or not 1 <= wanted <= config.seats:
        raise TableError(Phrase("refuse.seat_numbers", count=config.seats))
    if wanted in seats:
        raise TableError(Phrase("refuse.seat_taken", seat=wanted, free=", ".join(map(str, free))))
    return wanted


def _check_top_up(config: TableConfig, seat: Seat, amount: int) -> None:
    room = config.max_buyin - seat.stack
    if room <= 0:
        raise TableError(Phrase("refuse.top_up_at_max", max=config.max_buyin))
    if amount > room:
        raise TableError(Phrase("refuse.top_up_over_max", max=config.max_buyin, room=room))
