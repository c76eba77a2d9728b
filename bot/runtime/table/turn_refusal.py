"""Why a player may not act now: the refusal of a decision out of turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Name, Phrase

if TYPE_CHECKING:
    from bot.runtime.seating import Seat
    from bot.runtime.table.live import Table

__all__ = ["not_your_turn"]


def not_your_turn(table: Table, seat: Seat | None = None) -> Phrase:
    """Why it is not ``seat``'s turn (or nobody's) at ``table`` now."""
    cur = table.current
    if cur is None or cur.hand.is_over:
        return Phrase("refuse.no_hand")
    if seat is not None and seat.number not in cur.dealt:
        return Phrase("refuse.not_dealt")
    if seat is not None:
        st = cur.hand.player(seat.number)
        if st.folded:
            return Phrase("refuse.folded")
        if st.all_in:
            return Phrase("refuse.all_in")
    if cur.question is not None:
        return Phrase("refuse.run_twice_question")
    n = cur.hand.to_act
    if n is None or n not in table.seats:
        return Phrase("refuse.not_your_turn_someone")
    return Phrase("refuse.not_your_turn", name=Name(table.seats[n].name))
