"""Start times in a member's words, and the timers that start scheduled tournaments."""

from __future__ import annotations

import asyncio
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.runtime.clock import FakeClock
from bot.runtime.errors import TableError
from bot.runtime.tournament.starts import (
    LATEST,
    StartTimers,
    next_week,
    parse_start,
    parse_zone,
)

UTC = ZoneInfo("UTC")
ROME = ZoneInfo("Europe/Rome")
NOW = datetime(2026, 12, 6, 2, 30, tzinfo=UTC).timestamp()  # 03:30 in Rome


def local(zone: ZoneInfo, *parts: int) -> float:
    return datetime(*parts, tzinfo=zone).timestamp()


@pytest.mark.parametrize(("words", "seconds"), [
    ("in 2 hours", 7200), ("In 2 Hours", 7200), ("90m", 5400), ("1h30", 5400),
    ("in 1 hour and 15 minutes", 4500), ("en 2 horas", 7200), ("tra 3 ore", 10_800),
    ("em 30 minutos", 1800), ("2d", 172_800), ("dentro de 45 min", 2700),
])
def test_a_delay_counts_from_now(words: str, seconds: int) -> None:
    assert parse_start(words, NOW, ROME) == NOW + seconds


def test_a_date_and_time_is_read_in_the_servers_zone() -> None:
    assert parse_start("2026-12-11 21:00", NOW, ROME) == local(ROME, 2026, 12, 11, 21, 0)
    assert parse_start("2026-12-11 21:00", NOW, UTC) == local(UTC, 2026, 12, 11, 21, 0)
    assert parse_start("2026-12-11T21.00", NOW, ROME) == local(ROME, 2026, 12, 11, 21, 0)


def test_a_bare_time_is_the_next_such_moment() -> None:
    assert parse_start("21:00", NOW, ROME) == local(ROME, 2026, 12, 6, 21, 0)  # today
    assert parse_start("03:00", NOW, ROME) == local(ROME, 2026, 12, 7, 3, 0)  # tomorrow


def test_across_a_daylight_saving_change_the_wall_time_is_kept() -> None:
    """Rome leaves summer time on 2026-10-25: 21:00 before and after are 24 hours apart
    on the wall but 25 hours apart in UTC."""
    before = datetime(2026, 10, 24, 10, 0, tzinfo=UTC).timestamp()
    sat = parse_start("2026-10-24 21:00", before, ROME)
    sun = parse_start("2026-10-25 21:00", before, ROME)
    assert sun - sat == 25 * 3600
    assert datetime.fromtimestamp(sun, ROME).hour == 21


def test_a_weekly_game_keeps_its_wall_clock_time_across_a_change() -> None:
    """Friday 21:00 in Rome before and after the spring change (2026-03-29) and the
    autumn one (2026-10-25); a week missed while the bot was down is skipped."""
    spring = local(ROME, 2026, 3, 27, 21, 0)
    assert next_week(spring, ROME, spring) - spring == 167 * 3600
    autumn = local(ROME, 2026, 10, 23, 21, 0)
    assert next_week(autumn, ROME, autumn) - autumn == 169 * 3600
    later = next_week(spring, ROME, spring + 8 * 24 * 3600)
    assert later == local(ROME, 2026, 4, 10, 21, 0)
    assert datetime.fromtimestamp(later, ROME).hour == 21


@pytest.mark.parametrize("words", ["friday", "2026-13-01 10:00", "in 2 parsecs", "25:00", ""])
def test_unreadable_words_are_refused(words: str) -> None:
    with pytest.raises(TableError) as refused:
        parse_start(words, NOW, ROME)
    assert refused.value.phrase is not None
    assert refused.value.phrase.key == "refuse.schedule.unreadable"


def test_too_soon_and_too_late_are_refused() -> None:
    for words, why in (("2026-12-05 21:00", "too_soon"), ("in 30 seconds", "unreadable"),
                       (f"in {LATEST // 86_400 + 1} days", "too_late"), ("0m", "unreadable")):
        with pytest.raises(TableError) as refused:
            parse_start(words, NOW, ROME)
        assert refused.value.phrase is not None
        assert refused.value.phrase.key == f"refuse.schedule.{why}", words


def test_zones_are_iana_names() -> None:
    assert parse_zone("Europe/Rome") == ROME
    assert parse_zone(" America/Sao Paulo ").key == "America/Sao_Paulo"
    for bad in ("Mars/Olympus", "../etc/passwd", "/etc/localtime", ""):
        with pytest.raises(TableError):
            parse_zone(bad)


async def test_timers_fire_on_the_clock_once_and_can_be_disarmed() -> None:
    clock = FakeClock()
    wall = [NOW]
    fired: list[tuple[int, bool]] = []

    async def fire(tournament_id: int, late: bool) -> None:
        fired.append((tournament_id, late))

    def now() -> float:
        return wall[0] + clock.now()

    timers = StartTimers(clock, now, fire)
    timers.arm(1, NOW + 3600)
    timers.arm(2, NOW + 1800)
    timers.arm(3, NOW - 60)  # passed while the bot was down
    await clock.settle()
    assert fired == [(3, True)]
    timers.disarm(2)
    await clock.advance(3599)
    assert fired == [(3, True)]
    await clock.advance(1)
    assert fired == [(3, True), (1, False)] and timers.armed == frozenset()
    await clock.advance(7200)
    assert len(fired) == 2


async def test_a_failing_start_does_not_stop_the_other_timers() -> None:
    clock = FakeClock()
    fired: list[int] = []

    async def fire(tournament_id: int, late: bool) -> None:
        if tournament_id == 1:
            raise RuntimeError("storage down")
        fired.append(tournament_id)

    timers = StartTimers(clock, lambda: NOW + clock.now(), fire)
    timers.arm(1, NOW + 60)
    timers.arm(2, NOW + 120)
    await clock.advance(200)
    assert fired == [2]
    timers.arm(3, NOW + 10_000)
    await timers.stop()
    await asyncio.sleep(0)
    assert timers.armed == frozenset()
