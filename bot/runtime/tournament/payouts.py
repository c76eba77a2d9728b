"""Sit-and-go payout tables: the prize pool split by finishing place (RULES.md section 7).

Decisions where RULES.md is silent:

* **Standard table by number of entrants** (the classic single-table online
  sit-and-go structures): 2-3 entrants, the winner takes all (100); 4-6
  entrants, 65/35; 7-10 entrants, 50/30/20. A creator may instead give their
  own percentages (whole numbers, highest first, adding up to 100, paying no
  more places than there are entrants).
* **Whole chips, none lost**: each place gets ``pool * percent // 100``; the
  chips left over (fewer than the number of paid places) go one at a time to
  the higher places, first place first. Prizes therefore never increase down
  the table and always add up to the pool exactly.
* **Shared places** (equal stacks busted in the same hand): the tied players'
  places' prizes are pooled and split equally; the odd chips go one at a time
  to the tied players in the order given (the tournament passes them clockwise
  from the button of that hand, as RULES.md section 6 does with a split pot's
  odd chips). See :func:`share`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Phrase, Wording

__all__ = [
    "MAX_ENTRANTS",
    "MAX_MTT_ENTRANTS",
    "MIN_ENTRANTS",
    "PayoutError",
    "PayoutTable",
    "mtt_payouts",
    "ordinal",
    "parse_percentages",
    "pooled",
    "share",
    "split_by_stacks",
    "standard_payouts",
]

MIN_ENTRANTS = 2
MAX_ENTRANTS = 10  # one table
MAX_MTT_ENTRANTS = 60  # a multi-table tournament (bot.runtime.tournament.mtt)


class PayoutError(ValueError):
    """A payout table that cannot be used (readable message).

    ``phrase``: the reason as a :class:`~bot.i18n.Wording` when a player can cause it
    (``bot.adapter.polite.describe`` words it in the reader's language); ``str()`` is English."""

    def __init__(self, message: str | Wording) -> None:
        self.phrase = message if isinstance(message, Wording) else None
        super().__init__(str(message))


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    teens = 10 <= place % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """Whole percentages of the pool for 1st, 2nd, ... place (highest first, sum 100)."""

    percentages: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "percentages", tuple(self.percentages))
        pcts = self.percentages
        if not pcts:
            raise PayoutError(Phrase("refuse.payout.no_place"))
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 1 for p in pcts):
            raise PayoutError(Phrase("refuse.payout.whole"))
        if sum(pcts) != 100:
            raise PayoutError(Phrase("refuse.payout.sum", total=str(sum(pcts))))
        if any(a < b for a, b in itertools.pairwise(pcts)):
            raise PayoutError(Phrase("refuse.payout.order"))

    @property
    def places(self) -> int:
        """How many places are paid."""
        return len(self.percentages)

    def amounts(self, pool: int) -> tuple[int, ...]:
        """Whole-chip prizes for 1st, 2nd, ...; they add up to ``pool`` exactly.

        Each place gets ``pool * percent // 100``; the remainder (fewer chips than
        paid places) goes one chip at a time to 1st, 2nd, ... place.
        """
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
            raise PayoutError("the prize pool must be a whole number of chips, at least 0")
        base = [pool * p // 100 for p in self.percentages]
        left = pool - sum(base)
        for i in range(left):  # left < number of places: each floor loses less than one chip
            base[i] += 1
        return tuple(base)

    def amount_for_place(self, pool: int, place: int) -> int:
        """The prize for ``place`` (1-based); 0 when the place is not paid."""
        if place < 1:
            raise PayoutError("places start at 1")
        amounts = self.amounts(pool)
        return amounts[place - 1] if place <= len(amounts) else 0

    def lines(self, pool: int) -> tuple[str, ...]:
        """What is shown before the start: ``1st: 650 chips (65%)`` per paid place."""
        return tuple(
            f"{ordinal(i)}: {amount:,} chip{'' if amount == 1 else 's'} ({pct}%)"
            for i, (amount, pct) in enumerate(
                zip(self.amounts(pool), self.percentages, strict=True), start=1
            )
        )

    def check_entrants(self, entrants: int) -> None:
        """Refuse a table that pays more places than there are players."""
        if self.places > entrants:
            raise PayoutError(Phrase("refuse.payout.too_many_places", places=self.places,
                                     count=entrants))


def standard_payouts(entrants: int) -> PayoutTable:
    """The standard sit-and-go table: 2-3 -> 100; 4-6 -> 65/35; 7-10 -> 50/30/20."""
    if isinstance(entrants, bool) or not isinstance(entrants, int) or not (
        MIN_ENTRANTS <= entrants <= MAX_ENTRANTS
    ):
        raise PayoutError(
            f"a sit-and-go has between {MIN_ENTRANTS} and {MAX_ENTRANTS} players, not {entrants}"
        )
    if entrants <= 3:
        return PayoutTable((100,))
    if entrants <= 6:
        return PayoutTable((65, 35))
    return PayoutTable((50, 30, 20))


def mtt_payouts(entrants: int) -> PayoutTable:
    """The standard table of a multi-table tournament: up to 10 players as a sit-and-go;
    11-20 -> 5 places (40/25/16/11/8); 21-40 -> 7 (32/21/14/11/9/7/6); 41-60 -> 9
    (28/18/13/10/8/7/6/5/5): about one player in six or seven is paid."""
    if isinstance(entrants, bool) or not isinstance(entrants, int) or not (
        MIN_ENTRANTS <= entrants <= MAX_MTT_ENTRANTS
    ):
        raise PayoutError(
            f"a tournament has between {MIN_ENTRANTS} and {MAX_MTT_ENTRANTS} players,"
            f" not {entrants}"
        )
    if entrants <= MAX_ENTRANTS:
        return standard_payouts(entrants)
    if entrants <= 20:
        return PayoutTable((40, 25, 16, 11, 8))
    if entrants <= 40:
        return PayoutTable((32, 21, 14, 11, 9, 7, 6))
    return PayoutTable((28, 18, 13, 10, 8, 7, 6, 5, 5))


def share(total: int, players: int) -> tuple[int, ...]:
    """``total`` chips split equally among ``players``; the odd chips to the first ones.

    ``share(101, 2) == (51, 50)``; the order is the order the caller lists the
    tied players in (see the module docstring).
    """
    if players < 1:
        raise PayoutError("a share needs at least one player")
    if total < 0:
        raise PayoutError("a share cannot be negative")
    each, odd = divmod(total, players)
    return tuple(each + (1 if i < odd else 0) for i in range(players))


def pooled(amounts: Sequence[int], first_place: int, count: int) -> int:
    """The prizes of places ``first_place .. first_place + count - 1`` added up (unpaid = 0)."""
    start = first_place - 1
    return sum(amounts[start : start + count])


def split_by_stacks(amount: int, stacks: Sequence[tuple[int, int]]) -> dict[int, int]:
    """``amount`` chips split among ``(user, stack)`` in proportion to the stacks.

    Each gets ``amount * stack // total``; the chips left over (fewer than the
    players) go one at a time to the biggest stacks first, ties in the order
    given. The shares add up to ``amount`` exactly (a tournament cancelled
    after its start pays the rest of its pool this way).
    """
    total = sum(stack for _, stack in stacks)
    if amount < 0 or total <= 0 or any(stack < 0 for _, stack in stacks):
        raise PayoutError("a split by stacks needs chips on the table and a pool of at least 0")
    out = {user: amount * stack // total for user, stack in stacks}
    left = amount - sum(out.values())
    order = sorted(range(len(stacks)), key=lambda i: (-stacks[i][1], i))
    for i in order[:left]:
        out[stacks[i][0]] += 1
    return out


def parse_percentages(text: str) -> PayoutTable:
    """A creator's payout table written ``50/30/20`` (or with commas or spaces), checked:
    whole percentages, highest first, adding up to 100."""
    parts = text.replace(",", " ").replace("/", " ").replace("%", " ").split()
    if not parts or not all(p.isascii() and p.isdigit() for p in parts):
        raise PayoutError(Phrase("refuse.payout.unreadable", text=repr(text.strip()[:40])))
    if len(parts) > MAX_ENTRANTS:
        raise PayoutError(Phrase("refuse.payout.at_most", places=MAX_ENTRANTS))
    return PayoutTable(tuple(int(p) for p in parts))
