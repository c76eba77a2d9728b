"""The table as the presenter sees it: an immutable :class:`TableSnapshot`, no hidden cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.pots import build_pots
from bot.runtime.seating import Seat
from bot.runtime.table.views import PotSnapshot, SeatSnapshot, TableSnapshot

if TYPE_CHECKING:
    from bot.engine.hand_state import HandState
    from bot.runtime.table.live import Table

__all__ = ["collected_pots", "snapshot_of"]


def snapshot_of(table: Table, *, before_awards: bool = False) -> TableSnapshot:
    """An immutable picture of ``table`` right now (taken under its lock).

    ``before_awards``: the stacks as they were before the pots were paid (an
    all-in run-out is shown street by street before anyone is told who won).
    """
    cur = table.current
    hand = cur.hand if cur else None
    bomb = hand.bomb_pot if hand else None
    blinds = hand is not None and bomb is None  # a bomb pot posts none
    seats = []
    for n in sorted(table.seats):
        seat = table.seats[n]
        if cur is not None and hand is not None and n in cur.dealt:
            seats.append(_in_hand(seat, hand, before_awards))
        else:
            seats.append(_between_hands(seat))
    return TableSnapshot(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        creator_id=table.creator_id,
        config=table.config,
        seats=tuple(seats),
        button=table.button,
        hand_no=cur.hand_no if cur else table.hands_dealt,
        hand_id=cur.hand_id if cur else None,
        street=hand.street if hand else None,
        board=hand.board if hand else (),
        second_board=hand.second_board if hand else (),
        pot=hand.pot_total if hand else 0,
        pots=tuple(PotSnapshot(p.amount, p.eligible) for p in hand.pots) if hand else (),
        collected=collected_pots(hand) if hand else (),
        to_act=hand.to_act if hand else None,
        closed=table.closed,
        small_blind=hand.small_blind_seat if hand and blinds else None,
        big_blind=hand.big_blind_seat if hand and blinds else None,
        straddle=hand.straddle_seat if hand else None,
        bomb_ante=bomb.ante if bomb else 0,
        double_board=hand.double_board if hand else False,
        commitment=cur.commitment if cur else "",
    )


def collected_pots(hand: HandState) -> tuple[PotSnapshot, ...]:
    """The pots in the middle, this round's bets left in front of the players.

    The engine's own pot rule (:func:`~bot.engine.pots.build_pots`) over what
    each seat put in before this round; only an all-in from an earlier round
    caps a pot here (an all-in of this round is still a bet in front).
    """
    ps = hand.players
    raw = build_pots(
        [p.committed - p.bet for p in ps],
        [not p.folded for p in ps],
        [p.all_in and p.bet == 0 for p in ps],
    )
    return tuple(PotSnapshot(x.amount, tuple(ps[i].seat for i in x.eligible)) for x in raw)


def _in_hand(seat: Seat, hand: HandState, before_awards: bool) -> SeatSnapshot:
    st = hand.player(seat.number)
    return SeatSnapshot(
        seat=seat.number,
        user_id=seat.user_id,
        name=seat.name,
        stack=st.starting_stack - st.committed if before_awards else st.stack,
        bet=st.bet,
        committed=st.committed,
        in_hand=not st.folded,
        dealt_in=True,
        folded=st.folded,
        all_in=st.all_in,
        sitting_out=seat.sitting_out,
        leaving=seat.leaving,
        time_bank=int(seat.time_bank),
        shown=hand.shown.get(seat.number, ()),
    )


def _between_hands(seat: Seat) -> SeatSnapshot:
    return SeatSnapshot(
        seat=seat.number,
        user_id=seat.user_id,
        name=seat.name,
        stack=seat.stack,
        sitting_out=seat.sitting_out,
        waiting_for_big_blind=seat.needs_big_blind and not seat.sitting_out,
        leaving=seat.leaving,
        time_bank=int(seat.time_bank),
    )
