"""The fake HTTP Discord's Guild Scheduled Event routes refuse what Discord refuses."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.asyncio

EVENT = {"name": "PLO tournament #1", "description": "Buy-in 100 chips", "privacy_level": 2,
         "entity_type": 3, "entity_metadata": {"location": "#poker"},
         "scheduled_start_time": "2027-01-01T20:00:00+00:00",
         "scheduled_end_time": "2027-01-02T00:00:00+00:00"}


async def call(fd: FakeDiscord, session: aiohttp.ClientSession, method: str, path: str,
               body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    async with session.request(method, fd.api_base + path, json=body,
                               headers={"Authorization": f"Bot {fd.token}"}) as response:
        text = await response.text()
        return response.status, (await response.json() if text else {})


async def test_events_need_manage_events_and_follow_discords_limits() -> None:
    # it sends what Discord refuses (names, descriptions, privacy levels) on purpose
    async with (FakeDiscord(rate_limits=False, contract=False) as fd,
                aiohttp.ClientSession() as session):
        guild = fd.add_guild("Poker Club")
        path = f"/guilds/{guild.id}/scheduled-events"
        status, answer = await call(fd, session, "POST", path, EVENT)
        assert (status, answer["code"]) == (403, 50013)
        fd.grant_manage_events(guild)
        for bad in ({**EVENT, "name": ""}, {**EVENT, "name": "x" * 101},
                    {**EVENT, "description": "d" * 1001}, {**EVENT, "privacy_level": 1},
                    {k: v for k, v in EVENT.items() if k != "privacy_level"},
                    {**EVENT, "entity_metadata": {"location": "l" * 101}},
                    {k: v for k, v in EVENT.items() if k != "scheduled_end_time"},
                    {**EVENT, "scheduled_start_time": "2020-01-01T20:00:00+00:00"},  # past
                    {**EVENT, "scheduled_end_time": "2027-01-01T19:00:00+00:00"},  # before
                    {**EVENT, "entity_type": 2},  # a voice event without its channel
                    {**EVENT, "entity_type": 4},
                    {k: v for k, v in EVENT.items() if k != "entity_type"}):
            status, answer = await call(fd, session, "POST", path, bad)
            assert (status, answer["code"]) == (400, 50035), bad
        status, event = await call(fd, session, "POST", path, EVENT)
        assert status == 200 and event["status"] == 1 and event["name"] == EVENT["name"]
        one = f"{path}/{event['id']}"
        assert (await call(fd, session, "PATCH", one, {"status": 3}))[0] == 400  # not active yet
        moved = {"scheduled_start_time": "2027-01-01T21:00:00+00:00",
                 "scheduled_end_time": "2027-01-02T01:00:00+00:00", "description": "2/6"}
        status, answer = await call(fd, session, "PATCH", one, moved)
        assert status == 200 and answer["scheduled_start_time"] == moved["scheduled_start_time"]
        status, answer = await call(fd, session, "PATCH", one,
                                    {"scheduled_start_time": "2020-01-01T21:00:00+00:00"})
        assert (status, answer["code"]) == (400, 50035)
        assert "scheduled_start_time" in answer["errors"]
        assert (await call(fd, session, "PATCH", one, {"status": 2}))[1]["status"] == 2
        assert (await call(fd, session, "PATCH", one, {"status": 4}))[0] == 400
        assert (await call(fd, session, "PATCH", one, {"status": 3}))[1]["status"] == 3
        assert (await call(fd, session, "PATCH", one, {"status": 2}))[0] == 400  # over
        status, _ = await call(fd, session, "DELETE", one)
        assert status == 204
        status, answer = await call(fd, session, "GET", one)
        assert (status, answer["code"]) == (404, 10070)
        assert fd.unhandled == []
