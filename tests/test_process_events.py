"""`python -m bot` keeps a scheduled tournament's Guild Scheduled Event in step over the
wire (the fake Discord refuses what Discord refuses: tests/fakediscord/events.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.fakediscord import BotProcess, FakeDiscord

HOUR = 3600


async def until(check: Callable[[], Any], within: float = 15.0) -> Any:
    """``check()``'s first true answer, polled until ``within`` seconds pass."""
    deadline = time.monotonic() + within
    while not (found := check()):
        assert time.monotonic() < deadline, "not seen in time"
        await asyncio.sleep(0.05)
    return found


def event_of(fd: FakeDiscord, number: int) -> dict[str, Any] | None:
    return next((e for e in fd.scheduled_events.values()
                 if e["name"].endswith(f"tournament #{number}")), None)


def shown(fd: FakeDiscord, number: int, key: str) -> Any:
    """What tournament ``number``'s event shows under ``key`` (None: no event)."""
    event = event_of(fd, number)
    return None if event is None else event[key]


async def test_an_event_is_created_updated_started_completed_and_deleted(
    tmp_path: Path,
) -> None:
    """Tournament #1 (in 2 hours): its event is created as an external event at the
    channel, edited with each registration, active at an early start, completed when the
    manager's cancellation ends it. Tournament #2, cancelled before its start, deletes
    its event; so does a cash game night. Nothing the bot sent was refused and every
    route it used exists."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        fd.grant_manage_events(guild)
        poker, cash = fd.add_channel(guild, "poker"), fd.add_channel(guild, "friday")
        alice, bob = fd.add_member(guild, "alice"), fd.add_member(guild, "bob")
        mia = fd.add_member(guild, "mia", manager=True)
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            asked = time.time()
            created = await (await fd.slash(alice, poker, "tournament create", buy_in=100,
                                            entrants=3, starts="in 2 hours")).reply()
            assert "Registration is open" in created.content, created.content
            assert "Manage Events" not in created.content
            event = await until(lambda: event_of(fd, 1))
            assert event["entity_type"] == 3 and event["privacy_level"] == 2
            assert event["entity_metadata"] == {"location": "#poker"}
            start = datetime.fromisoformat(event["scheduled_start_time"]).timestamp()
            assert asked + 2 * HOUR - 5 <= start <= time.time() + 2 * HOUR
            assert event["description"].startswith("Registered so far: 0/3.")
            for player in (alice, bob):
                await (await fd.slash(player, poker, "tournament join")).reply()
            await until(lambda: shown(fd, 1, "description").startswith("Registered so far: 2/3."))
            await (await fd.slash(alice, poker, "tournament start")).reply()
            await until(lambda: shown(fd, 1, "status") == 2)
            await (await fd.slash(mia, poker, "tournament cancel")).reply()
            for _ in range(20):  # a hand under way ends first: whoever is to act folds
                if shown(fd, 1, "status") == 3:
                    break
                for player in (alice, bob):
                    await (await fd.slash(player, poker, "fold")).reply()
                await asyncio.sleep(0.2)
            assert shown(fd, 1, "status") == 3

            await (await fd.slash(alice, cash, "tournament create", buy_in=50,
                                  starts="in 3 hours")).reply()
            await until(lambda: event_of(fd, 2))
            await (await fd.slash(alice, cash, "tournament cancel")).reply()
            await until(lambda: event_of(fd, 2) is None)
            assert event_of(fd, 1) is not None  # the completed one stays listed

            made = await (await fd.slash(alice, poker, "schedule cash", starts="in 2 hours",
                                         about="PLO 1/2")).reply()
            assert "Cash game night #1 (PLO 1/2)" in made.content.replace("**", "")
            await until(lambda: any(e["name"] == "Cash game night #1: PLO 1/2"
                                    for e in fd.scheduled_events.values()))
            await (await fd.slash(alice, poker, "schedule cancel", night=1)).reply()
            await until(lambda: not any(e["name"].startswith("Cash game night")
                                        for e in fd.scheduled_events.values()))
            code = await bot.stop()
        assert code == 0, bot.log
        assert fd.unhandled == []
        assert "could not be" not in bot.log  # no event change was refused
