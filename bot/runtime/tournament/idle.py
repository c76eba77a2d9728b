"""A tournament nobody plays any more stops (issue 29).

A tournament's table deals on by itself: a player who does not act is folded or
checked when the clock runs out, and after two timeouts is sat out and folded or
checked at once (RULES.md 8), so a table whose players all went away keeps dealing
hands of timeouts for hours. When :data:`IDLE_HANDS` hands in a row were played
without one decision of a player's own (every action a timeout, a sitting-out
player's or none at all; a pre-action chosen in the hand counts as the player's:
:meth:`~bot.runtime.decisions.Source.own`), the tournament is cancelled as after
its start (RULES.md 7: prizes already won kept, the rest of the pool split by
stacks), by the cancellation code a manager's ``/tournament cancel`` runs, and
the table is told why (``notice.sng_idle``). A multi-table tournament counts the
hands of all its tables in the order they end: one table still playing keeps it
alive (its away players blind off as anywhere).

Why 20: a player who is there makes a decision in almost every hand: whenever the
action reaches them, which is every hand but one where everyone before them was
folded automatically while they held the big blind; so 20 hands in a row without
one means that nobody at the table is there. It is more than two orbits of a full
ten-seat table (every player had the big blind twice and the button twice); with
players timing out it is at least 20 clocks (10 minutes at the default 30 s), and
even when every player is sat out (each hand instant) at least 20 pauses between
hands plus the posting of each hand's deck commitment, a couple of minutes: longer
than a short break nobody announced, and the cancellation pays by stacks, so a
player who comes back late loses nothing they held. The count is kept in memory: a
restart starts it again (like the agreements to cancel).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Phrase

__all__ = ["IDLE_HANDS", "IdleHands", "idle_phrase"]

#: Hands in a row with no decision of a player's own that stop a tournament.
IDLE_HANDS = 20


@dataclass
class IdleHands:
    """The hands in a row, up to now, in which no player made a decision of their own."""

    count: int = 0

    def after(self, decided: bool) -> bool:
        """Count a settled hand (``decided``: a player made a decision of their own in
        it); True once, at the hand that makes :data:`IDLE_HANDS` in a row."""
        self.count = 0 if decided else self.count + 1
        return self.count == IDLE_HANDS


def idle_phrase() -> Phrase:
    """What the tables are told when the tournament stops for it."""
    return Phrase("notice.sng_idle", count=IDLE_HANDS)
