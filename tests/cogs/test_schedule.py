"""Scheduled tournaments and the /schedule group through the offline Discord (issue 34)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cogs.schedule import numbered
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

HOUR = 3600.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions",
            "cogs.tournament", "cogs.schedule")


def texts(h: Harness) -> list[str]:
    return [m.content for m in h.public_messages()]


async def schedule(h: Harness, starts: str, **options: object) -> int:
    """Create a scheduled tournament; returns its start time (Unix seconds)."""
    assert h.bot.registry is not None
    h.bot.registry.pause = 10.0
    options.setdefault("entrants", 3)
    reply = await h.slash(h.alice, "tournament create", buy_in=100, starts=starts, **options)
    assert not reply.ephemeral and "Registration is open" in reply.text, reply
    rt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert rt.starts_at is not None
    at = int(rt.starts_at)
    assert f"<t:{at}:F>" in reply.text and f"<t:{at}:R>" in reply.text
    return at


async def test_a_full_tournament_waits_for_its_time_then_starts(harness: Harness) -> None:
    h = harness
    at = await schedule(h, "in 2 hours")
    assert at == int(h.clock.now + 2 * HOUR)
    for actor in (h.alice, h.bob, h.carol):
        reply = await h.slash(actor, "tournament join")
        assert "registers" in reply.text and "starts now" not in reply.text, reply
    await h.advance(2 * HOUR - 5)
    assert h.bot.registry.find(h.channel.id) is None  # full, but not yet its time
    listed = await h.slash(h.dave, "schedule list")
    assert listed.ephemeral and f"<t:{at}:F>" in listed.text and "3/3" in listed.text
    await h.advance(6)
    assert any("starts at its scheduled time: 3 players" in t for t in texts(h)), texts(h)
    assert h.bot.registry.find(h.channel.id) is not None
    assert [await h.balance(a) for a in (h.alice, h.bob, h.carol)] == [9_900] * 3
    assert "No games are scheduled" in (await h.slash(h.dave, "schedule list")).text
    await h.audit()


async def test_too_few_players_at_the_start_cancel_and_refund(harness: Harness) -> None:
    h = harness
    at = await schedule(h, "90m")
    await h.slash(h.bob, "tournament join")
    assert await h.balance(h.bob) == 9_900
    await h.advance(90 * 60 + 1)
    said = [t for t in texts(h) if "so it is cancelled" in t]
    assert len(said) == 1 and f"<t:{at}:F>" in said[0] and "1 registered" in said[0]
    assert f"<@{h.bob.id}>" in said[0] and "100 chips is refunded" in said[0]
    assert await h.balance(h.bob) == 10_000
    reply = await h.slash(h.carol, "tournament join")
    assert reply.ephemeral  # the channel is free again
    await h.audit()


async def test_a_start_time_passed_during_a_restart_starts_at_once_and_says_so(
    harness: Harness,
) -> None:
    h = harness
    at = await schedule(h, "in 1 hour")
    for actor in (h.alice, h.bob):
        await h.slash(actor, "tournament join")
    await h.restart(after=2 * HOUR)  # the bot was down at the start time
    await h.settle()
    said = [t for t in texts(h) if "was offline at the start time" in t]
    assert len(said) == 1 and f"<t:{at}:F>" in said[0] and "2 players" in said[0], texts(h)
    assert h.bot.registry.find(h.channel.id) is not None
    await h.audit()


async def test_a_schedule_survives_a_restart_and_cancels_on_time(harness: Harness) -> None:
    h = harness
    await schedule(h, "in 3 hours")
    await h.slash(h.bob, "tournament join")
    await h.restart()
    await h.advance(HOUR)
    assert not any("so it is cancelled" in t for t in texts(h))
    assert "1/3" in (await h.slash(h.dave, "schedule list")).text
    await h.advance(2 * HOUR + 1)
    assert sum("so it is cancelled" in t for t in texts(h)) == 1
    assert "offline" not in next(t for t in texts(h) if "so it is cancelled" in t)
    assert await h.balance(h.bob) == 10_000
    await h.audit()


async def test_a_date_is_read_in_the_servers_time_zone(harness: Harness) -> None:
    h = harness
    refused = await h.slash(h.alice, "schedule timezone", zone="Europe/Rome")
    assert refused.ephemeral and "Only a server manager" in refused.text
    bad = await h.slash(h.manager, "schedule timezone", zone="Mars/Olympus")
    assert bad.ephemeral and "not a time zone" in bad.text
    ok = await h.slash(h.manager, "schedule timezone", zone="Europe/Rome")
    assert ok.ephemeral and "Europe/Rome" in ok.text
    at = await schedule(h, "2026-01-03 21:00")
    assert at == int(datetime(2026, 1, 3, 20, 0, tzinfo=ZoneInfo("UTC")).timestamp())
    await h.restart()  # the zone is stored
    shown = await h.slash(h.bob, "schedule timezone")
    assert "Europe/Rome" in shown.text


async def test_unreadable_or_past_times_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness
    for words, said in (("next friday-ish", "could not read"), ("2025-12-31 10:00", "too soon"),
                        ("in 200 days", "at most 90 days")):
        reply = await h.slash(h.alice, "tournament create", buy_in=100, starts=words)
        assert reply.ephemeral and said in reply.text, (words, reply)
    assert "No games are scheduled" in (await h.slash(h.bob, "schedule list")).text


async def test_the_organiser_cancels_from_the_schedule(harness: Harness) -> None:
    h = harness
    await schedule(h, "in 2 hours")
    await h.slash(h.bob, "tournament join")
    number = h.bot.app.tournaments.in_channel(h.channel.id).tournament_id
    refused = await h.slash(h.bob, "schedule cancel", game=number)
    assert refused.ephemeral
    missing = await h.slash(h.alice, "schedule cancel", game=number + 5)
    assert missing.ephemeral and "no scheduled game" in missing.text
    done = await h.slash(h.alice, "schedule cancel", game=number)
    assert not done.ephemeral and f"#{number}" in done.text and "refunded" in done.text
    assert await h.balance(h.bob) == 10_000
    await h.advance(3 * HOUR)  # its timer is gone: nothing more is said
    assert not any("so it is cancelled" in t for t in texts(h))
    await h.audit()


async def test_a_weekly_series_keeps_its_local_time_across_daylight_saving(
    harness: Harness,
) -> None:
    """Rome, 2026-03-27 21:00 (UTC+1), then weekly: the next game is 2026-04-03 21:00
    (UTC+2, after the change of the 29th), 167 hours later; a game cancelled alone
    schedules the next, cancelling the series schedules none."""
    h = harness
    h.clock.now = datetime(2026, 3, 26, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    await h.slash(h.manager, "schedule timezone", zone="Europe/Rome")
    refused = await h.slash(h.alice, "tournament create", buy_in=100, weekly=True)
    assert refused.ephemeral and "weekly game needs" in refused.text
    first = await schedule(h, "2026-03-27 21:00", weekly=True)
    rome = ZoneInfo("Europe/Rome")
    assert first == int(datetime(2026, 3, 27, 21, 0, tzinfo=rome).timestamp())
    assert "weekly" in (await h.slash(h.bob, "schedule list")).text
    await h.advance(first - h.clock.now + 1)  # nobody registered: cancelled, next one set
    await h.settle()
    rt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert rt.starts_at == datetime(2026, 4, 3, 21, 0, tzinfo=rome).timestamp()
    assert rt.starts_at - first == 167 * HOUR and rt.weekly == "Europe/Rome"
    assert any("next game of this weekly series" in t for t in texts(h))
    await h.restart()  # the series survives a restart
    rt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert rt.weekly == "Europe/Rome"
    one = await h.slash(h.alice, "schedule cancel", game=rt.tournament_id)  # this one only
    assert not one.ephemeral
    await h.settle()
    nxt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert nxt.starts_at == datetime(2026, 4, 10, 21, 0, tzinfo=rome).timestamp()
    done = await h.slash(h.alice, "schedule cancel", game=nxt.tournament_id, series=True)
    assert not done.ephemeral
    await h.settle()
    assert "No games are scheduled" in (await h.slash(h.bob, "schedule list")).text
    await h.audit()


async def test_a_weekly_game_played_schedules_the_next_when_it_ends(harness: Harness) -> None:
    h = harness
    first = await schedule(h, "in 1 hour", weekly=True)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "tournament join")
    await h.advance(HOUR + 1)
    assert h.bot.registry.find(h.channel.id) is not None  # it plays
    await h.slash(h.manager, "tournament cancel")  # ended by a manager: its table closes
    for _ in range(10):
        await h.advance(15)
    nxt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert nxt.starts_at == first + 7 * 24 * HOUR and nxt.weekly == "UTC"
    assert any("next game of this weekly series" in t for t in texts(h))
    await h.audit()


async def test_late_registration_after_a_scheduled_start_within_and_after_its_window(
    harness: Harness,
) -> None:
    """Registration stays open until the start, then during the first level (turbo: 5
    minutes): a late entrant pays the buy-in, gets the starting stack and waits for the
    big blind; once level 2 begins the same join is refused and charges nothing."""
    h = harness
    await schedule(h, "in 1 hour", late_levels=1, speed="turbo", stack=1_000, entrants=4)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "tournament join")
    await h.advance(HOUR + 1)
    table = h.bot.registry.find(h.channel.id)
    assert table is not None
    late = await h.slash(h.carol, "tournament join")
    assert not late.ephemeral and "registers late at seat" in late.text, late
    assert await h.balance(h.carol) == 9_900
    seat = next(s for s in table.seats.values() if s.user_id == h.carol.id)
    assert seat.stack == 1_000 and seat.needs_big_blind
    await h.advance(5 * 60 + 1)  # level 2 (a seat still free): the window closed
    refused = await h.slash(h.dave, "tournament join")
    assert refused.ephemeral and "Registration for this tournament is closed" in refused.text
    assert await h.balance(h.dave) == 10_000
    await h.audit()


def test_numbers_autocomplete_from_what_was_typed() -> None:
    """/schedule cancel|move game|night: the numbers starting with what was typed, a
    leading # allowed, at most Discord's 25 choices."""
    assert [c.value for c in numbered([12, 3, 120, 45], "#12")] == [12, 120]
    assert [c.name for c in numbered([7], "")] == ["#7"]
    assert len(numbered(range(1, 40), "")) == 25
