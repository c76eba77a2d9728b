"""Many tables at once: how long after its last join a new table deals its first hand.

For each size N (``--tables 200,500``) a fresh fake Discord with Discord's rate
limits (:mod:`tests.fakediscord.ratelimits`) gets one guild with N channels and
3N members, and a fresh ``python -m bot`` (the unmodified bot, empty database)
logs in to it, as in ``bench_load.py`` (whose machinery this reuses). Then
``/table create`` in every channel and three ``/table join`` per table, sent at
``--rate`` interactions per second (250/s: 1,500 joins in 6 s), all tables
together. Nobody acts: the run ends when every table shows its first turn
prompt (or after ``--within`` seconds).

Reported, from each table's last join (the interaction leaving the gateway):

* **committed**: its first hand's deck commitment posted (the table deals at once
  after it: no card is dealt before; RULES.md and ``bot.runtime.table.dealing``);
* **first prompt**: its first hand's turn prompt posted (what the players see);

each as p50 / p95 / max over the tables, with how many tables got there within
10 s and 20 s (the targets: 95 % within 10 s at 200 tables, within 20 s at 500).
The 5 s pause the bot keeps before a hand (between hands, and before the first
one) is inside those figures. Also: where the commitments went (the table's
commitment thread, or the channel), how many the bot gave up (a commitment posted
twice for the same hand number), the 429s, and the requests per table by route,
from the first ``/table create`` to the end.

Usage::

    .venv/bin/python bench/bench_first_hands.py [--tables 200,500] [--rate 250] [--within 60]

Exit status 1 when a target is missed (95 % within 10 s at up to 200 tables, within
20 s above).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_load import burst_calls, send_burst, world
from bench.load_players import pct, route_of
from tests.fakediscord import BotProcess, Channel, FakeDiscord, FakeDiscordError, Message

ROOT = re.compile(r"`[0-9a-f]{64}`")
HAND = re.compile(r"#(\d+)")


@dataclass
class Firsts:
    """When each table (by channel id) reached its first hand."""

    committed: dict[int, float] = field(default_factory=dict)
    prompted: dict[int, float] = field(default_factory=dict)
    #: each table's first hole-card DM (none may come before its commitment)
    carded: dict[int, float] = field(default_factory=dict)
    #: where each commitment was posted: "thread" or "channel"
    places: Counter[str] = field(default_factory=Counter)
    #: (table channel, hand number) of every commitment posted: a repeat was given up
    posted: Counter[tuple[int, str]] = field(default_factory=Counter)
    #: the messages posted by the channels' routes (not a token), by their first words
    by_channel: Counter[str] = field(default_factory=Counter)


class FirstsDiscord(FakeDiscord):
    """The fake Discord, noting each table's first commitment and first turn prompt."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.firsts = Firsts()
        self.tables: set[int] = set()
        self.table_of: dict[int, int] = {}  # each player's table (its channel id)

    def _new_message(self, channel: Channel, *args: Any, **kwargs: Any) -> Message:
        message = super()._new_message(channel, *args, **kwargs)
        if channel.recipient_id in self.table_of and "Your cards" in message.content:
            self.firsts.carded.setdefault(self.table_of[channel.recipient_id], time.monotonic())
        table = channel.id if channel.id in self.tables else channel.parent_id
        if table not in self.tables:
            return message
        now, firsts = time.monotonic(), self.firsts
        if kwargs.get("interaction") is None:
            firsts.by_channel[" ".join(re.sub(r"[^\w ]", "", message.content).split()[1:3])] += 1
        if ROOT.search(message.content):
            number = HAND.search(message.content)
            firsts.posted[(table, number[1] if number else "?")] += 1
            firsts.places["thread" if channel.id != table else "channel"] += 1
            firsts.committed.setdefault(table, now)
        elif "your turn" in message.content and any(
                b.get("label") == "Fold" for b in message.buttons()):
            firsts.prompted.setdefault(table, now)
        return message


def delays(reached: dict[int, float], last_join: dict[int, float]) -> list[float]:
    return [reached[t] - last_join[t] for t in last_join if t in reached]


def line(name: str, values: list[float], tables: int) -> str:
    within = {s: sum(v <= s for v in values) for s in (10, 20)}
    return (f"  {name}: {len(values)}/{tables} tables; p50 {pct(values, .5):.1f} s, p95 "
            f"{pct(values, .95):.1f} s, max {max(values, default=0):.1f} s; within 10 s "
            f"{within[10]}, within 20 s {within[20]}")


async def run_level(tables: int, *, rate: float, within: float) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-first-{tables}-"))
    try:
        async with FirstsDiscord() as fd:
            channels, players = world(fd, tables)
            fd.tables = {c.id for c in channels}
            fd.table_of = {u.id: c.id for c, seats in zip(channels, players, strict=True)
                           for u in seats}
            bot = BotProcess(fd, tmp, env={"TABLES_PER_SERVER": "0"})
            await bot.start()
            try:
                await fd.wait_until_ready(60)
                creates, joins = burst_calls(channels, players)
                first_request = len(fd.requests)
                await send_burst(fd, creates, rate)
                last_join: dict[int, float] = {}
                start = time.monotonic()
                for i, (user, channel, command, options) in enumerate(joins):
                    delay = start + i / rate - time.monotonic()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    await fd.slash(user, channel, command, **options)
                    last_join[channel.id] = time.monotonic()
                with contextlib.suppress(FakeDiscordError):  # reported as not dealt
                    await fd.wait_until(lambda: len(fd.firsts.prompted) >= tables, within,
                                        what="every table's first prompt")
                await asyncio.sleep(1.0)  # what was on its way
                by_route = Counter(route_of(m, p, fd.tables) for m, p in
                                   fd.requests[first_request:])
                # a commitment thread's requests count as its table's channel's
                threads = {c.id for c in fd.channels.values() if c.parent_id in fd.tables}
                for m, p in fd.requests[first_request:]:
                    found = re.match(r"/channels/(\d+)", p)
                    if found and int(found[1]) in threads:
                        by_route[route_of(m, p, fd.tables)] -= 1
                        by_route[f"commitment thread {m}"] += 1
                limited = Counter(scope for _, _, scope in fd.rate_limited)
            finally:
                await bot.stop(60)
            tracebacks = sum("Traceback" in line for line in bot.lines)
            first = next((i for i, line in enumerate(bot.lines) if "Traceback" in line), None)
            excerpt = "" if first is None else "\n".join(bot.lines[max(first - 2, 0):first + 30])
            gave_up = sum(1 for line in bot.lines if "was not posted" in line)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"tables": tables, "firsts": fd.firsts, "last_join": last_join,
            "by_route": by_route, "limited": limited, "tracebacks": tracebacks,
            "gave_up": gave_up, "excerpt": excerpt}


def report(row: dict[str, Any]) -> tuple[str, bool]:
    n, firsts, last = row["tables"], row["firsts"], row["last_join"]
    committed = delays(firsts.committed, last)
    prompted = delays(firsts.prompted, last)
    gaps = delays(firsts.prompted, firsts.committed)
    target = 10 if n <= 200 else 20
    met = sum(v <= target for v in prompted) >= 0.95 * n
    per_table = ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(row["by_route"].items()) if v)
    repeats = sum(c - 1 for c in firsts.posted.values() if c > 1)
    text = (
        f"{n} tables (load {os.getloadavg()[0]:.2f})\n"
        + line("committed", committed, n) + "\n"
        + line("first prompt", prompted, n) + "\n"
        + f"  from the commitment to the first prompt: p50 {pct(gaps, .5):.1f} s, p95 "
        f"{pct(gaps, .95):.1f} s, max {max(gaps, default=0):.1f} s\n"
        + f"  target: 95 % of first prompts within {target} s: {'met' if met else 'MISSED'}\n"
        + f"  commitments posted: {dict(firsts.places)}; given up and posted again "
        f"{repeats} (log lines: {row['gave_up']})\n"
        + f"  429s: {dict(row['limited']) or 'none'}; tracebacks in the log "
        f"{row['tracebacks']}\n"
        + f"  requests per table, by route: {per_table}\n"
        + f"  messages by the channels' routes, by their 2nd and 3rd words: "
        f"{dict(firsts.by_channel.most_common(6))}"
        + (f"\n  the first traceback:\n{row['excerpt']}" if row["excerpt"] else "")
    )
    return text, met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="200,500")
    parser.add_argument("--rate", type=float, default=250.0)
    parser.add_argument("--within", type=float, default=60.0)
    args = parser.parse_args()
    ok = True
    for n in (int(x) for x in args.tables.split(",")):
        text, met = report(asyncio.run(run_level(n, rate=args.rate, within=args.within)))
        print(text, flush=True)
        ok &= met
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
