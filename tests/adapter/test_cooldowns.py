"""Cooldowns: per key, one use per interval on an injected clock; refusals in words."""

from __future__ import annotations

from bot.adapter.cooldowns import Cooldowns, TooSoon, moment
from bot.adapter.polite import describe
from bot.i18n import Command, Phrase
from bot.offline.harness import FakeWallClock


def test_a_key_waits_its_interval_and_others_do_not() -> None:
    clock = FakeWallClock(1000.0)
    cooldowns = Cooldowns(30.0, clock)
    assert cooldowns.ready_at("t1") is None
    cooldowns.use("t1")
    clock.advance(29.5)
    assert cooldowns.ready_at("t1") == 1030.0
    assert cooldowns.ready_at("t2") is None
    clock.advance(0.5)
    assert cooldowns.ready_at("t1") is None


def test_a_refused_look_starts_no_new_wait() -> None:
    clock = FakeWallClock(0.0)
    cooldowns = Cooldowns(5.0, clock)
    cooldowns.use("k")
    for _ in range(3):
        clock.advance(1)
        assert cooldowns.ready_at("k") == 5.0


def test_no_interval_means_no_wait() -> None:
    cooldowns = Cooldowns(0.0, FakeWallClock())
    cooldowns.use("k")
    assert cooldowns.ready_at("k") is None


def test_finished_waits_are_forgotten_when_many() -> None:
    clock = FakeWallClock(0.0)
    cooldowns = Cooldowns(1.0, clock)
    for n in range(10_000):
        cooldowns.use(n)
    clock.advance(2)
    cooldowns.use("fresh")
    assert len(cooldowns) == 1


def test_the_moment_is_a_discord_timestamp_rounded_up_and_worded() -> None:
    assert moment(1000.2) == "<t:1001:R>" and moment(1000.0) == "<t:1000:R>"
    error = TooSoon(Phrase("refuse.cooldown", command=Command("stats"), when=moment(5.5)))
    assert describe(error, "en") == "Please wait: you can use /stats again <t:6:R>."
    assert describe(error, "it") == (
        "Aspetta un momento: potrai usare /statistiche di nuovo <t:6:R>.")


def test_a_burst_allows_that_many_uses_at_once_then_one_per_interval() -> None:
    """A token bucket: 3 uses at once, then one every 5 s; a pause gives the turns back
    one per interval, never more than the burst."""
    clock = FakeWallClock(100.0)
    cooldowns = Cooldowns(5.0, clock)
    for _ in range(3):
        assert cooldowns.ready_at("k", 3) is None
        cooldowns.use("k")
    assert cooldowns.ready_at("k", 3) == 105.0
    clock.advance(5)
    assert cooldowns.ready_at("k", 3) is None
    cooldowns.use("k")
    assert cooldowns.ready_at("k", 3) == 110.0
    clock.advance(60)  # a long pause: three turns back, not twelve
    for _ in range(3):
        assert cooldowns.ready_at("k", 3) is None
        cooldowns.use("k")
    assert cooldowns.ready_at("k", 3) == 170.0
