"""Discord's bad minutes: ``python -m bot`` through a storm of 5xx and global 429s.

The unmodified bot plays ``--tables`` tables (three players each, the players of
:mod:`bench.load_players`) on the fake Discord with Discord's rate limits. Once every
table plays, the fake storms for ``--storm`` seconds (:mod:`tests.fakediscord.faults`):
a share ``--share-5xx`` of all requests answered 500, 502 (after carrying the request
out) or 503, and global 429 windows of ``--retry-after`` seconds opened by a share
``--share-global`` of the requests bound to the global limit. Then ``--calm`` seconds of
calm. Reported:

* the requests the bot sent during the storm, the 5xx and the 429s it was answered, the
  invalid requests (401, 403, 429 but of scope ``shared``: Discord bans a bot for a day
  past 10,000 in 10 minutes) counted by the fake and by the bot's own metric
  (``omaha_discord_invalid_requests_total``), and the busiest 10 minutes' count;
* the requests sent into a global window after the fake's slack (the bot did not wait
  as Discord said: should be 0);
* the messages posted twice (a 502 carried out, then the same message posted again:
  should be 0);
* after the storm: how long each table took to post its next turn prompt and to deal
  its next hand, and the tables that did neither.

Usage (``tests/test_process_storm.py`` runs it at CI size)::

    .venv/bin/python bench/bench_storm.py [--tables 50] [--storm 120] [--calm 60]
        [--share-5xx 0.3] [--share-global 0.05] [--retry-after 2] [--think 2] [--clock 15]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_load import LoadDiscord, burst_calls, send_burst, world
from bench.bench_soak import free_port, scrape
from bench.load_players import Players, hand_no, pct
from tests.fakediscord import BotProcess, Message

#: Discord's ban threshold: invalid requests in 10 minutes.
BAN_AT = 10_000
TEN_MINUTES = 600.0


@dataclass
class StormReport:
    tables: int
    storm: float
    requests: int = 0
    errors_5xx: int = 0
    rate_limited: int = 0
    windows: int = 0
    invalid: int = 0
    invalid_by_bot: float = 0.0
    busiest_ten_minutes: int = 0
    unheeded: list[tuple[float, str, str]] = field(default_factory=list)
    duplicates: list[tuple[int, int]] = field(default_factory=list)
    #: each duplicate: how the ghost and its twin were posted, and the ghost's first line
    duplicated: list[str] = field(default_factory=list)
    #: seconds from the storm's end to each table's next turn prompt / next hand
    next_prompt: dict[int, float] = field(default_factory=dict)
    next_hand: dict[int, float] = field(default_factory=dict)
    tracebacks: int = 0
    unhandled: list[str] = field(default_factory=list)

    def lines(self) -> str:
        stuck = self.tables - len(self.next_hand)
        prompts, hands = list(self.next_prompt.values()), list(self.next_hand.values())
        return (
            f"{self.tables} tables, a {self.storm:.0f} s storm\n"
            f"  during the storm: {self.requests} requests, {self.errors_5xx} answered 5xx, "
            f"{self.rate_limited} answered 429 ({self.windows} global windows)\n"
            f"  invalid requests: {self.invalid} (the bot's metric: {self.invalid_by_bot:.0f}); "
            f"busiest 10 minutes {self.busiest_ten_minutes} (ban at {BAN_AT:,})\n"
            f"  sent into a global window after the slack: {len(self.unheeded)}; "
            f"messages posted twice: {len(self.duplicates)} {self.duplicated or ''}\n"
            f"  after the storm: next turn prompt p50 {pct(prompts, .5):.1f} s max "
            f"{max(prompts, default=0):.1f} s; next hand p50 {pct(hands, .5):.1f} s max "
            f"{max(hands, default=0):.1f} s; tables with no new hand: {stuck}\n"
            f"  tracebacks in the log {self.tracebacks}; unhandled routes "
            f"{self.unhandled or 'none'}"
        )


def described(ghost: Message, twin: Message) -> str:
    def route(m: Message) -> str:
        return "followup" if m.interaction_id else "channel"

    return f"{route(ghost)} then {route(twin)}: {ghost.content.splitlines()[0][:60]!r}"


def busiest(times: list[float], span: float = TEN_MINUTES) -> int:
    """The most of ``times`` (sorted seconds) in any window of ``span`` seconds."""
    most, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] > span:
            start += 1
        most = max(most, end - start + 1)
    return most


class Watch:
    """Every turn prompt's time, channel and hand, for what came after the storm."""

    def __init__(self, crowd: Players) -> None:
        self.crowd = crowd
        self.seen: list[tuple[float, int, int]] = []

    def prompt(self, message: Message) -> None:
        number = hand_no(message.content)
        self.seen.append((asyncio.get_running_loop().time(), message.channel_id,
                          int(number) if number else 0))
        self.crowd.prompt(message)

    def after(self, calm_at: float) -> tuple[dict[int, float], dict[int, float]]:
        before: dict[int, int] = {}
        for t, channel, number in self.seen:
            if t < calm_at:
                before[channel] = max(before.get(channel, 0), number)
        prompt: dict[int, float] = {}
        hand: dict[int, float] = {}
        for t, channel, number in self.seen:
            if t >= calm_at:
                prompt.setdefault(channel, t - calm_at)
                if number > before.get(channel, 0):
                    hand.setdefault(channel, t - calm_at)
        return prompt, hand


async def run_storm(
    tables: int, *, storm: float, calm: float, share_5xx: float = 0.3,
    share_global: float = 0.05, retry_after: float = 2.0, think: float = 2.0, seed: int = 1,
    warm: float = 15.0, clock: int = 15, log: Path | None = None,
) -> StormReport:
    """One run (see the module docstring); the tables' decisions have ``clock`` seconds
    and no time bank (a click lost in the storm costs its table one clock)."""
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-storm-{tables}-"))
    report = StormReport(tables, storm)
    port = free_port()
    try:
        async with LoadDiscord() as fd:
            channels, players = world(fd, tables)
            env = {"TABLES_PER_SERVER": "0", "METRICS_PORT": str(port)}
            async with BotProcess(fd, tmp, env=env) as bot:
                await fd.wait_until_ready(60)
                creates, joins = burst_calls(channels, players)
                creates = [(u, ch, cmd, {**options, "clock": clock, "time_bank": 0})
                           for u, ch, cmd, options in creates]
                await send_burst(fd, creates, 100)
                await send_burst(fd, joins, 100)
                crowd = Players(fd, think, seed)
                watch = Watch(crowd)
                fd.on_prompt = watch.prompt
                for message in list(fd.messages.values()):
                    if "your turn" in message.content and not message.deleted:
                        watch.prompt(message)
                await asyncio.sleep(warm)  # every table plays
                first, loop = len(fd.requests), asyncio.get_running_loop()
                fd.weather.storm(storm, share_5xx=share_5xx, share_global=share_global,
                                 retry_after=retry_after, seed=seed)
                await asyncio.sleep(storm)
                report.requests = len(fd.requests) - first
                windows = fd.weather.windows
                calm_at = max([loop.time(), *(until for _, until in windows)])
                await asyncio.sleep(max(0.0, calm_at - loop.time()) + calm)
                fd.on_prompt = None
                for task in list(crowd.tasks):
                    task.cancel()
                await crowd.drain(10.0)
                report.invalid_by_bot = (await scrape(port)).get(
                    "omaha_discord_invalid_requests", 0.0)
                report.next_prompt, report.next_hand = watch.after(calm_at)
            report.errors_5xx = len(fd.weather.errors)
            report.rate_limited = len(fd.rate_limited)
            report.windows = len(windows)
            report.invalid = len(fd.invalid)
            report.busiest_ten_minutes = busiest(sorted(fd.invalid_times))
            report.unheeded = list(fd.weather.unheeded)
            report.duplicates = fd.weather.duplicates(fd.messages)
            report.duplicated = [described(fd.messages[g], fd.messages[t])
                                 for g, t in report.duplicates]
            report.tracebacks = sum("Traceback" in line for line in bot.lines)
            if log is not None:
                await asyncio.to_thread(log.write_text, bot.log)
            report.unhandled = list(fd.unhandled)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--storm", type=float, default=120.0)
    parser.add_argument("--calm", type=float, default=60.0)
    parser.add_argument("--share-5xx", type=float, default=0.3)
    parser.add_argument("--share-global", type=float, default=0.05)
    parser.add_argument("--retry-after", type=float, default=2.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", type=int, default=15, help="the tables' decision clock")
    parser.add_argument("--log", type=Path, help="write the bot's log there")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}", flush=True)
    start = time.monotonic()
    report = asyncio.run(run_storm(
        args.tables, storm=args.storm, calm=args.calm, share_5xx=args.share_5xx,
        share_global=args.share_global, retry_after=args.retry_after, think=args.think,
        seed=args.seed, clock=args.clock, log=args.log))
    print(report.lines(), flush=True)
    print(f"  ran {time.monotonic() - start:.0f} s; load after {os.getloadavg()[0]:.2f}",
          flush=True)


if __name__ == "__main__":
    main()
