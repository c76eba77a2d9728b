"""A long night: the unmodified ``python -m bot`` playing many tables for a long time.

The bot logs in to the fake Discord (Discord's rate limits on, as in
``bench_load.py``), ``--tables`` tables are opened with three players each, and the
players of :mod:`bench.load_players` answer every turn prompt for ``--minutes``. Every
``--every`` seconds the bot is sampled:

* its memory (PSS of the bot and its render processes, :func:`bench.procstats.rss_mb`,
  and of the bot's own process apart);
* its event loop's tasks (``omaha_asyncio_tasks`` on its ``/metrics``);
* its open file descriptors (``/proc/PID/fd``);
* the database's size on disk (the SQLite file with its WAL);
* the hands played so far (``omaha_hands_total``), the open tables, and the bot's CPU
  (its process and render processes, in cores, since the last sample).

At the end it prints the threads the bot opened and how many are still active (a
closed table's commitment thread is archived: the active ones stay about one per table).

Every ``--churn`` seconds one table (round robin) is closed (``/table close``: the chips
go back) and opened again in its channel with its three players: closed tables' state
is exercised, and tables whose players went broke play again. By default each table
is renewed every 8 minutes (``--churn`` 480 / tables; 0: never). The report prints the
series and, for each figure, its growth per hour once warm: the least-squares slope
over the samples after ``--warm`` minutes.

Usage (not in CI: it takes its minutes)::

    .venv/bin/python bench/bench_soak.py [--tables 100] [--minutes 30] [--every 60]
        [--warm 5] [--think 2] [--churn SECONDS]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_load import LoadDiscord, burst_calls, send_burst, world
from bench.load_players import Players
from bench.procstats import cpu_split, own_mb, rss_mb
from tests.fakediscord import BotProcess, Channel, FakeDiscordError, User


@dataclass(frozen=True)
class Sample:
    seconds: float
    pss_mb: float
    bot_mb: float  # the bot's own process (not its render processes)
    tasks: float
    fds: int
    db_mb: float
    hands: float
    tables: float
    cpu: float  # the bot's share of a core since the last sample (render processes too)


FIGURES = (("PSS MB", "pss_mb"), ("bot PSS MB", "bot_mb"), ("tasks", "tasks"), ("fds", "fds"),
           ("db MB", "db_mb"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def scrape(port: int) -> dict[str, float]:
    """The bot's metrics: every sample's value summed by family name."""
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{port}/metrics") as response:
        text = await response.text()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in (family.name, f"{family.name}_total"):
                out[family.name] = out.get(family.name, 0.0) + sample.value
    return out


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def db_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 1e6


async def sample(pid: int, port: int, database: Path, start: float,
                 last: tuple[float, float]) -> tuple[Sample, tuple[float, float]]:
    """One sample, and (when, CPU seconds) for the next one's CPU share."""
    metrics = await scrape(port)
    now, bot, renders, _ = time.monotonic(), *cpu_split(pid)
    cpu = (bot + renders - last[1]) / max(1e-9, now - last[0])
    return Sample(now - start, rss_mb(pid), own_mb(pid), metrics.get("omaha_asyncio_tasks", 0),
                  open_fds(pid), db_mb(database), metrics.get("omaha_hands", 0),
                  metrics.get("omaha_open_tables", 0), cpu), (now, bot + renders)


def per_hour(samples: list[Sample], attr: str, warm: float) -> float:
    """Least-squares slope of ``attr`` per hour over the samples after ``warm`` seconds."""
    points = [(s.seconds, float(getattr(s, attr))) for s in samples if s.seconds >= warm]
    if len(points) < 2:
        return 0.0
    t_mean = statistics.fmean(t for t, _ in points)
    v_mean = statistics.fmean(v for _, v in points)
    spread = sum((t - t_mean) ** 2 for t, _ in points)
    return 3600 * sum((t - t_mean) * (v - v_mean) for t, v in points) / spread if spread else 0.0


async def churn(fd: LoadDiscord, channels: list[Channel], players: list[list[User]],
                every: float) -> None:
    """Close one table every ``every`` seconds and open it again (round robin)."""
    i = 0
    while True:
        await asyncio.sleep(every)
        channel, seats = channels[i % len(channels)], players[i % len(players)]
        i += 1
        asyncio.get_running_loop().create_task(renew(fd, channel, seats))


async def renew(fd: LoadDiscord, channel: Channel, seats: list[User]) -> None:
    """``/table close`` (at the end of the hand in play), then ``/table create`` again
    every few seconds until the channel is free (the create answered in public), then
    the three joins, each with the default buy-in (a player who left with more than
    the maximum less than an hour ago must come back with it: RULES.md 7)."""
    await send_burst(fd, [(seats[0], channel, "table close", {})], 10)
    creates, _ = burst_calls([channel], [seats])
    joins = [(user, channel, "table join", {}) for user in seats]
    for _ in range(60):
        await asyncio.sleep(5)
        [opened] = await send_burst(fd, creates, 10)
        with contextlib.suppress(FakeDiscordError):
            if not (await opened.reply(within=10)).ephemeral:
                await send_burst(fd, joins, 10)
                return


async def soak(args: argparse.Namespace) -> list[Sample]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-soak-"))
    database = tmp / "bot.sqlite3"
    port = free_port()
    samples: list[Sample] = []
    try:
        async with LoadDiscord(contract=False) as fd:
            channels, players = world(fd, args.tables)
            env = {"TABLES_PER_SERVER": "0", "METRICS_PORT": str(port)}
            async with BotProcess(fd, tmp, env=env, database=str(database)) as bot:
                await fd.wait_until_ready(60)
                assert bot.proc is not None
                creates, joins = burst_calls(channels, players)
                await send_burst(fd, creates, args.rate)
                await send_burst(fd, joins, args.rate)
                crowd = Players(fd, args.think, args.seed)
                fd.on_prompt = crowd.prompt
                for message in list(fd.messages.values()):
                    if "your turn" in message.content and not message.deleted:
                        crowd.prompt(message)
                churner = asyncio.create_task(churn(fd, channels, players, args.churn)) \
                    if args.churn > 0 else None
                start = time.monotonic()
                last = (start, sum(cpu_split(bot.proc.pid)[:2]))
                while (left := start + args.minutes * 60 - time.monotonic()) > -1:
                    taken, last = await sample(bot.proc.pid, port, database, start, last)
                    samples.append(taken)
                    print(line(samples[-1]), flush=True)
                    if left <= 0:
                        break
                    await asyncio.sleep(min(args.every, left))
                if churner is not None:
                    churner.cancel()
                fd.on_prompt = None
                for task in list(crowd.tasks):
                    task.cancel()
                await crowd.drain(10.0)
            tracebacks = sum("Traceback" in x for x in bot.lines)
            if args.log is not None:
                await asyncio.to_thread(args.log.write_text, bot.log)
            print(f"tracebacks in the bot's log: {tracebacks}; 429s: {len(fd.rate_limited)}; "
                  f"invalid requests: {len(fd.invalid)}; {threads(fd)}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return samples


def threads(fd: LoadDiscord) -> str:
    """The threads the bot opened, and how many are still active (Discord allows a server
    1,000: a closed table's commitment thread is archived)."""
    opened = [c for c in fd.channels.values() if c.type in (11, 12)]
    return f"threads opened {len(opened)}, active {sum(not c.archived for c in opened)}"


def line(s: Sample) -> str:
    return (f"{s.seconds / 60:6.1f} min  PSS {s.pss_mb:7.1f} MB (bot {s.bot_mb:5.1f})  "
            f"tasks {s.tasks:5.0f}  fds {s.fds:4d}  db {s.db_mb:7.2f} MB  hands {s.hands:7.0f}  "
            f"open tables {s.tables:4.0f}  bot CPU {s.cpu:4.2f}")


def report(samples: list[Sample], warm: float) -> str:
    growth = ", ".join(f"{name} {per_hour(samples, attr, warm):+.1f}/h"
                       for name, attr in FIGURES)
    hands = per_hour(samples, "hands", warm)
    return f"growth once warm (after {warm / 60:.0f} min): {growth}; hands {hands:.0f}/h"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--warm", type=float, default=5.0, help="minutes before growth counts")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--churn", type=float, default=None,
                        help="close and reopen one table every so many seconds (0: never; "
                             "default: each table every 8 minutes)")
    parser.add_argument("--log", type=Path, help="write the bot's log there")
    args = parser.parse_args()
    if args.churn is None:
        args.churn = 480.0 / args.tables
    print(f"{args.tables} tables for {args.minutes:.0f} min; load {os.getloadavg()[0]:.2f}",
          flush=True)
    samples = asyncio.run(soak(args))
    print(report(samples, args.warm * 60), flush=True)


if __name__ == "__main__":
    main()
