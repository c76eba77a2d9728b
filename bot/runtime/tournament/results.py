"""The end of a tournament: its results told as one event, and a cancellation's prizes.

The presenter turns :class:`~bot.runtime.table.events.TournamentOver` into the
results picture (``bot.render.results``). Places come from the tournament's
placements; after a cancellation (``bot.runtime.tournament.control``) the players
still in have no place and are listed by their prize, biggest first.

:func:`cancel_prizes` is the rule of a cancellation after the start (shown before
anyone registers) and :func:`prize_list` words those prizes; both are shared by the
sit-and-go's table and the multi-table director.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.i18n import Listed, Name, Phrase
from bot.runtime.table.events import TournamentOver
from bot.runtime.table.live import Table
from bot.runtime.tournament.payouts import split_by_stacks
from bot.runtime.tournament.sit_and_go import SitAndGo

__all__ = ["cancel_prizes", "prize_list", "results_event", "tell_results"]


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
    return TournamentOver(
        table.snapshot(), tournament_id, sng.settings.played, sng.pool, tuple(rows),
        cancelled=prizes is not None,
    )


def tell_results(
    table: Table, sng: SitAndGo, tournament_id: int, prizes: dict[int, int] | None = None
) -> None:
    """Send the results event to the table's observer (in order with everything else)."""
    table.outbox.send(results_event(table, sng, tournament_id, prizes))


def cancel_prizes(sng: SitAndGo) -> tuple[dict[int, int], dict[int, int]]:
    """``(places, prizes)`` of a cancellation after the start (the rule shown before
    registration): players already out in a paid place keep their prize; the rest of the
    pool is split among the players still in, in proportion to their chips."""
    kept = sng.prizes
    rest = sng.pool - sum(kept.values())
    split = split_by_stacks(rest, sng.standings())
    prizes = {**kept, **{u: p for u, p in split.items() if p > 0}}
    return sng.places, prizes


def prize_list(prizes: Mapping[int, int], name_of: Callable[[int], Name | str]) -> Listed:
    """A cancellation's prizes, biggest first, as the reader's language lists them: each
    ``name prize`` with the locale's separator (``ana 1.000``), joined with Babel's
    ``format_list`` (``ana 1.000 e bia 500``). Shared by the sit-and-go and the multi-table
    director."""
    ranked = sorted(prizes.items(), key=lambda i: -i[1])
    return Listed(Phrase("notice.prize_item", name=name_of(u), prize=p) for u, p in ranked)
