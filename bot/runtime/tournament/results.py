"""The end of a sit-and-go told as one event: places, players and prizes, best first.

The presenter turns :class:`~bot.runtime.table.events.TournamentOver` into the
results picture (``bot.render.results``). Places come from the tournament's
placements; after a cancellation (``bot.runtime.tournament.control``) the players
still in have no place and are listed by their prize, biggest first.
"""

from __future__ import annotations

from bot.engine.variants import game_name
from bot.runtime.table.events import TournamentOver
from bot.runtime.table.live import Table
from bot.runtime.tournament.sit_and_go import SitAndGo

__all__ = ["results_event", "tell_results"]


def results_event(
    table: Table, sng: SitAndGo, tournament_id: int, prizes: dict[int, int] | None = None
) -> TournamentOver:
    """The event for ``sng`` as it ended; ``prizes`` when cancelled (else its placements)."""
    paid = sng.prizes if prizes is None else prizes
    places = sng.places
    rank = {u: i for i, u in enumerate(sng.entrants)}
    rows = sorted(  # players still in after a cancellation first, by prize; then by place
        ((places.get(u), u, paid.get(u, 0)) for u in sng.entrants),
        key=lambda r: (r[0] is not None, r[0] or 0, -r[2], rank[r[1]]),
    )
    s = sng.settings
    return TournamentOver(
        table.snapshot(), tournament_id, game_name(s.variant, s.structure), sng.pool,
        tuple(rows), cancelled=prizes is not None,
    )


def tell_results(
    table: Table, sng: SitAndGo, tournament_id: int, prizes: dict[int, int] | None = None
) -> None:
    """Send the results event to the table's observer (in order with everything else)."""
    table.outbox.send(results_event(table, sng, tournament_id, prizes))
