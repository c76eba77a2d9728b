"""Sit-and-go tournaments (RULES.md section 7): blind schedules, payouts, places, prizes."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.economy import Economy, summarize_hand
from bot.engine.betting import IllegalAction
from bot.engine.cards import Deck
from bot.engine.events import Action
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import VARIANTS, Structure
from bot.runtime.clock import FakeClock
from bot.runtime.tournament.blinds import (
    PRESETS,
    BlindLevel,
    BlindSchedule,
    LevelUnit,
    ScheduleError,
    preset,
)
from bot.runtime.tournament.payouts import (
    PayoutError,
    PayoutTable,
    ordinal,
    share,
    standard_payouts,
)
from bot.runtime.tournament.sit_and_go import (
    HandOutcome,
    SitAndGo,
    Status,
    TournamentRuleError,
    TournamentSettings,
    apply_outcome,
    draw_seats,
)
from bot.storage import Database, HandSeatIn

A, B, C, D, E, F = 11, 12, 13, 14, 15, 16


def running(*users: int, clock: FakeClock | None = None, **kw: object) -> SitAndGo:
    """A started sit-and-go with ``users`` registered in that order."""
    opts: dict[str, object] = {"buy_in": 100, "max_entrants": 10} | kw
    sng = SitAndGo(TournamentSettings.create(**opts), clock or FakeClock())  # type: ignore[arg-type]
    for u in users:
        sng.register(u)
    sng.start()
    return sng


def hand(sng: SitAndGo, final: Mapping[int, int], order: tuple[int, ...] = ()) -> HandOutcome:
    """Record a hand between the players in ``final`` starting from their current stacks."""
    start = {u: sng.stacks[u] for u in final}
    return sng.record_hand(start, final, order)


# -- RULES.md section 7 --------------------------------------------------------------------


def test_section_7_same_buy_in_and_same_starting_stack() -> None:
    """Every entrant pays the same buy-in into the pool and starts with the same stack."""
    sng = running(A, B, C, D, starting_stack=2_000)
    assert sng.pool == 400
    assert sng.stacks == {A: 2_000, B: 2_000, C: 2_000, D: 2_000}


async def test_section_7_blinds_rise_on_a_schedule() -> None:
    """Ten-minute levels: the blinds in force rise as the clock passes each level."""
    clock = FakeClock()
    sng = running(A, B, clock=clock, schedule="regular")
    seen = []
    for _ in range(4):
        seen.append(str(sng.level))
        await clock.advance(600)
    assert seen == ["10/20", "15/30", "25/50", "50/100"]


def test_section_7_a_player_with_no_chips_is_out() -> None:
    """A player whose stack ends a hand at 0 is placed and can no longer be dealt in."""
    sng = running(A, B, C)
    out = hand(sng, {A: 3_000, B: 0})
    assert [(p.user_id, p.place) for p in out.busted] == [(B, 3)]
    assert sng.alive == (A, C)
    with pytest.raises(TournamentRuleError, match="not in this tournament"):
        sng.record_hand({B: 0, C: 1_500}, {B: 0, C: 1_500})


def test_section_7_play_goes_on_until_one_player_holds_every_chip() -> None:
    """Two players left with chips: still running; one holds all 4,500: finished, 1st place."""
    sng = running(A, B, C)
    hand(sng, {A: 2_500, B: 500})
    hand(sng, {B: 0, C: 2_000})
    assert sng.status is Status.RUNNING and sng.winner is None
    out = hand(sng, {A: 4_500, C: 0})
    assert sng.finished and sng.winner == A
    assert out.winner is not None and out.winner.place == 1
    assert sng.places == {A: 1, C: 2, B: 3}


def test_section_7_prize_pool_paid_by_place_as_shown_before_the_start() -> None:
    """The payout table shown during registration is what the places are paid."""
    sng = SitAndGo(TournamentSettings.create(buy_in=101, max_entrants=6), FakeClock())
    for u in (A, B, C, D, E):
        sng.register(u)
    assert sng.payout_lines() == ("1st: 329 chips (65%)", "2nd: 176 chips (35%)")
    sng.start()
    hand(sng, {A: 7_500, B: 0, C: 0, D: 0, E: 0}, order=(B, C, D, E, A))
    # four equal stacks bust together: they share 2nd-5th (176 chips), A wins 329
    assert sng.prizes == {A: 329, B: 44, C: 44, D: 44, E: 44}
    assert sum(sng.prizes.values()) == sng.pool == 505


def test_section_7_same_hand_busts_placed_by_starting_stack() -> None:
    """Busted in the same hand: the bigger starting stack finishes higher."""
    sng = running(A, B, C, D)
    hand(sng, {A: 2_000, B: 1_000})  # B 1,000 < C 1,500 < D 1,500 + 500
    hand(sng, {C: 2_000, D: 1_000})
    out = hand(sng, {A: 6_000, B: 0, C: 0, D: 0}, order=(B, C, D, A))
    # starting stacks: C 2,000, D 1,000, B 1,000 -> C 2nd, B and D share 3rd-4th
    assert [(p.user_id, p.place, p.shared) for p in out.busted] == [
        (C, 2, 1), (B, 3, 2), (D, 3, 2),
    ]
    assert sng.places == {A: 1, C: 2, B: 3, D: 3}


def test_section_7_equal_starting_stacks_share_places_and_prizes() -> None:
    """Equal stacks busted together share the places' pooled prizes; odd chips clockwise."""
    # 7 entrants, pool 7 x 33 = 231: 50/30/20 -> 116 (115.5 + 1 odd chip), 69, 46
    sng = running(A, B, C, D, E, F, 17, buy_in=33)
    assert sng.payout_table().amounts(231) == (116, 69, 46)
    hand(sng, {17: 0, F: 3_000})
    hand(sng, {E: 0, F: 4_500})
    hand(sng, {D: 0, F: 6_000})
    hand(sng, {C: 0, F: 7_500})
    # B and A both start with 1,500; they share 2nd and 3rd: 69 + 46 = 115 -> 58 and 57;
    # the odd chip goes to the first of them clockwise from the button (A here)
    out = hand(sng, {A: 0, B: 0, F: 10_500}, order=(A, F, B))
    assert {(p.user_id, p.place, p.prize) for p in out.busted} == {
        (A, 2, 58), (B, 2, 57),
    }
    assert sng.prizes == {F: 116, A: 58, B: 57}
    assert sum(sng.prizes.values()) == 231


# -- payouts --------------------------------------------------------------------------------


def test_standard_tables_by_entrant_count() -> None:
    """2-3 players: winner takes all; 4-6: 65/35; 7-10: 50/30/20; 1 or 11 refused."""
    tables = {n: standard_payouts(n).percentages for n in range(2, 11)}
    assert tables == {2: (100,), 3: (100,), 4: (65, 35), 5: (65, 35), 6: (65, 35),
                      7: (50, 30, 20), 8: (50, 30, 20), 9: (50, 30, 20), 10: (50, 30, 20)}
    for bad in (1, 11):
        with pytest.raises(PayoutError):
            standard_payouts(bad)


@pytest.mark.parametrize("entrants", range(2, 11))
@pytest.mark.parametrize("buy_in", [1, 7, 33, 101, 999, 12_345])
def test_payouts_add_up_to_the_pool(entrants: int, buy_in: int) -> None:
    """Every entrant count 2..10 and odd pools: prizes are whole, non-increasing, sum the pool."""
    pool = entrants * buy_in
    amounts = standard_payouts(entrants).amounts(pool)
    assert sum(amounts) == pool
    assert list(amounts) == sorted(amounts, reverse=True)
    floors = [pool * p // 100 for p in standard_payouts(entrants).percentages]
    assert all(a - f in (0, 1) for a, f in zip(amounts, floors, strict=True))


def test_remainder_goes_to_the_higher_places() -> None:
    """Leftover chips go one at a time to 1st, then 2nd: 7 chips at 50/30/20 are 4/2/1."""
    assert PayoutTable((50, 30, 20)).amounts(7) == (4, 2, 1)
    assert PayoutTable((50, 30, 20)).amounts(8) == (5, 2, 1)  # floors 4 + 2 + 1: one odd chip
    assert PayoutTable((50, 30, 20)).amounts(9) == (5, 3, 1)  # floors 4 + 2 + 1: two odd chips
    assert PayoutTable((65, 35)).amounts(101) == (66, 35)
    assert PayoutTable((100,)).amounts(0) == (0,)


@settings(max_examples=200, deadline=None)
@given(
    pcts=st.lists(st.integers(1, 60), min_size=1, max_size=6).filter(lambda p: sum(p) <= 100),
    pool=st.integers(0, 10**9),
)
def test_custom_tables_never_lose_a_chip(pcts: list[int], pool: int) -> None:
    """Any valid custom table splits any pool into whole prizes adding up to it."""
    pcts = sorted(pcts, reverse=True)
    pcts[0] += 100 - sum(pcts)
    amounts = PayoutTable(tuple(pcts)).amounts(pool)
    assert sum(amounts) == pool and list(amounts) == sorted(amounts, reverse=True)


def test_bad_payout_tables_are_refused() -> None:
    """Percentages must be whole, at least 1, non-increasing and add up to 100."""
    for bad in ((), (60, 30), (30, 70), (100, 0), (50.0, 50)):
        with pytest.raises(PayoutError):
            PayoutTable(bad)  # type: ignore[arg-type]


def test_share_and_ordinals() -> None:
    """Shared prizes split evenly with the odd chips to the first players; places read well."""
    assert share(101, 2) == (51, 50)
    assert share(32, 3) == (11, 11, 10)
    assert share(0, 4) == (0, 0, 0, 0)
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]


# -- blind schedules --------------------------------------------------------------------------


def test_presets_are_valid_and_round_trip() -> None:
    """turbo, regular and slow exist, rise level to level and survive to_dict/from_dict."""
    assert set(PRESETS) == {"turbo", "regular", "slow"}
    assert [PRESETS[n].duration for n in ("turbo", "regular", "slow")] == [5, 10, 15]
    for sched in PRESETS.values():
        assert BlindSchedule.from_dict(sched.to_dict()) == sched
        bbs = [lv.big_blind for lv in sched.levels]
        assert bbs == sorted(bbs)
        sched.check_structure(Structure.FIXED_LIMIT)
    assert preset(" Turbo ") is PRESETS["turbo"]
    with pytest.raises(ScheduleError, match="turbo, regular, slow"):
        preset("hyper")


def test_bad_schedules_are_refused() -> None:
    """Empty, falling, flat, small blind over big blind, ante over big blind, zero duration."""
    with pytest.raises(ScheduleError, match="at least one level"):
        BlindSchedule("x", (), 10)
    with pytest.raises(ScheduleError, match="rise"):
        BlindSchedule("x", (BlindLevel(20, 40), BlindLevel(10, 20)), 10)
    with pytest.raises(ScheduleError, match="rise"):
        BlindSchedule("x", (BlindLevel(10, 20), BlindLevel(10, 20)), 10)
    with pytest.raises(ScheduleError, match="small blind"):
        BlindLevel(30, 20)
    with pytest.raises(ScheduleError, match="ante"):
        BlindLevel(10, 20, 25)
    with pytest.raises(ScheduleError, match="lasts"):
        BlindSchedule("x", (BlindLevel(10, 20),), 0)
    with pytest.raises(ScheduleError, match="minutes or of hands"):
        BlindSchedule("x", (BlindLevel(10, 20),), 5, "days")  # type: ignore[arg-type]
    BlindSchedule("x", (BlindLevel(10, 20), BlindLevel(10, 20, 5)), 10)  # an ante is a rise


def test_fixed_limit_small_blind_is_half_the_big_blind_rounded_down() -> None:
    """RULES.md 3: in fixed limit the small blind is big_blind // 2 whatever the preset says."""
    level = BlindLevel(10, 25, 5)
    assert level.for_structure(Structure.FIXED_LIMIT) == BlindLevel(12, 25, 5)
    assert level.for_structure(Structure.POT_LIMIT) is level
    game = level.game(VARIANTS["omaha_hilo"], Structure.FIXED_LIMIT)
    assert (game.small_blind, game.big_blind, game.ante, game.big_bet) == (12, 25, 5, 50)
    with pytest.raises(ScheduleError, match="at least 2"):
        BlindLevel(1, 1).for_structure(Structure.FIXED_LIMIT)


async def test_levels_on_a_fake_clock() -> None:
    """Level boundaries are exact, the last level repeats, the countdown and flag are right."""
    clock = FakeClock(1_000.0)
    sched = BlindSchedule("t", (BlindLevel(5, 10), BlindLevel(10, 20), BlindLevel(20, 40, 5)), 2)
    sng = running(A, B, clock=clock, schedule=sched, structure="fixed limit")
    assert (sng.level_index, sng.until_next_level()) == (0, 120.0)
    await clock.advance(119.5)
    assert sng.level_index == 0 and sng.until_next_level() == pytest.approx(0.5)
    first = hand(sng, {A: 1_400, B: 1_600})
    await clock.advance(0.5)
    assert sng.level_index == 1 and sng.game().small_blind == 10
    second = hand(sng, {A: 1_500, B: 1_500})
    third = hand(sng, {A: 1_450, B: 1_550})
    # the change is reported once, by the first hand ending after it
    assert [o.level_changed for o in (first, second, third)] == [False, True, False]
    await clock.advance(1_000)
    assert sng.level == BlindLevel(20, 40, 5) and sng.until_next_level() is None


def test_levels_counted_in_hands() -> None:
    """A hand schedule moves up after ``duration`` recorded hands and flags the change."""
    sched = BlindSchedule("h", (BlindLevel(5, 10), BlindLevel(10, 20)), 2, LevelUnit.HANDS)
    sng = running(A, B, schedule=sched)
    first = hand(sng, {A: 1_490, B: 1_510})
    assert sng.level_index == 0 and sng.until_next_level() == 1.0
    second = hand(sng, {A: 1_500, B: 1_500})
    assert (first.level_changed, second.level_changed) == (False, True)
    assert sng.level == BlindLevel(10, 20)


def test_times_scales_a_preset() -> None:
    """times(2) doubles every blind and ante for a 3,000-chip stack."""
    doubled = PRESETS["regular"].times(2)
    assert doubled.levels[0] == BlindLevel(20, 40) and doubled.levels[-1] == BlindLevel(
        4_000, 8_000, 400
    )
    with pytest.raises(ScheduleError):
        PRESETS["regular"].times(0)


# -- registration --------------------------------------------------------------------------


def test_registration_rules() -> None:
    """Full at the maximum, no duplicates, leave only before the start, start needs the minimum."""
    sng = SitAndGo(TournamentSettings.create(buy_in=10, min_entrants=3, max_entrants=3),
                   FakeClock())
    sng.register(A)
    with pytest.raises(TournamentRuleError, match="already registered"):
        sng.register(A)
    sng.register(B)
    assert not sng.can_start
    with pytest.raises(TournamentRuleError, match="at least 3"):
        sng.start()
    sng.register(C)
    assert sng.is_full and sng.can_start
    with pytest.raises(TournamentRuleError, match="full"):
        sng.register(D)
    sng.unregister(C)
    sng.register(D)
    sng.start()
    assert sng.entrants == [A, B, D]
    with pytest.raises(TournamentRuleError, match="closed"):
        sng.check_register(E)
    with pytest.raises(TournamentRuleError, match="started"):
        sng.unregister(A)


def test_record_hand_refuses_inconsistent_stacks() -> None:
    """Chips created, a wrong starting stack, a missing player or a bad order change nothing."""
    sng = running(A, B, C)
    bad = [
        ({A: 1_500, B: 1_500}, {A: 3_001, B: 0}, (), "created or lost"),
        ({A: 1_400, B: 1_500}, {A: 2_900, B: 0}, (), "not the 1,500"),
        ({A: 1_500, B: 1_500}, {A: 3_000}, (), "differ"),
        ({A: 1_500, B: 1_500}, {A: 3_500, B: -500}, (), "cannot end"),
        ({A: 1_500, B: 1_500}, {A: 3_000, B: 0}, (A, C), "seat order"),
        ({A: 1_500}, {A: 1_500}, (), "two players"),
    ]
    for start, final, order, message in bad:
        with pytest.raises(TournamentRuleError, match=message):
            sng.record_hand(start, final, order)
    assert sng.stacks == {A: 1_500, B: 1_500, C: 1_500} and sng.hands_played == 0
    sng.cancel()
    with pytest.raises(TournamentRuleError, match="not running"):
        sng.record_hand({A: 1_500, B: 1_500}, {A: 3_000, B: 0})


def test_heads_up_final_with_second_place_paid() -> None:
    """The last bust is 2nd and the survivor 1st; finish_args lists everyone and sums the pool."""
    sng = running(A, B, C, D, buy_in=25)  # pool 100: 65/35
    with pytest.raises(TournamentRuleError, match="not over"):
        sng.finish_args()
    hand(sng, {A: 3_000, B: 0})
    hand(sng, {C: 3_000, D: 0}, order=(D, C))
    hand(sng, {A: 6_000, C: 0})
    places, prizes = sng.finish_args()
    assert places == {A: 1, C: 2, D: 3, B: 4}  # separate hands: separate places
    assert prizes == {A: 65, C: 35}
    assert sng.standings() == [(A, 6_000)]


def test_draw_seats() -> None:
    """Seats are distinct, within 1..seats, and refused when there are too few."""
    seats = draw_seats([A, B, C, D], 6, random.Random(4))
    assert set(seats) == {A, B, C, D} and len(set(seats.values())) == 4
    assert all(1 <= s <= 6 for s in seats.values())
    with pytest.raises(TournamentRuleError, match="do not fit"):
        draw_seats([A, B, C], 2)


def test_resume_places_players_left_at_zero() -> None:
    """After a restart, seats at 0 are placed by their last-hand stacks; ties share places."""
    s = TournamentSettings.create(buy_in=10, max_entrants=5)  # pool 50: 65/35 -> 33/17
    sng, outcome = SitAndGo.resume(
        s, FakeClock(), entrants=[A, B, C, D, E], stacks={A: 7_500, B: 0, C: 0, D: 0},
        places={E: 5}, hands_played=9, elapsed=0, last_start={A: 2_000, B: 2_500, C: 1_500,
                                                              D: 1_500},
    )
    assert outcome is not None and outcome.winner is not None and outcome.winner.user_id == A
    assert [(p.user_id, p.place, p.shared) for p in outcome.busted] == [
        (B, 2, 1), (C, 3, 2), (D, 3, 2),
    ]
    assert sng.finished and sng.places == {A: 1, B: 2, C: 3, D: 3, E: 5}
    assert sng.prizes == {A: 33, B: 17}


async def test_resume_continues_where_the_state_left_off() -> None:
    """A resumed state matches the live one: stacks, places, prizes, level and what follows."""
    clock = FakeClock()
    live = running(A, B, C, D, E, F, 17, clock=clock, buy_in=33)
    hand(live, {A: 3_000, B: 0})
    hand(live, {C: 0, D: 0, E: 4_500})  # C and D share 5th and 6th
    await clock.advance(1_234)
    assert live.started_at is not None
    copy, outcome = SitAndGo.resume(
        live.settings, clock, entrants=live.entrants, stacks=live.stacks, places=live.places,
        hands_played=live.hands_played, elapsed=clock.now() - live.started_at,
    )
    assert outcome is None
    assert (copy.stacks, copy.places, copy.prizes, copy.level, copy.hands_played) == (
        live.stacks, live.places, live.prizes, live.level, live.hands_played
    )
    for sng in (live, copy):
        hand(sng, {A: 0, E: 6_000, F: 1_500, 17: 3_000})
        hand(sng, {E: 0, F: 0, 17: 10_500})
    assert copy.finish_args() == live.finish_args()


def test_resume_refuses_facts_that_do_not_fit() -> None:
    """Lost chips, a player seated and placed, places that do not fit, a zero stack unexplained."""
    s = TournamentSettings.create(buy_in=10, max_entrants=4)
    base: dict[str, object] = {
        "entrants": [A, B, C, D], "stacks": {A: 3_000, B: 1_500, C: 1_500}, "places": {D: 4},
        "hands_played": 3, "elapsed": 0.0,
    }
    bad: list[tuple[dict[str, object], str]] = [
        ({"stacks": {A: 3_000, B: 1_500, C: 1_499}}, "every tournament chip"),
        ({"places": {D: 4, C: 3}}, "never both"),
        ({"places": {D: 3}}, "do not fit"),
        ({"stacks": {A: 4_500, B: 1_500, C: 0}}, "start of the last hand"),
        ({"entrants": [A, A, C, D]}, "distinct"),
    ]
    for changes, message in bad:
        with pytest.raises(TournamentRuleError, match=message):
            SitAndGo.resume(s, FakeClock(), **(base | changes))  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), entrants=st.integers(2, 10), buy_in=st.integers(1, 500))
def test_random_bust_sequences_place_everyone_and_pay_the_pool(
    data: st.DataObject, entrants: int, buy_in: int
) -> None:
    """Any sequence of hands: places fit the rules, every prize is the shown one, pool paid."""
    users = list(range(100, 100 + entrants))
    sng = running(*users, buy_in=buy_in, starting_stack=200)
    shown = sng.payout_table().amounts(sng.pool)
    while not sng.finished:
        players = data.draw(st.lists(st.sampled_from(sng.alive), min_size=2, unique=True))
        start = {u: sng.stacks[u] for u in players}
        winner = data.draw(st.sampled_from(players))
        final = dict(start)
        for u in players:
            if u != winner:
                lost = data.draw(st.sampled_from([start[u], data.draw(st.integers(0, start[u]))]))
                final[u] -= lost
                final[winner] += lost
        before = len(sng.alive)
        out = sng.record_hand(start, final)
        busted = {u for u in players if final[u] == 0}
        assert {p.user_id for p in out.busted} == busted
        for p in out.busted:
            assert before - len(busted) < p.place <= before
            for q in out.busted:
                assert (p.place < q.place) == (start[p.user_id] > start[q.user_id])
    assert sorted(sng.places) == sorted(users) and sum(sng.prizes.values()) == sng.pool
    for p in sng.placements.values():
        total = sum(shown[p.place - 1 : p.place - 1 + p.shared])
        assert p.prize in (total // p.shared, total // p.shared + 1)
        assert p.shared == sum(1 for q in sng.placements.values() if q.place == p.place)


# -- end to end with the real storage and the real engine -----------------------------------


def _act_randomly(h: Hand, rng: random.Random) -> None:
    """Play the hand to its end with random shoves, calls, checks and folds."""
    while not h.is_over:
        legal = h.legal_actions()
        assert legal is not None
        roll = rng.random()
        if roll < 0.35 and legal.max_raise_to is not None:
            choice = Action.raise_to(legal.max_raise_to)
        elif roll < 0.8 or legal.can_check:
            choice = Action.check() if legal.can_check else Action.call()
        else:
            choice = Action.fold()
        try:
            h.act(legal.seat, choice)
        except IllegalAction:
            h.act(legal.seat, Action.check() if legal.can_check else Action.call())


async def _resume_from_storage(
    db: Database, tid: int, table_id: int, hand_id: int, old: SitAndGo, clock: FakeClock
) -> tuple[SitAndGo, HandOutcome | None]:
    """What the runtime does after a restart: rebuild the sit-and-go from stored facts."""
    record = await db.tournaments.get(tid)
    places = await db.read(lambda c: dict(c.execute(
        "SELECT user_id, place FROM tournament_entries WHERE tournament_id = ?"
        " AND place IS NOT NULL", (tid,)).fetchall()))
    seats = {s.user_id: s.stack for s in await db.tables.seats(table_id)}
    last = {s.user_id: s.start_stack for s in await db.hands.seats(hand_id)}
    table = await db.tables.get(table_id)
    assert table is not None and old.started_at is not None
    settings_ = TournamentSettings.from_storage(record.buy_in, record.starting_stack,
                                                record.settings)
    return SitAndGo.resume(settings_, clock, entrants=record.entrants, stacks=seats,
                           places=places, hands_played=table.hands_dealt,
                           elapsed=clock.now() - old.started_at, last_start=last)


async def _play_tournament(seed: int, entrants: int, structure: str, crash: bool) -> None:
    rng = random.Random(seed)
    clock = FakeClock()
    guild, channel = 5, 900 + seed
    db = await Database.open(":memory:")
    try:
        economy = Economy(db)
        users = [1_000 + i for i in range(entrants)]
        before = {u: await economy.balance(guild, u) for u in users}
        settings_ = TournamentSettings.create(
            buy_in=rng.choice([1, 7, 101, 333]), starting_stack=rng.choice([300, 500]),
            max_entrants=entrants, structure=structure, schedule="turbo",
            variant_key=rng.choice(["omaha", "omaha_hilo"]),
        )
        record = await db.tournaments.create(
            guild, channel, users[0], buy_in=settings_.buy_in,
            starting_stack=settings_.starting_stack, settings=settings_.storage_settings(),
        )
        sng = SitAndGo(TournamentSettings.from_storage(record.buy_in, record.starting_stack,
                                                       record.settings), clock)
        for u in users:
            sng.check_register(u)
            await economy.enter_tournament(record.id, u)
            sng.register(u)
        shown = sng.payout_table().amounts(sng.pool)
        table = await db.tables.create(guild, channel, users[0], {}, tournament_id=record.id)
        seat_of = draw_seats(sng.entrants, settings_.max_entrants, rng)
        await db.tournaments.start(record.id, table.id, seat_of)
        sng.start()
        user_at = {s: u for u, s in seat_of.items()}
        button = min(seat_of.values())
        while not sng.finished:
            await clock.advance(rng.choice([0, 30, 120]))
            in_hand = sorted(seat_of[u] for u in sng.alive)
            later = [s for s in in_hand if s > button]
            button = later[0] if later else in_hand[0]
            deck = Deck(rng=rng)
            h = Hand(sng.game(), [SeatIn(s, sng.stacks[user_at[s]]) for s in in_hand], button,
                     deck)
            stored = await db.hands.start(
                table.id, variant=sng.settings.variant_key, settings=sng.game().to_dict(),
                button=button,
                seats=[HandSeatIn(s, user_at[s], sng.stacks[user_at[s]]) for s in in_hand],
                deck=deck.order,
            )
            h.start()
            _act_randomly(h, rng)
            await db.hands.finish(stored.id, summarize_hand(h, user_at,
                                                            sng.settings.variant_key))
            start = {user_at[s]: sng.stacks[user_at[s]] for s in in_hand}
            final = {user_at[s]: stack for s, stack in h.result.final_stacks.items()}
            clockwise = [s for s in in_hand if s > button] + [s for s in in_hand if s <= button]
            outcome = sng.record_hand(start, final, [user_at[s] for s in clockwise])
            if crash and rng.random() < 0.3:
                # the process dies after the settlement: rebuild from storage alone
                fresh, resumed = await _resume_from_storage(db, record.id, table.id, stored.id,
                                                            sng, clock)
                assert fresh.places == sng.places and fresh.stacks == sng.stacks
                assert fresh.level_index == sng.level_index and fresh.status is sng.status
                assert sum(fresh.prizes.values()) == sum(sng.prizes.values())
                resumed_busts = () if resumed is None else resumed.busted
                assert {p.user_id for p in resumed_busts} == {p.user_id for p in outcome.busted}
                sng = fresh
                if resumed is None:
                    continue
                outcome = resumed
            for p in outcome.busted:  # bigger starting stack never finishes lower
                assert all(p.place <= q.place for q in outcome.busted
                           if (q.start_stack or 0) < (p.start_stack or 0))
            await apply_outcome(db.tournaments, record.id, sng, outcome)
        done = await db.tournaments.get(record.id)
        assert (done.status, done.pool) == ("finished", 0)
        assert sorted(sng.places.values())[0] == 1 and len(sng.places) == entrants
        assert sum(sng.prizes.values()) == entrants * settings_.buy_in
        # each place's prize is the shown table's, pooled and split evenly among sharers
        for p in sng.placements.values():
            total = sum(shown[p.place - 1 : p.place - 1 + p.shared])
            assert p.prize in (total // p.shared, total // p.shared + 1)
        after = {u: await economy.balance(guild, u) for u in users}
        assert after == {u: before[u] - settings_.buy_in + sng.prizes.get(u, 0) for u in users}
        rows = await db.read(lambda c: dict(c.execute(
            "SELECT user_id, place FROM tournament_entries WHERE tournament_id = ?",
            (record.id,)).fetchall()))
        assert rows == sng.places
        assert await db.tables.seats(table.id) == []
        lines = await db.audit()
        assert all(line.ok for line in lines), [str(line) for line in lines]
    finally:
        await db.close()


@pytest.mark.parametrize("seed", range(12))
async def test_end_to_end_random_tournaments_with_storage(seed: int) -> None:
    """Real storage and engine: enter, play random hands to the end, pay out, audit passes;
    odd seeds also rebuild the state from storage after random settlements (a restart)."""
    entrants = 2 + seed % 9
    structure = ["pot limit", "no limit", "fixed limit"][seed % 3]
    await _play_tournament(seed, entrants, structure, crash=seed % 2 == 1)
