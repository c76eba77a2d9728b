"""Pots, side pots and splitting (RULES.md section 6).

Players are identified here by their *position*: 0 is the first seat after
the button, clockwise, so the button is last. Sorting winners by position is
the order in which odd chips are handed out ("clockwise, starting from the
first seat after the button").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pot", "board_halves", "build_pots", "split_evenly", "split_hi_lo"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the positions (clockwise from the first seat after the button) that can win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    committed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]
) -> list[Pot]:
    """Cut the chips put in this hand into a main pot and side pots.

    Pots are cut at the amounts committed by the all-in players still in the
    hand; chips of players who folded fall into the pots their contributions
    reach. A pot is won only by live players who put in at least its upper
    edge. Empty pots are dropped. Chips that no live player reached (possible
    only when a folded player out-committed every live one) join the last pot
    that has an owner, so no chip is ever lost.
    """
    n = len(committed)
    pots: list[Pot] = []
    prev = 0
    for cap in _pot_edges(committed, live, all_in):
        amount = 0
        for c in committed:
            if c > prev:
                amount += (c if c < cap else cap) - prev
        eligible = tuple(i for i in range(n) if live[i] and committed[i] >= cap)
        if amount:
            if eligible or not pots:
                pots.append(Pot(amount, eligible))
            else:
                last = pots[-1]
                pots[-1] = Pot(last.amount + amount, last.eligible)
        prev = cap
    return pots


def _pot_edges(
    committed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]
) -> list[int]:
    """The upper edges of the pots, ascending: each live all-in player's total, then
    the top live total, then (when a folded player put in more) the top total."""
    n = len(committed)
    caps = sorted({committed[i] for i in range(n) if live[i] and all_in[i]})
    top = max((committed[i] for i in range(n) if live[i]), default=0)
    if not caps or caps[-1] < top:
        caps.append(top)
    highest = max(committed, default=0)
    if caps and caps[-1] < highest:
        caps.append(highest)
    return caps


def split_evenly(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Split ``amount`` among tied ``winners`` (positions): equal shares, then the odd
    chips one at a time clockwise from the first seat after the button.

    32 among positions (0, 1, 2) gives 11, 11, 10. Returns ``(position, chips)``
    in position order.
    """
    ordered = sorted(winners)
    if not ordered:
        return []
    share, odd = divmod(amount, len(ordered))
    return [(p, share + (1 if k < odd else 0)) for k, p in enumerate(ordered)]


def split_hi_lo(amount: int) -> tuple[int, int]:
    """Halve a hi-lo pot: ``(high half, low half)``, the odd chip to the high half."""
    low = amount // 2
    return amount - low, low


def board_halves(amount: int) -> tuple[int, int]:
    """A pot's share for the first and the second board (run twice, double board): the
    odd chip to the first."""
    second = amount // 2
    return amount - second, second
