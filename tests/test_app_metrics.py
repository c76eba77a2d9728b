"""The scrape after a hand played through the offline Discord: counters and histograms
move, by game, on this bot's own registry."""

from __future__ import annotations

import asyncio

from prometheus_client.parser import text_string_to_metric_families

from bot.app_metrics import database_problem
from bot.metrics import Metrics
from tests.cogs.test_table import play_out, seat_three
from tests.conftest import Harness
from tests.storage.helpers import FakeClock, audited_db


def scrape(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the text exposition, parsed back: (name, labels) -> value."""
    text = metrics.exposition().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text) for sample in family.samples
    }


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_a_played_hand_moves_the_counters_and_histograms(harness: Harness) -> None:
    h = harness
    metrics = h.bot.metrics
    assert h.bot.app.metrics is metrics
    before = scrape(metrics)
    assert value(before, "omaha_open_tables") == 0
    await seat_three(h)
    await play_out(h)
    after = scrape(metrics)
    game = {"variant": "omaha", "structure": "pot limit"}
    assert value(after, "omaha_open_tables") == 1
    assert value(after, "omaha_open_tournaments") == 0
    assert value(after, "omaha_hands_total", **game) == 1
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is None  # the hand is over
    # every action of the hand was counted: blinds are posted, not acted
    actions = value(after, "omaha_actions_total", **game)
    assert actions >= 3 * 3  # three players, each checking or calling on every street
    # each click passed the turn to a new turn message (the last one ended the hand)
    assert value(after, "omaha_prompt_seconds_count") >= actions - 1
    assert value(after, "omaha_prompt_seconds_bucket", le="+Inf") == value(
        after, "omaha_prompt_seconds_count")
    assert value(after, "omaha_render_seconds_count") >= actions  # a picture per turn
    assert value(after, "omaha_db_write_seconds_count") > value(
        before, "omaha_db_write_seconds_count") + actions  # each action stored
    assert value(after, "omaha_db_write_retries_total") == 0  # SQLite: one writer
    assert value(after, "omaha_render_queue") == 0 and value(after, "omaha_pacer_queue") == 0
    assert value(after, "process_resident_memory_bytes") > 0


async def test_two_bots_count_apart(harness: Harness) -> None:
    """A registry per bot: a new bot (a restart) starts from zero; the hand it resumes
    counts once, when it ends."""
    h = harness
    await seat_three(h)
    old = h.bot.metrics
    game = {"variant": "omaha", "structure": "pot limit"}
    assert value(scrape(old), "omaha_hands_total", **game) == 0  # dealt, not over yet
    assert value(scrape(old), "omaha_open_tables") == 1
    new = await h.restart()
    assert new.metrics is not old
    fresh = scrape(new.metrics)
    assert value(fresh, "omaha_open_tables") == 1  # the table came back with the restart
    assert value(fresh, "omaha_actions_total", **game) == 0
    await play_out(h)
    assert value(scrape(new.metrics), "omaha_hands_total", **game) == 1
    assert value(scrape(old), "omaha_hands_total", **game) == 0


async def test_the_database_health_check_writes_nothing(database_target: str) -> None:
    """On SQLite and PostgreSQL: a write transaction opened and rolled back, no job through
    the writer, no row; a SQLite database that may not be written answers why."""
    async with audited_db(database_target, FakeClock()) as db:
        jobs = db.jobs
        assert await database_problem(db) is None
        assert db.jobs == jobs and await db.state.get("health") is None
        if db.dialect.name == "sqlite":
            await db.run(lambda c: c.execute("PRAGMA query_only = ON"))
            assert await database_problem(db) == (
                "database not writable: attempt to write a readonly database (SQLITE_READONLY)")
            for _ in range(500):  # an outage began: its probe writes on a new connection
                if not db.outage.down:
                    break
                await asyncio.sleep(0.01)
            assert db.outage.count == 1 and not db.outage.down
        assert await database_problem(db) is None  # and the connection is usable after
        await db.state.put("after", "x")
        assert await db.state.get("after") == "x"
