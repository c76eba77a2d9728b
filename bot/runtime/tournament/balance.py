"""Multi-table tournaments: seating, balancing and breaking tables (pure, standard library).

Not wired to Discord yet (issue 12, part 4): this is the decision half that a
multi-table runtime will call between hands. It follows the usual
tournament-director rules; where they leave a choice, the choice is written
here:

* **Seating at the start** (:func:`seat_draw`): as many tables as the field
  needs (``ceil(players / seats)``), players dealt round the tables so the
  counts differ by at most one, seats drawn at random.
* **Breaking** (:func:`plan`): when the players left fit at one table fewer,
  the highest-numbered table breaks (repeatedly: down to ``ceil(players /
  seats)`` tables, so nobody is moved twice). Its players are moved one by
  one, in seat order, each to the remaining table with the fewest players
  (lowest number on a tie), to the free seat that will post the big blind
  soonest there.
* **Balancing**: while the biggest table has two or more players more than
  the smallest, one player moves from the biggest (highest number on a tie)
  to the smallest (lowest number on a tie): the player who would be big blind
  next hand at the big table, to the worst position at the short table (the
  free seat whose player would post the big blind soonest, counted with the
  button moving one occupied seat a hand: :func:`hands_until_big_blind`).
* **Position**: at a table with a button, the next hand's button is the next
  occupied seat clockwise, then the small blind, then the big blind. A table
  with no button yet (nothing dealt) counts from seat 1.
* **Hand for hand** (:func:`hand_for_hand`): from the moment one bust is left
  before the money until the money is reached, every table plays one hand
  and waits for the others.
* **Final table**: breaking down to one table is the same rule applied until
  all players fit at one table.

Every function takes and returns plain values; :func:`apply` performs a plan
on a copy of the tables and checks each move (a free seat, a seated player).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "Move",
    "MttTable",
    "apply",
    "hand_for_hand",
    "hands_until_big_blind",
    "next_big_blind",
    "plan",
    "seat_draw",
    "worst_free_seat",
]


@dataclass
class MttTable:
    """One table between hands: ``seats`` maps seat number (1..capacity) to user id."""

    number: int
    capacity: int
    seats: dict[int, int] = field(default_factory=dict)
    button: int | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def copy(self) -> MttTable:
        return MttTable(self.number, self.capacity, dict(self.seats), self.button)


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``user_id`` from (``from_table``, ``from_seat``) to (``to_table``, ``to_seat``)."""

    user_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    broken: bool  # the table it leaves is breaking (else: balancing)


def seat_draw(
    users: Sequence[int], capacity: int, rng: random.Random | None = None
) -> list[MttTable]:
    """Tables 1..T for the start, counts within one of each other, seats drawn at random."""
    if len(set(users)) != len(users) or not users:
        raise ValueError("seat_draw needs distinct players")
    if capacity < 2:
        raise ValueError("a table seats at least two players")
    rng = rng if rng is not None else random.SystemRandom()
    order = list(users)
    rng.shuffle(order)
    count = math.ceil(len(order) / capacity)
    tables = [MttTable(n, capacity) for n in range(1, count + 1)]
    for i, user in enumerate(order):
        table = tables[i % count]
        free = [s for s in range(1, capacity + 1) if s not in table.seats]
        table.seats[rng.choice(free)] = user
    return tables


def _clockwise(start: int, capacity: int) -> list[int]:
    """Seat numbers clockwise after ``start`` (``start`` last)."""
    return [(start + k - 1) % capacity + 1 for k in range(1, capacity + 1)]


def next_big_blind(table: MttTable) -> int:
    """The seat that posts the big blind next hand (see the module docstring)."""
    if table.players < 2:
        raise ValueError("a table needs two players to have a big blind")
    occupied = [s for s in _clockwise(table.button or table.capacity, table.capacity)
                if s in table.seats]
    if table.players == 2:  # heads-up: the button posts the small blind, the other the big
        return occupied[1]
    return occupied[2]


def hands_until_big_blind(table: MttTable, seat: int) -> int:
    """How many hands a player sitting at ``seat`` (taken or free) would play before
    posting the big blind: 0 means next hand."""
    occupied = [s for s in _clockwise(table.button or table.capacity, table.capacity)
                if s in table.seats or s == seat]
    big = 2 if len(occupied) > 2 else 1  # 0: the next button, then the blinds
    return (occupied.index(seat) - big) % len(occupied)


def worst_free_seat(table: MttTable) -> int:
    """The free seat that posts the big blind soonest (the worst position: the mover
    pays the big blind at once rather than playing the button or the blinds' gap)."""
    free = [s for s in range(1, table.capacity + 1) if s not in table.seats]
    if not free:
        raise ValueError(f"table {table.number} is full")
    return min(free, key=lambda s: (hands_until_big_blind(table, s), s))


def plan(tables: Sequence[MttTable]) -> list[Move]:
    """The moves to make between hands: break what can be broken, then balance."""
    work = {t.number: t.copy() for t in tables}
    moves: list[Move] = []
    capacity = max(t.capacity for t in work.values())
    players = sum(t.players for t in work.values())
    keep = sorted(work)[: max(1, math.ceil(players / capacity))]
    survivors = [work[n] for n in keep]
    for number in sorted(set(work) - set(keep), reverse=True):  # highest-numbered first
        broken = work.pop(number)
        for seat in sorted(broken.seats):
            target = min(survivors, key=lambda t: (t.players, t.number))
            moves.append(_move(broken, seat, target, broken=True))
    while True:
        big = max(work.values(), key=lambda t: (t.players, t.number))
        small = min(work.values(), key=lambda t: (t.players, t.number))
        if big.players - small.players <= 1:
            return moves
        moves.append(_move(big, next_big_blind(big), small, broken=False))


def _move(source: MttTable, seat: int, target: MttTable, *, broken: bool) -> Move:
    to_seat = worst_free_seat(target)
    user = source.seats.pop(seat)
    target.seats[to_seat] = user
    return Move(user, source.number, seat, target.number, to_seat, broken)


def apply(tables: Sequence[MttTable], moves: Sequence[Move]) -> dict[int, MttTable]:
    """The tables after ``moves`` (a copy), empty tables removed; raises ValueError on a
    move that does not fit (the player not there, the seat taken or past the capacity)."""
    work: Mapping[int, MttTable] = {t.number: t.copy() for t in tables}
    for m in moves:
        src, dst = work[m.from_table], work[m.to_table]
        if src.seats.get(m.from_seat) != m.user_id:
            raise ValueError(f"player {m.user_id} is not at table {m.from_table}")
        if m.to_seat in dst.seats or not 1 <= m.to_seat <= dst.capacity:
            raise ValueError(f"seat {m.to_seat} at table {m.to_table} is not free")
        dst.seats[m.to_seat] = src.seats.pop(m.from_seat)
    return {n: t for n, t in work.items() if t.seats}


def hand_for_hand(players_left: int, paid_places: int) -> bool:
    """Hand-for-hand play: one bust left before the money (the bubble)."""
    return players_left == paid_places + 1
