"""Finishing places and prizes of a sit-and-go (RULES.md section 7), as pure functions.

Players busted in the same hand are placed by their stacks at the start of
that hand, bigger stack higher; equal stacks share their places, each
recorded at the best of them, and split the pooled prizes of those places
(:func:`bot.runtime.tournament.payouts.pooled` and :func:`~bot.runtime.tournament.payouts.share`).
:class:`bot.runtime.tournament.sit_and_go.SitAndGo` applies them; its module docstring
names each decision, and :class:`Placement` is importable from there too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.runtime.tournament.payouts import MIN_ENTRANTS, pooled, share
from bot.runtime.tournament.settings import TournamentRuleError

__all__ = ["Placement", "check_stored_seats", "place_busted", "place_stored"]


@dataclass(frozen=True, slots=True)
class Placement:
    """A player's finish: ``place`` (shared places: the best of them), ``shared`` (how many
    players share it, 1 when alone), the ``prize`` in chips and the stack they started
    their last hand with (None for the winner, and for places rebuilt by
    :meth:`~bot.runtime.tournament.sit_and_go.SitAndGo.resume`)."""

    user_id: int
    place: int
    shared: int
    prize: int
    start_stack: int | None


def place_busted(
    busted: Sequence[int],
    start: Mapping[int, int],
    ranking: Mapping[int, int],
    next_place: int,
    amounts: Sequence[int],
) -> list[Placement]:
    """Places from ``next_place`` down for players busted in one hand, best first.

    Bigger starting stack first; equal starting stacks share their places, the
    pooled prizes (``amounts`` by place, 1st first) split with the odd chips
    in ``ranking`` order."""
    order = sorted(busted, key=lambda u: (-start[u], ranking[u]))
    placements: list[Placement] = []
    i = 0
    while i < len(order):
        group = [u for u in order[i:] if start[u] == start[order[i]]]
        total = pooled(amounts, next_place, len(group))
        for user, prize in zip(group, share(total, len(group)), strict=True):
            placements.append(Placement(user, next_place, len(group), prize, start[user]))
        next_place += len(group)
        i += len(group)
    return placements


def place_stored(
    places: Mapping[int, int], rank: Mapping[int, int], amounts: Sequence[int]
) -> tuple[dict[int, Placement], list[int]]:
    """Placements for stored ``user -> place`` and the places they cover (a place shared
    by ``k`` players covers it and the ``k - 1`` below). Players sharing a place split
    the pooled prize with the odd chips in ``rank`` order."""
    groups: dict[int, list[int]] = {}
    for user in sorted(places, key=rank.__getitem__):
        groups.setdefault(places[user], []).append(user)
    placements: dict[int, Placement] = {}
    covered: list[int] = []
    for place, group in groups.items():
        covered.extend(range(place, place + len(group)))
        total = pooled(amounts, place, len(group))
        for user, prize in zip(group, share(total, len(group)), strict=True):
            placements[user] = Placement(user, place, len(group), prize, None)
    return placements, covered


def check_stored_seats(
    entrants: Sequence[int],
    stacks: Mapping[int, int],
    places: Mapping[int, int],
    starting_stack: int,
) -> None:
    """The facts :meth:`SitAndGo.resume` starts from fit together: two or more distinct
    entrants, each either seated or placed, and the seats holding every chip."""
    n = len(entrants)
    if len(set(entrants)) != n or n < MIN_ENTRANTS:
        raise TournamentRuleError("A running tournament has at least two distinct entrants.")
    if set(stacks) & set(places) or set(stacks) | set(places) != set(entrants):
        raise TournamentRuleError("Every entrant is either seated or placed, never both.")
    if any(s < 0 for s in stacks.values()):
        raise TournamentRuleError("A stack cannot be negative.")
    if sum(stacks.values()) != starting_stack * n:
        raise TournamentRuleError("The seats do not hold every tournament chip.")
