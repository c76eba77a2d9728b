"""Load: the unmodified ``python -m bot`` against the fake Discord, many tables at once.

For each size N (``--tables 10,50,200``) a fresh fake Discord (with Discord's
rate limits, :mod:`tests.fakediscord.ratelimits`) gets one guild with N
channels and 3N members, and a fresh ``python -m bot`` process with an empty
database logs in to it over loopback. Then:

1. **Burst.** ``/table create`` in every channel, then three ``/table join``
   per table, sent at ``--rate`` interactions per second (the issue's figure:
   1,500 joins in about 6 s is 250/s). Reported: how many were answered after
   Discord's 3 s deadline (or never), and the acknowledgement time p50/p99
   (from the interaction leaving the gateway to its first callback arriving).
2. **Steady play** for ``--seconds``: every turn prompt (a new message
   mentioning the player, with a Fold button) is answered by that player after
   a think time drawn uniformly from ``--think`` x [0.5, 1.5]: Check if
   possible, else Call (Fold one time in six), by a click on the prompt's
   button or, with ``--players commands``, by the slash command (``/check``,
   ``/call``, ``/fold``; :mod:`bench.load_players`). Reported: accepted actions
   per second, the click's or command's acknowledgement p50/p99, the time from
   an action to the next turn prompt in that channel in the same hand
   (p50/p95/max; an action that ends its hand is counted apart: the next prompt
   follows the bot's pause between hands, which is no wait for a player),
   actions refused as stale, the 429s the fake sent during the run, and the
   bot's requests per accepted action by route (interaction callbacks,
   interaction webhooks, the tables' channels, DMs). Hands follow one another
   with the bot's own 5 s pause.
3. The bot's memory (PSS, with its render processes; see :func:`rss_mb`) after log-in, after the
   burst and at the end, and every ``--rss-every`` seconds during play: start, end and the
   slope of the second half (a soak: ``--tables 20 --seconds 1800 --no-echo``).

**The peers, measured in the same run.** The burst is sent a second time, to
an *echo bot* instead: a bare discord.py client on the same fake, the same
machine and the same commands, that only defers each interaction (the least
any bot must do; :data:`ECHO_BOT`). ``ack p99 / echo`` is the bot's burst
acknowledgement p99 divided by the echo's: 1.0 means the bot acknowledges as
fast as a bot that does nothing. For steady play the peer is the players' own
pace: ``pace`` is mean think time / (mean think time + mean click-to-prompt
time), the share of the rate the same players would reach if every prompt
followed their action at once (1.0: the bot adds no wait).

Usage::

    .venv/bin/python bench/bench_load.py [--tables 10,50,200] [--seconds 30] [--think 2]
        [--rate 250] [--profile DIR] [--no-echo] [--pictures auto|turn|street] [--rss-every 30]
        [--players buttons|commands]

The bot gets the benchmark's environment: ``RENDER_PROCESSES=0`` draws the
pictures in threads of the bot's process instead of its render process, and
``--pictures`` is the bot's ``TABLE_PICTURES``: ``auto`` (the default, as the
bot's), ``turn`` (a new picture every turn) or ``street`` (a new picture only at
street changes, which measures what rendering costs). The report counts the
turn prompts whose picture was new. The bot runs with ``TABLES_PER_SERVER=0`` (no
cap on open tables: the benchmark's N tables are all in one server).

``--profile DIR`` runs the bot under ``py-spy record`` (when installed) and
writes its samples (collapsed stacks) and the bot's log per size into DIR.
:func:`run_level` is reused by ``tests/test_load.py`` (short mode, ``OMAHA_SLOW=1``).
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_players import MODES, Players, pct, routes
from bench.procstats import cpu_split, rss_line, rss_mb, sample_rss
from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.fakediscord.server import Interaction

DEADLINE = 3.0

#: The echo peer: logs in like the bot and defers every interaction, nothing else.
ECHO_BOT = """
import asyncio, os, discord, yarl
discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
intents = discord.Intents.none(); intents.guilds = True
client = discord.Client(intents=intents)
@client.event
async def on_interaction(interaction):
    await interaction.response.defer(ephemeral=True)
@client.event
async def on_ready():
    print("echo ready", flush=True)
client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def loop_lag(lags: list[float], every: float = 0.05) -> None:
    """Append to ``lags`` how late each ``sleep(every)`` wakes up, until cancelled: this
    process's event-loop lag (the fake Discord and the players run here, and whatever
    they are late by shows in the bot's acknowledgement and prompt times)."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        lags.append(loop.time() - start - every)


class LoadDiscord(FakeDiscord):
    """The fake Discord, telling the players about every new turn prompt."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_prompt: Any = None

    def _new_message(self, *args: Any, **kwargs: Any) -> Message:
        message = super()._new_message(*args, **kwargs)
        if self.on_prompt is not None and "your turn" in message.content and any(
            b.get("label") == "Fold" for b in message.buttons()
        ):
            self.on_prompt(message)
        return message


@dataclass
class Burst:
    sent: int = 0
    late: int = 0
    unanswered: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, its: list[Interaction]) -> None:
        for it in its:
            self.sent += 1
            if it.answer_time is None:
                self.unanswered += 1
            else:
                self.times.append(it.answer_time)
                self.late += it.answer_time > DEADLINE

    def line(self) -> str:
        verdict = "none late" if self.late + self.unanswered == 0 else "SOME LATE"
        return (f"{self.sent} sent, {self.late} late, {self.unanswered} unanswered ({verdict}), "
                f"ack p50 {pct(self.times, .5) * 1000:.0f} ms p99 "
                f"{pct(self.times, .99) * 1000:.0f} ms")


async def send_burst(
    fd: FakeDiscord, calls: list[tuple[User, Channel, str, dict[str, Any]]], rate: float,
) -> list[Interaction]:
    """Send the interactions at ``rate`` per second, then wait for every answer (or 10 s)."""
    its: list[Interaction] = []
    start = time.monotonic()
    for i, (user, channel, command, options) in enumerate(calls):
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        its.append(await fd.slash(user, channel, command, **options))
    await asyncio.gather(*(it.answer(within=10) for it in its), return_exceptions=True)
    return its


def world(fd: FakeDiscord, tables: int) -> tuple[list[Channel], list[list[User]]]:
    guild = fd.add_guild("Load Club")
    channels = [fd.add_channel(guild, f"table-{i}") for i in range(tables)]
    players = [[fd.add_member(guild, f"p{i}-{s}") for s in range(3)] for i in range(tables)]
    return channels, players


def burst_calls(
    channels: list[Channel], players: list[list[User]],
) -> tuple[list[Any], list[Any]]:
    creates = [(seats[0], ch, "table create", {"small_blind": 1, "big_blind": 2})
               for ch, seats in zip(channels, players, strict=True)]
    joins = [(u, ch, "table join", {"buyin": "200"})
             for ch, seats in zip(channels, players, strict=True) for u in seats]
    return creates, joins


async def echo_burst(commands: list[dict[str, Any]], tables: int, rate: float, tmp: Path) -> Burst:
    """The same burst answered by the echo bot (the peer)."""
    async with FakeDiscord() as fd:
        channels, players = world(fd, tables)
        fd.global_commands = commands
        fd.commands_synced.set()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", ECHO_BOT, env={**fd.bot_environment(str(tmp / "x"))},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )
        try:
            assert proc.stdout is not None
            await asyncio.wait_for(proc.stdout.readline(), 30)
            await fd.wait_until(lambda: fd.identified.is_set(), 30, what="the echo bot")
            creates, joins = burst_calls(channels, players)
            result = Burst()
            result.add(await send_burst(fd, creates, rate))
            result.add(await send_burst(fd, joins, rate))
            return result
        finally:
            proc.terminate()
            await proc.wait()


async def run_level(
    tables: int, *, seconds: float, think: float, rate: float, seed: int = 1,
    profile: Path | None = None, echo: bool = True, rss_every: float = 30.0,
    players_act: str = "buttons",
) -> dict[str, Any]:
    """One size: burst, steady play, RSS, 429s; and the echo peer's burst."""
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-load-{tables}-"))
    try:
        async with LoadDiscord() as fd:
            channels, players = world(fd, tables)
            # N tables in one server: more than the default cap (TABLES_PER_SERVER=20)
            bot = BotProcess(fd, tmp, env={"TABLES_PER_SERVER": "0"})
            await bot.start()
            spy = await start_profiler(bot, profile, tables)
            try:
                await fd.wait_until_ready(60)
                assert bot.proc is not None
                rss = [rss_mb(bot.proc.pid)]
                creates, joins = burst_calls(channels, players)
                burst = Burst()
                burst.add(await send_burst(fd, creates, rate))
                burst.add(await send_burst(fd, joins, rate))
                burst_429 = len(fd.rate_limited)
                rss.append(rss_mb(bot.proc.pid))
                crowd = Players(fd, think, seed, players_act)
                fd.on_prompt = crowd.prompt
                for message in list(fd.messages.values()):  # prompts posted during the burst
                    if "your turn" in message.content and not message.deleted:
                        crowd.prompt(message)
                await asyncio.sleep(min(10.0, seconds / 3))  # hands under way everywhere
                crowd.measuring, start_429 = True, len(fd.rate_limited)
                first_request = len(fd.requests)
                start, cpu = time.monotonic(), cpu_split(bot.proc.pid)
                lags: list[float] = []
                lag = asyncio.get_running_loop().create_task(loop_lag(lags))
                samples = await sample_rss(bot.proc.pid, seconds, rss_every)
                lag.cancel()
                crowd.measuring = False
                steady = crowd.close(time.monotonic() - start)
                steady.by_route = routes(fd.requests[first_request:], {c.id for c in channels})
                cores = [(b - a) / steady.seconds
                         for a, b in zip(cpu, cpu_split(bot.proc.pid), strict=True)]
                await asyncio.sleep(1.5)  # the last clicks' answers
                steady = crowd.close(steady.seconds)
                steady.rate_limited = len(fd.rate_limited) - start_429
                if profile is not None:
                    (profile / f"load-{tables}-429.txt").write_text(
                        "\n".join(" ".join(r) for r in fd.rate_limited))
                rss.append(rss_mb(bot.proc.pid))
                fd.on_prompt = None
                for task in list(crowd.tasks):  # nobody clicks while the bot shuts down
                    task.cancel()
                await crowd.drain(10.0)  # the actions sent are answered before it stops
                commands = list(fd.global_commands)
            finally:
                await stop_profiler(spy)
                await bot.stop(60)
            if profile is not None:
                (profile / f"load-{tables}.log").write_text(bot.log)
            unhandled = list(fd.unhandled)
            tracebacks = sum("Traceback" in line for line in bot.lines)
        peer = await echo_burst(commands, tables, rate, tmp) if echo else None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"tables": tables, "burst": burst, "burst_429": burst_429, "steady": steady,
            "rss": rss, "rss_samples": samples, "echo": peer, "unhandled": unhandled,
            "tracebacks": tracebacks, "cores": cores, "lag": lags, "players": players_act}


def py_spy(profile: Path | None) -> str | None:
    """The py-spy executable when profiling was asked for and it is installed."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if profile is None or not Path(spy).exists():
        return None
    profile.mkdir(parents=True, exist_ok=True)
    return spy


async def start_profiler(bot: BotProcess, profile: Path | None, tables: int) -> Any:
    spy = py_spy(profile)
    if spy is None or profile is None or bot.proc is None:
        return None
    return await asyncio.create_subprocess_exec(
        spy, "record", "--pid", str(bot.proc.pid), "--format", "raw", "--idle", "--subprocesses",
        "-o", str(profile / f"load-{tables}.txt"),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )


async def stop_profiler(spy: Any) -> None:
    if spy is not None and spy.returncode is None:
        spy.send_signal(2)
        await asyncio.wait_for(spy.wait(), 60)


def report(row: dict[str, Any]) -> str:
    b, s, peer = row["burst"], row["steady"], row["echo"]
    ratio = ""
    if peer is not None and peer.times:
        ratio = (f"\n  echo peer burst: {peer.line()}\n  ack p99 / echo: "
                 f"{pct(b.times, .99) / max(pct(peer.times, .99), 1e-9):.2f}")
    return (
        f"{row['tables']} tables, players act by {row['players']}\n"
        f"  burst: {b.line()}, 429s {row['burst_429']}{ratio}\n"
        f"  steady {s.seconds:.0f} s: {s.per_second:.1f} actions/s ({s.actions} accepted, "
        f"{s.stale} stale), ack p50 {pct(s.acks, .5) * 1000:.0f} ms p99 "
        f"{pct(s.acks, .99) * 1000:.0f} ms; click to next prompt p50 "
        f"{pct(s.prompts, .5):.2f} s p95 {pct(s.prompts, .95):.2f} s max "
        f"{max(s.prompts, default=0):.2f} s ({s.between_hands} hand ends left out: the bot's "
        f"pause); pace {s.pace:.2f}; 429s {s.rate_limited}\n  {s.prompts_seen} prompts: "
        f"{s.new_pictures} with a new picture, {s.bare} without one (the rest: the "
        f"street's again); {len(s.channel_prompts)} by the channel's routes (p95 "
        f"{pct(s.channel_prompts, .95):.2f} s); {len(s.street_prompts)} open a street (p95 "
        f"{pct(s.street_prompts, .95):.2f} s)\n"
        f"  requests per accepted action, by route: {s.per_action()}\n"
        f"  CPU during play (cores): bot {row['cores'][0]:.2f}, render processes "
        f"{row['cores'][1]:.2f}, fake Discord and players {row['cores'][2]:.2f}; this "
        f"process's own event-loop lag p50 {pct(row['lag'], .5) * 1000:.0f} ms p99 "
        f"{pct(row['lag'], .99) * 1000:.0f} ms (in every ack and prompt time above)\n"
        f"  RSS MB: start {row['rss'][0]:.0f}, after burst {row['rss'][1]:.0f}, "
        f"end {row['rss'][2]:.0f}; tracebacks in the log {row['tracebacks']}; "
        f"unhandled routes {row['unhandled'] or 'none'}\n" + rss_line(row["rss_samples"])
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,50,200")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=250.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument("--pictures", choices=("auto", "turn", "street"), default="auto",
                        help="the bot's TABLE_PICTURES (default auto, as the bot)")
    parser.add_argument("--rss-every", type=float, default=30.0,
                        help="seconds between RSS samples during play")
    parser.add_argument("--players", choices=MODES, default="buttons",
                        help="how players act: by clicking buttons or by slash commands")
    args = parser.parse_args()
    os.environ["TABLE_PICTURES"] = args.pictures
    print(f"render processes {os.environ.get('RENDER_PROCESSES', 'default')}, table pictures "
          f"{args.pictures}; load {os.getloadavg()[0]:.2f}", flush=True)
    for n in (int(x) for x in args.tables.split(",")):
        row = asyncio.run(run_level(
            n, seconds=args.seconds, think=args.think, rate=args.rate, seed=args.seed,
            profile=args.profile, echo=not args.no_echo, rss_every=args.rss_every,
            players_act=args.players,
        ))
        print(report(row), flush=True)
        print(f"  load after this size: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
              flush=True)


if __name__ == "__main__":
    main()
