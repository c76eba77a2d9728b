"""The dealer's hearing and a decision's clock moved past what it could not hear
(bot.runtime.hearing, RULES.md 8)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.runtime.clock import FakeClock
from bot.runtime.hearing import GRACE, HeardClock, Hearing, deadline_after, started_after

SHARD_1_GUILD = 1 << 22  # (guild_id >> 22) % 2 == 1


def test_the_rest_of_the_time_from_when_it_hears_again() -> None:
    """Due at 100, cut off at 60 (40 s left), heard again at 500: due at 540."""
    assert deadline_after(100.0, 60.0, 500.0) == 540.0


def test_at_least_the_grace() -> None:
    """5 s left, or none (due while the dealer could not hear): 15 s from the moment
    the dealer hears again."""
    assert GRACE == 15.0
    assert deadline_after(100.0, 95.0, 500.0) == 515.0
    assert deadline_after(100.0, 120.0, 500.0) == 515.0


def test_a_decision_begun_while_deaf_starts_when_heard() -> None:
    """A 30 s decision begun at 50 while the dealer heard nothing since 40 starts at the
    moment it hears again (70); a 5 s one is given 15 s (it starts 10 s later)."""
    assert started_after(50.0, 30.0, 40.0, 70.0) == 70.0
    assert started_after(50.0, 5.0, 40.0, 70.0) == 80.0


def test_the_time_heard_counts_the_time_deaf_does_not() -> None:
    """Begun at 0, 20 s heard, then deaf from 20 to 320: the 60 s decision starts at 300
    (20 s spent), due at 360."""
    assert started_after(0.0, 60.0, 20.0, 320.0) == 300.0


@given(
    started=st.floats(0, 1e6), length=st.floats(0, 4000), heard=st.floats(0, 4000),
    deaf=st.floats(0, 1e5),
)
def test_never_less_than_the_rest_nor_than_the_grace(
    started: float, length: float, heard: float, deaf: float
) -> None:
    """Whatever the moments: from the moment heard again, the decision has what it had
    left when the dealer stopped hearing, and at least 15 s; no more than both."""
    since = started + heard
    now = since + deaf
    new = started_after(started, length, since, now)
    left = max(0.0, length - heard)
    assert new + length - now == pytest.approx(max(left, GRACE), abs=1e-6)


def test_hearing_by_shard() -> None:
    """Two shards: deafening one stops only its servers' clocks, from its first moment;
    hearing it again says since when it was deaf."""
    hearing = Hearing(2)
    assert hearing.hears(10) and hearing.hears(SHARD_1_GUILD)
    assert hearing.deafen(1, 5.0)
    assert not hearing.deafen(1, 9.0)  # still deaf since 5
    assert hearing.hears(10) and not hearing.hears(SHARD_1_GUILD)
    assert hearing.shard(SHARD_1_GUILD) == 1 and hearing.shard(10) == 0
    assert hearing.hear(1, 7.0) == 5.0
    assert hearing.hear(1, 8.0) is None and hearing.hears(SHARD_1_GUILD)


def test_one_connection_is_shard_0() -> None:
    hearing = Hearing()
    hearing.deafen(0, 1.0)
    assert not hearing.hears(10) and not hearing.hears(SHARD_1_GUILD)
    with pytest.raises(ValueError):
        Hearing(0)


def test_storage_down_deafens_every_shard_until_it_is_up() -> None:
    """The dealer cannot write from 10: no table of either shard is heard; up again,
    both shards are heard, deaf since 10."""
    hearing = Hearing(2)
    assert hearing.storage_down(10.0) and not hearing.storage_down(20.0)  # since its first
    assert not hearing.hears(0) and not hearing.hears(SHARD_1_GUILD)
    assert hearing.storage_up(30.0) == {0: 10.0, 1: 10.0}
    assert hearing.hears(0) and hearing.hears(SHARD_1_GUILD)
    assert hearing.storage_up(40.0) == {}  # it could write all along since


def test_gateway_and_storage_down_together_hear_again_when_both_are_up() -> None:
    """Shard 1's gateway drops at 5, the storage at 10. The gateway back at 20 hears
    nothing yet (the dealer cannot write); the storage back at 30: shard 1 heard, deaf
    since 5, shard 0 since 10. The other way round, the storage back first leaves the
    shard deaf, since the earlier moment."""
    hearing = Hearing(2)
    hearing.deafen(1, 5.0)
    hearing.storage_down(10.0)
    assert hearing.hear(1, 20.0) is None and not hearing.hears(SHARD_1_GUILD)
    assert hearing.storage_up(30.0) == {0: 10.0, 1: 5.0}
    hearing.storage_down(40.0)
    hearing.deafen(1, 45.0)
    assert hearing.storage_up(50.0) == {0: 40.0}
    assert not hearing.hears(SHARD_1_GUILD) and hearing.hear(1, 50.0) == 40.0
    assert hearing.hears(SHARD_1_GUILD)
def test_the_time_deaf_adds_up_per_shard() -> None:
    """Deaf 5 to 7 and 10 to now: 2 s, then 2 s plus the running outage; shard 0 none."""
    hearing = Hearing(2)
    hearing.deafen(1, 5.0)
    hearing.hear(1, 7.0)
    assert hearing.deaf_seconds(1, 9.0) == 2.0
    hearing.deafen(1, 10.0)
    assert hearing.deaf_seconds(1, 13.0) == 5.0
    assert hearing.deaf_seconds(0, 13.0) == 0.0


def test_the_time_unwritable_adds_up_too_and_overlaps_count_once() -> None:
    """Shard 1 deaf 5 to 20, the storage down 10 to 30: shard 1 stood still 25 s (5 to
    30, not 15 + 20), shard 0 20 s; both run again after 30."""
    hearing = Hearing(2)
    hearing.deafen(1, 5.0)
    hearing.storage_down(10.0)
    assert hearing.deaf_seconds(0, 12.0) == 2.0 and hearing.deaf_seconds(1, 12.0) == 7.0
    hearing.hear(1, 20.0)
    hearing.storage_up(30.0)
    assert hearing.deaf_seconds(0, 40.0) == 20.0 and hearing.deaf_seconds(1, 40.0) == 25.0


async def test_a_heard_clock_stands_still_while_its_server_is_not_heard() -> None:
    """A tournament's level clock (RULES.md 8): it runs with the clock while heard, not at
    all while deaf, and on from where it stood once heard; another shard's runs on."""
    clock, hearing = FakeClock(), Hearing(2)
    here, there = HeardClock(clock, hearing, SHARD_1_GUILD), HeardClock(clock, hearing, 10)
    start = here.now()
    await clock.advance(10)
    hearing.deafen(1, clock.now())
    await clock.advance(300)
    assert here.now() - start == 10.0 and there.now() - start == 310.0
    hearing.hear(1, clock.now())
    await clock.advance(5)
    assert here.now() - start == 15.0
    hearing.storage_down(clock.now())  # the dealer cannot write: no level runs anywhere
    await clock.advance(400)
    assert here.now() - start == 15.0 and there.now() - start == 315.0
    hearing.storage_up(clock.now())
    await clock.advance(1)
    assert here.now() - start == 16.0 and there.now() - start == 316.0
