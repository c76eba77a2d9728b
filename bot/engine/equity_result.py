"""What an equity computation returns (:class:`Equity`), and how a tally becomes one.

Both equity computations (Omaha's in :mod:`bot.engine.equity`, Texas Hold'em's in
:mod:`bot.engine.holdem_equity`) settle each board into an *outcome*: a vector of
the players' shares of the pot, interned as a small integer. A tally counts the
boards of each outcome (``tally[outcome]``); :func:`average` and :func:`chances`
read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Equity", "average", "chances", "exact_equity"]

Shares = Sequence[tuple[float, ...]]


@dataclass(frozen=True)
class Equity:
    """Expected shares of the pot, in the order of the players given."""

    shares: tuple[float, ...]
    exact: bool
    stderr: float | None  # None when exact
    samples: int  # boards enumerated, or drawn at random
    #: chance of taking the whole pot alone (in hi-lo: both halves, or a high nobody can
    #: split when no low qualifies)
    scoop: tuple[float, ...]
    #: chance of taking part of the pot but not all of it (a half, a tie, a quarter)
    split: tuple[float, ...]


def average(
    shares: Shares, tally: Sequence[int], players: int
) -> tuple[list[float], list[float], int]:
    """Each player's mean share and mean squared share over the tallied boards, and the
    number of boards."""
    total = sum(tally)
    mean = [0.0] * players
    square = [0.0] * players
    for oid, count in enumerate(tally):
        if count:
            for i, share in enumerate(shares[oid]):
                mean[i] += count * share
                square[i] += count * share * share
    return [m / total for m in mean], [s / total for s in square], total


def chances(
    shares: Shares, tally: Sequence[int], players: int
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each player's chance to scoop (share 1) and to split (0 < share < 1)."""
    total = sum(tally)
    scoop = [0] * players
    split = [0] * players
    for oid, count in enumerate(tally):
        for i, share in enumerate(shares[oid]):
            if share == 1:
                scoop[i] += count
            elif share > 0:
                split[i] += count
    return tuple(x / total for x in scoop), tuple(x / total for x in split)


def exact_equity(shares: Shares, tally: Sequence[int], players: int) -> Equity:
    """The equity of every board enumerated, ``tally[outcome]`` boards of each outcome."""
    mean, _, total = average(shares, tally, players)
    return Equity(tuple(mean), True, None, total, *chances(shares, tally, players))
