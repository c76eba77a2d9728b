"""When the database cannot be written: a full disk, a read-only file system, PostgreSQL
down, in the middle of hands (bot/storage/outage.py, bot/runtime/hearing.py).

Real faults under the real bot in the offline Discord: its SQLite database on a small
tmpfs that a filler file fills, on an ext4 volume the kernel turns read-only after an
error, on a PostgreSQL cluster of its own that is stopped and started again, or on
PostgreSQL behind a proxy that drops every packet (tests/storage/faults.py,
tests/pgcluster.py, tests/storage/blackhole.py). In each case players are refused
politely and nothing they do is taken, no clock runs out, no hand is dealt, the log
says it once, ``/healthz`` answers 503 with the reason and ``omaha_db_unavailable`` is
1; once the database can be written again the table goes on by itself, and the chip
audit passes (``python -m bot audit`` as the operator runs it; the harness audits after
every test too). A sit-and-go's blind level does not run down meanwhile either.

``OMAHA_OUTAGE_SECONDS`` (default 0): the real seconds PostgreSQL stays down in its test
beside the 30 s the tables' clocks are moved (the loop's clock is the offline Discord's);
``OMAHA_OUTAGE_SECONDS=30`` for a real half minute too.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import HEALTH_EVERY
from bot.runtime.table.live import Table
from bot.settings import Secret, Settings
from bot.storage.outage import PROBE_EVERY
from tests.adapter.test_hearing import deadline_of, deal_three, timed_out
from tests.cogs.test_table import PAUSE, actor_of, turn_message
from tests.cogs.test_tournament import PAUSE as TOURNAMENT_PAUSE
from tests.cogs.test_tournament import create, to_act
from tests.conftest import Harness, Reply, buttons_of
from tests.fakediscord.process import REPO
from tests.pgcluster import Cluster, running_cluster
from tests.storage.blackhole import Blackhole
from tests.storage.faults import Ext4Volume, fill, small_disk
from tests.test_metrics import get

pytestmark = pytest.mark.asyncio

CLOCK = 20
SILENCE = 1.0  # DATABASE_TIMEOUT of the PostgreSQL cases
#: Seconds of the loop's clock moved at once while the database is down: the offline
#: Discord gives each move 5 real seconds, and each try on a silent server takes SILENCE.
STEP = 5
REFUSED = "The dealer cannot write right now; your action was not taken."
WAITED = "The clock stood still while the bot could not write its records"
ONE_LINE = " be written"  # "cannot be written: ..." and "can be written again"


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


@pytest.fixture
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | Ext4Volume | str]:
    """Where the bot's database lives: a 16 MB tmpfs (default), an ext4 volume
    (``ext4``), a PostgreSQL cluster of its own (``postgres``: its URL) or the session's
    behind a proxy (``blackhole``: the URL of a fresh database through it)."""
    kind = getattr(request, "param", "tmpfs")
    if kind == "tmpfs":
        with small_disk(tmp_path / "disk") as where:
            yield where
    elif kind == "ext4":
        with Ext4Volume(tmp_path / "ext4.img", tmp_path / "volume") as volume:
            yield volume
    elif kind == "blackhole":
        name = urlsplit(request.getfixturevalue("pg_url")).path.lstrip("/")
        yield request.getfixturevalue("blackhole").url(name)
    else:
        yield request.getfixturevalue("own_cluster").url("postgres")


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for this test alone: it is stopped and started."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def blackhole(pg_cluster: Cluster) -> Iterator[Blackhole]:
    """A proxy to the session's cluster that can drop every packet."""
    with Blackhole(pg_cluster) as hole:
        yield hole


@pytest.fixture
def bot_settings(place: Path | Ext4Volume | str, tmp_path: Path) -> Settings:
    base = Settings(token=Secret("test-token"), metrics_port=0,
                    database_path=str(tmp_path / "unused.sqlite3"))
    if isinstance(place, str):
        return replace(base, database_url=Secret(place), deck_key_path=str(tmp_path / "key"),
                       database_timeout=SILENCE)
    folder = place.mount if isinstance(place, Ext4Volume) else place
    return replace(base, database_path=str(folder / "omaha.sqlite3"))


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Every line logged (INFO and up)."""
    caplog.set_level(logging.INFO)
    return caplog


async def press(h: Harness, message: object, kind: str) -> Reply:
    """The player to act on ``message`` presses its ``kind`` button (fold, call...)."""
    actor = actor_of(h, message)
    ids = [b.custom_id for b in buttons_of(message) if str(b.custom_id).endswith(f":{kind}")]
    assert ids, f"no {kind} button"
    return await h.click(actor, message, custom_id=str(ids[0]))


async def scrape(h: Harness) -> dict[str, float]:
    status, _, text = await get(h, "/metrics")
    assert status == 200
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples
            if s.name.startswith("omaha_db_")}


def refused(reply: Reply) -> bool:
    """The player alone was told the dealer cannot write (a slash command's private
    answer, or a click's private followup), and nobody else."""
    told = [m for m in reply.messages if REFUSED in m.content]
    return bool(told) and all(m.ephemeral for m in told)


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The outage's lines; and nothing else logged as a warning or an error."""
    found = [r for r in caplog.records if ONE_LINE in r.getMessage()]
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert loud == found, [r.getMessage() for r in loud]
    return found


async def refused_meanwhile(h: Harness, table: Table, reason: str) -> None:
    """While the database cannot be written: every request refused politely and nothing
    taken, one log line, /healthz 503 with ``reason``, the metric 1; the clock stands
    still for a minute (three times the clock) and no hand is dealt."""
    seq, hands = table.current.seq if table.current else None, table.hands_dealt
    message = turn_message(h) if table.current else None
    for _ in range(3):
        if message is not None:
            reply = await press(h, message, "fold")
            assert refused(reply), reply
    for who, command, options in ((h.dave, "table join", {"buyin": "100"}),
                                  (h.alice, "daily", {})):
        reply = await h.slash(who, command, **options)
        assert refused(reply), reply
    await h.advance(HEALTH_EVERY)
    status, _, text = await get(h, "/healthz")
    assert status == 503 and reason in text and "not writable" in text, text
    assert (await scrape(h))["omaha_db_unavailable"] == 1.0
    for _ in range(3 * CLOCK // STEP):  # a silent server's every try takes real time
        await h.advance(STEP)
    assert (table.current.seq if table.current else None) == seq and not timed_out(h)
    assert table.hands_dealt == hands


async def back_by_itself(h: Harness) -> None:
    """Within :data:`PROBE_EVERY` seconds the database takes writes again: /healthz 200,
    the metric 0, one outage counted."""
    for _ in range(int(PROBE_EVERY)):
        await h.advance(1)
        if not h.bot.db.outage.down:
            break
    assert not h.bot.db.outage.down
    await h.advance(HEALTH_EVERY)
    assert (await get(h, "/healthz"))[0::2] == (200, "ok\n")
    metrics = await scrape(h)
    assert metrics["omaha_db_unavailable"] == 0.0 and metrics["omaha_db_outages_total"] == 1.0


async def plays_on(h: Harness, table: Table, seq: int) -> None:
    """The decision that was waiting has the rest of its clock and at least 15 s (from
    the moment the database was back, up to two seconds ago: :func:`back_by_itself`);
    the player folds, the others check the hand down, and the next hand is dealt with no
    command."""
    assert h.clock() + 15 - 2 - HEALTH_EVERY <= deadline_of(h) <= h.clock() + CLOCK
    assert WAITED in turn_message(h).content and "Discord" not in turn_message(h).content
    assert (await press(h, turn_message(h), "fold")).silent
    assert table.current is not None and table.current.seq == seq + 1
    hands = table.hands_dealt
    for _ in range(12):
        if table.current is None:
            break
        message = turn_message(h)
        kinds = {str(b.custom_id).split(":")[4] for b in buttons_of(message)
                 if str(b.custom_id).startswith("omaha:act:")}
        assert (await press(h, message, "check" if "check" in kinds else "call")).silent
    assert table.current is None
    await h.advance(PAUSE + 0.1)
    assert table.hands_dealt == hands + 1 and table.current is not None


async def test_a_full_disk_in_the_middle_of_a_hand(
    harness: Harness, place: Path, lines: pytest.LogCaptureFixture,
) -> None:
    """The first player calls; then the disk fills: the next player's fold is refused
    (the call stays taken), and so is every request for a minute, without a timeout;
    the filler deleted, the player gets 15 s, the hand ends and the next is dealt."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    assert (await press(h, turn_message(h), "call")).silent
    filler = fill(place)
    await refused_meanwhile(h, table, "database or disk is full")
    assert table.current is not None and table.current.seq == 1
    assert len(outage_lines(lines)) == 1 and outage_lines(lines)[0].levelname == "ERROR"
    filler.unlink()
    await back_by_itself(h)
    assert [r.levelname for r in outage_lines(lines)] == ["ERROR", "WARNING"]
    await plays_on(h, table, 1)
    await stored_as_played(h)


async def level_of(h: Harness) -> str:
    """The blind level ``/tournament info`` tells."""
    reply = await h.slash(h.dave, "tournament info")
    return next(line for line in reply.text.splitlines() if line.startswith("Level "))


async def audited(h: Harness) -> None:
    """``python -m bot audit`` on the bot's database, as the operator runs it, passes."""
    settings = h.bot.settings
    where = settings.database_url.reveal() or settings.database_path
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot", "audit", "--db", where], cwd=REPO,
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.rstrip().endswith(": OK"), done.stdout + done.stderr


async def stored_as_played(h: Harness) -> None:
    """Hand 1 settled, hand 2 running; hand 1's first two actions the call taken before
    the fault and the fold after it (nothing of the refused folds); the audit passes."""
    db = h.bot.db
    hands = await db.read(lambda c: c.execute(
        "SELECT number, status FROM hands ORDER BY number").fetchall())
    assert [tuple(row) for row in hands] == [(1, "finished"), (2, "running")]
    kinds = await db.read(lambda c: c.execute(
        "SELECT json_extract(action, '$.kind') FROM hand_actions a JOIN hands h"
        " ON h.id = a.hand_id WHERE h.number = 1 ORDER BY seq").fetchall())
    assert [row[0] for row in kinds][:2] == ["call", "fold"]
    await audited(h)


async def test_a_full_disk_between_hands_deals_nothing_until_space_is_back(
    harness: Harness, place: Path, lines: pytest.LogCaptureFixture,
) -> None:
    """The disk fills in the pause after a hand: the next hand is not dealt (no cards
    sent) however long it stays full; space back, the table deals on by itself."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    for _ in range(2):
        assert (await press(h, turn_message(h), "fold")).silent
    assert table.current is None and table.hands_dealt == 1
    filler = fill(place)
    dms = sum(len(h.dms(a)) for a in (h.alice, h.bob, h.carol))
    await h.advance(PAUSE + 0.1)  # the deal fails: the outage begins
    await refused_meanwhile(h, table, "database or disk is full")
    assert table.current is None and table.hands_dealt == 1
    assert sum(len(h.dms(a)) for a in (h.alice, h.bob, h.carol)) == dms
    assert len(outage_lines(lines)) == 1
    filler.unlink()
    await back_by_itself(h)
    await h.advance(PAUSE + 0.1)
    assert table.hands_dealt == 2 and table.current is not None
    assert sum(len(h.dms(a)) for a in (h.alice, h.bob, h.carol)) > dms
    await audited(h)


@pytest.mark.parametrize("place", ["ext4"], indirect=True)
async def test_a_file_system_turned_read_only_in_the_middle_of_a_hand(
    harness: Harness, place: Ext4Volume, lines: pytest.LogCaptureFixture,
) -> None:
    """ext4 meets an error and the kernel remounts it read-only under the bot: refused as
    for a full disk; the bot lets go of its files, so the operator can unmount, check and
    mount the volume again; then the table goes on by itself."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    assert (await press(h, turn_message(h), "call")).silent
    place.fail()
    assert place.read_only()
    await refused_meanwhile(h, table, "I/O error")
    assert len(outage_lines(lines)) == 1
    assert place.open_files() == []  # between two tries the bot holds nothing there
    place.repair()
    await back_by_itself(h)
    await plays_on(h, table, 1)
    await stored_as_played(h)


@pytest.mark.parametrize("place", ["postgres"], indirect=True)
async def test_postgresql_down_in_the_middle_of_a_hand(
    harness: Harness, own_cluster: Cluster, lines: pytest.LogCaptureFixture,
) -> None:
    """The cluster stops (fast shutdown) after the first action and stays down 30 s of
    the tables' clock (OMAHA_OUTAGE_SECONDS real seconds): refused, reads too; started
    again, the bot reconnects by itself and the table goes on."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    assert (await press(h, turn_message(h), "call")).silent
    await asyncio.to_thread(own_cluster.halt)
    await refused_meanwhile(h, table, "PostgreSQL")
    assert refused(await h.slash(h.bob, "balance"))
    await asyncio.to_thread(time.sleep, float(os.environ.get("OMAHA_OUTAGE_SECONDS", "0")))
    await h.advance(30)
    assert len(outage_lines(lines)) == 1
    await asyncio.to_thread(own_cluster.start)
    await back_by_itself(h)
    await plays_on(h, table, 1)
    await stored_as_played(h)
    assert re.search(r"after \d+ s", outage_lines(lines)[-1].getMessage())


@pytest.mark.parametrize("place", ["blackhole"], indirect=True)
async def test_postgresql_silent_in_the_middle_of_a_hand(
    harness: Harness, blackhole: Blackhole, lines: pytest.LogCaptureFixture,
) -> None:
    """After the first action every packet to and from the server is dropped (a network
    cut that refuses nothing, a frozen host): the next action is refused within the
    database timeout instead of hanging, then everything as when the server is stopped;
    the network back, the bot connects anew by itself and the table goes on."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=0)
    table = h.bot.registry.in_channel(h.channel.id)
    assert (await press(h, turn_message(h), "call")).silent
    blackhole.drop()
    started = time.monotonic()
    assert refused(await press(h, turn_message(h), "fold"))
    assert time.monotonic() - started < 2 * SILENCE + 1
    await refused_meanwhile(h, table, f"within {SILENCE:g} s")
    assert len(outage_lines(lines)) == 1
    blackhole.restore()
    await back_by_itself(h)
    await plays_on(h, table, 1)
    await stored_as_played(h)


@pytest.mark.parametrize("bot_extensions", [("cogs.errors", "cogs.economy", "cogs.table",
                                             "cogs.actions", "cogs.tournament")])
async def test_a_full_disk_longer_than_a_blind_level_in_a_sit_and_go(
    harness: Harness, place: Path, lines: pytest.LogCaptureFixture,
) -> None:
    """A turbo sit-and-go (5-minute levels) is playing when the disk fills for six
    minutes: the all-in is refused, no turn times out and the level does not run down
    (RULES.md 8: nobody can act); space back, it is played to the end on the same level
    clock, each place written once, and the audit passes."""
    h = harness
    await create(h, buy_in=500, entrants=3, speed="turbo", structure="no limit")
    players = (h.alice, h.bob, h.carol)
    for actor in players:
        assert not (await h.slash(actor, "tournament join")).ephemeral
    await h.advance(TOURNAMENT_PAUSE + 0.1)
    actor = to_act(h)
    assert actor is not None and await level_of(h) == "Level 1: blinds 15/30."
    filler = fill(place)
    assert refused(await h.slash(actor, "allin"))
    for _ in range(12):
        await h.advance(30)
    assert to_act(h) is actor and not timed_out(h)
    assert refused(await h.slash(actor, "allin"))
    assert await level_of(h) == "Level 1: blinds 15/30."
    assert len(outage_lines(lines)) == 1
    filler.unlink()
    await back_by_itself(h)
    assert await level_of(h) == "Level 1: blinds 15/30."
    await h.advance(5 * 60)  # heard and written again: the level runs on
    assert await level_of(h) == "Level 2: blinds 25/50."
    for _ in range(80):
        if any("wins the tournament" in m.content for m in h.public_messages()):
            break
        await h.advance(TOURNAMENT_PAUSE + 0.1)
        for _ in range(6):
            actor = to_act(h)
            if actor is None or (await h.slash(actor, "allin")).ephemeral:
                break
    wins = [m for m in h.public_messages() if "wins the tournament and 1,500 chips" in m.content]
    assert len(wins) == 1
    assert sorted([await h.balance(a) for a in players]) == [9_500, 9_500, 11_000]
    places = await h.bot.db.read(lambda c: c.execute(
        "SELECT place, prize FROM tournament_entries ORDER BY place").fetchall())
    assert [tuple(row) for row in places] == [(1, 1_500), (2, 0), (3, 0)]
    results = await h.bot.db.read(lambda c: c.execute(
        "SELECT place FROM tournament_results ORDER BY place").fetchall())
    assert [row[0] for row in results] == [1, 2, 3]
    await audited(h)
