"""Multi-table seating, breaking and balancing: properties over random fields (hypothesis)."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.runtime.tournament.balance import (
    MttTable,
    apply,
    hand_for_hand,
    hands_until_big_blind,
    next_big_blind,
    plan,
    seat_draw,
    worst_free_seat,
)


@st.composite
def fields(draw: st.DrawFn) -> list[MttTable]:
    capacity = draw(st.integers(2, 10))
    count = draw(st.integers(1, 7))
    user = 0
    tables = []
    for number in range(1, count + 1):
        seats = draw(st.lists(st.integers(1, capacity), unique=True, max_size=capacity))
        table = MttTable(number, capacity)
        for seat in seats:
            user += 1
            table.seats[seat] = user
        if table.seats and draw(st.booleans()):
            table.button = draw(st.sampled_from(sorted(table.seats)))
        tables.append(table)
    return tables


def users_of(tables: list[MttTable] | dict[int, MttTable]) -> list[int]:
    values = tables.values() if isinstance(tables, dict) else tables
    return sorted(u for t in values for u in t.seats.values())


@settings(max_examples=400, deadline=None)
@given(fields())
def test_a_plan_breaks_to_the_fewest_tables_and_balances_within_one(
    tables: list[MttTable],
) -> None:
    """After the plan: every player seated once, ceil(players / seats) tables (the
    lowest-numbered ones kept), table sizes within one of each other."""
    players = sum(t.players for t in tables)
    moves = plan(tables)
    after = apply(tables, moves)
    assert users_of(after) == users_of(tables)
    if players == 0:
        return
    need = math.ceil(players / tables[0].capacity)
    kept = {t.number for t in tables[: max(need, 1)]}
    assert set(after) <= kept and len(after) <= max(need, 1)
    counts = [t.players for t in after.values()] + [0] * (len(kept) - len(after))
    assert max(counts) - min(counts) <= 1
    assert all(t.players <= t.capacity for t in after.values())


@settings(max_examples=300, deadline=None)
@given(fields())
def test_each_balancing_move_takes_the_next_big_blind_to_the_worst_free_seat(
    tables: list[MttTable],
) -> None:
    """Replayed one by one: a balancing mover was next hand's big blind at the biggest
    table and lands where the big blind comes soonest; nobody is moved twice."""
    work = {t.number: t.copy() for t in tables}
    players = sum(t.players for t in tables)
    keep = sorted(work)[: max(1, math.ceil(players / tables[0].capacity))]
    moves = plan(tables)
    for m in moves:
        src, dst = work[m.from_table], work[m.to_table]
        assert m.to_table in keep and m.broken == (m.from_table not in keep)
        if not m.broken:
            assert src.players == max(work[n].players for n in keep)
            assert dst.players == min(work[n].players for n in keep)
            assert next_big_blind(src) == m.from_seat
        assert worst_free_seat(dst) == m.to_seat
        free = [s for s in range(1, dst.capacity + 1) if s not in dst.seats]
        soonest = min(hands_until_big_blind(dst, s) for s in free)
        assert hands_until_big_blind(dst, m.to_seat) == soonest
        dst.seats[m.to_seat] = src.seats.pop(m.from_seat)
    moved = [m.user_id for m in moves]
    assert len(moved) == len(set(moved))


def test_the_worst_seat_posts_the_big_blind_next_hand() -> None:
    """Button 1, seats 1-3-5-7 taken at 9 seats: next hand's blinds are 5 (small) and
    7 (big); a player put at seat 6, between them, would be the big blind next hand."""
    table = MttTable(1, 9, {1: 10, 3: 11, 5: 12, 7: 13}, button=1)
    assert next_big_blind(table) == 7
    assert hands_until_big_blind(table, 6) == 0
    assert worst_free_seat(table) == 6


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.integers(2, 10), st.integers(0, 2**32))
def test_the_start_seats_everyone_at_as_few_tables_as_possible(
    players: int, capacity: int, seed: int,
) -> None:
    """ceil(players / seats) tables, sizes within one, every player once, seats in range."""
    tables = seat_draw(list(range(100, 100 + players)), capacity, random.Random(seed))
    assert len(tables) == math.ceil(players / capacity)
    counts = [t.players for t in tables]
    assert max(counts) - min(counts) <= 1
    assert users_of(tables) == list(range(100, 100 + players))
    assert all(1 <= s <= capacity for t in tables for s in t.seats)


def test_a_45_player_field_busts_down_to_one_with_the_rules_holding() -> None:
    """45 players at 9 seats, random busts after every round of hands, the buttons
    moving: after each plan the tables balance within one and break as soon as the
    field fits one table fewer, down to a final table and a winner."""
    rng = random.Random(45)
    tables = {t.number: t for t in seat_draw(list(range(1, 46)), 9, rng)}
    seen_counts = set()
    while sum(t.players for t in tables.values()) > 1:
        for t in tables.values():  # one hand everywhere: the button moves, someone may bust
            if t.players >= 2:
                t.button = next(s for s in sorted(t.seats, key=lambda s: (s <= (t.button or 0), s)))
            if t.players >= 2 and rng.random() < 0.6:
                del t.seats[rng.choice(sorted(t.seats))]
        tables = apply(list(tables.values()), plan(list(tables.values())))
        players = sum(t.players for t in tables.values())
        assert len(tables) == math.ceil(players / 9)
        counts = [t.players for t in tables.values()]
        assert max(counts) - min(counts) <= 1
        seen_counts.add(len(tables))
    assert seen_counts >= {1, 2, 3, 4}


def test_hand_for_hand_is_the_bubble() -> None:
    """Hand for hand with one bust left before the money, not before, not in it."""
    assert [hand_for_hand(n, 5) for n in (7, 6, 5)] == [False, True, False]
