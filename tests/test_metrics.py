"""``/metrics`` and ``/healthz`` over HTTP on loopback, served by the bot under test."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import OmahaDealer
from bot.metrics import HEALTH_EVERY, Metrics
from bot.settings import Secret, Settings
from tests.conftest import Harness


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """The test bot with METRICS_PORT=0: any free port, on 127.0.0.1."""
    return Settings(token=Secret("test-token"), database_path=str(tmp_path / "m.sqlite3"),
                    metrics_port=0)


async def get(h: Harness, path: str) -> tuple[int, str, str]:
    assert h.bot.ops is not None and h.bot.ops.port > 0
    url = f"http://127.0.0.1:{h.bot.ops.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.headers["Content-Type"], await response.text()


async def test_metrics_are_served_as_text_exposition(harness: Harness) -> None:
    h = harness
    await h.slash(h.alice, "balance")
    status, kind, text = await get(h, "/metrics")
    assert status == 200 and kind.startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {"omaha_open_tables", "omaha_hands", "omaha_interaction_ack_seconds",
            "omaha_prompt_seconds", "omaha_discord_requests", "omaha_pacer_queue",
            "omaha_render_seconds", "omaha_db_write_seconds", "omaha_db_write_retries",
            "process_resident_memory_bytes"} <= names
    assert "python_gc_objects_collected" not in text  # not the global default registry


async def test_healthz_follows_the_database_and_the_gateway(harness: Harness) -> None:
    """Each answer comes from a check at most a second old (the bot's clock, moved here)."""
    h = harness
    db = h.bot.db
    assert await get(h, "/healthz") == (200, "text/plain; charset=utf-8", "ok\n")
    await db.run(lambda c: c.execute("PRAGMA query_only = ON"))  # the database read-only
    assert (await get(h, "/healthz"))[0] == 200  # the last answer, under a second old
    await h.advance(HEALTH_EVERY)
    status, _, text = await get(h, "/healthz")
    assert status == 503
    assert text == "database not writable: attempt to write a readonly database (SQLITE_READONLY)\n"
    await h.settle()  # the outage's probe writes on a new connection: it is over
    assert db.outage.count == 1 and not db.outage.down
    await h.advance(HEALTH_EVERY)
    assert (await get(h, "/healthz"))[0] == 200
    h.bot.dispatch("disconnect")  # as discord.py does when the websocket closes
    await h.settle()
    await h.advance(HEALTH_EVERY)
    assert (await get(h, "/healthz"))[0::2] == (503, "gateway disconnected\n")
    h.bot.dispatch("resumed")
    await h.settle()
    await h.advance(HEALTH_EVERY)
    assert (await get(h, "/healthz"))[0] == 200


async def test_a_burst_of_health_requests_costs_one_check_and_writes_nothing(
    harness: Harness
) -> None:
    """50 requests at once: one check, which takes the write lock and lets it go (the
    SQL the connection ran), and the database files do not change."""
    h = harness
    db, path = h.bot.db, Path(h.bot.db.path)
    ops = h.bot.ops
    assert ops is not None
    await h.advance(HEALTH_EVERY)  # the first answer (at start-up, if any) is stale
    statements: list[str] = []
    await db.run(lambda c: c.set_trace_callback(statements.append))
    files = [path, Path(f"{path}-wal")]
    before = [f.read_bytes() for f in files]
    runs, jobs = ops.health.runs, db.jobs
    try:
        answers = await asyncio.gather(*(get(h, "/healthz") for _ in range(50)))
    finally:
        await db.run(lambda c: c.set_trace_callback(None))
    assert {a[0::2] for a in answers} == {(200, "ok\n")}
    assert ops.health.runs == runs + 1
    assert statements == ["BEGIN IMMEDIATE", "ROLLBACK"]
    assert db.jobs == jobs and [f.read_bytes() for f in files] == before
    assert await db.state.get("health") is None


async def test_the_event_loops_tasks_are_counted_at_scrape() -> None:
    """``omaha_asyncio_tasks`` reads the running loop's tasks when scraped (the soak's
    figure for tasks left behind)."""
    metrics = Metrics()

    def tasks() -> float:
        for family in text_string_to_metric_families(metrics.exposition().decode()):
            if family.name == "omaha_asyncio_tasks":
                return family.samples[0].value
        raise AssertionError("no omaha_asyncio_tasks")

    before = tasks()
    sleepers = [asyncio.create_task(asyncio.sleep(10)) for _ in range(5)]
    assert tasks() == before + 5
    for task in sleepers:
        task.cancel()
    await asyncio.gather(*sleepers, return_exceptions=True)
    assert tasks() == before


def test_each_metrics_object_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()
    first.hands.labels("omaha", "pot limit").inc()
    assert b'omaha_hands_total{structure="pot limit",variant="omaha"} 1.0' in first.exposition()
    assert b"omaha_hands_total{" not in second.exposition()


async def test_a_busy_port_is_logged_and_the_bot_plays_on(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A new bot asks for the port the running one still holds: one error line, no
    metrics server, and the players are served."""
    h = harness
    old = h.bot
    assert old.ops is not None
    taken = old.ops.port
    new = OmahaDealer(replace(old.settings, metrics_port=taken))
    await h.env.restart_bot(new)  # it starts while the old one still listens
    await old.close()
    new.db.clock = h.clock
    assert new.ops is None
    assert f"No metrics: cannot listen on 127.0.0.1:{taken}" in caplog.text
    assert (await h.slash(h.alice, "balance")).text == "You have 10,000 chips."
