"""Crash-safety, measured: SIGKILL the unmodified ``python -m bot`` while many tables play.

One fake Discord (:mod:`tests.fakediscord`), one guild with ``--tables`` cash tables
of three players (blinds 1/2, 200 each) and a multi-table tournament (7 entrants, tables
of 4, every player all-in whenever possible: players bust, tables are balanced and
broken). Players answer every turn prompt after ``--think`` x [0.5, 1.5] seconds, by a
click or a slash command (:mod:`bench.crash_players`). The bot lives several times on
the same database; each life ends in a SIGKILL:

* **random kills** (``--kills``): after a random 0.5 to 3.5 s of play;
* **chosen points** (``--points``): the life runs with ``OMAHA_CRASH_AT=POINT:N``
  (:mod:`bot.crashpoint`) and kills itself there: between storing an action and
  acknowledging it, inside a settlement's transaction, after a settlement before its
  result is posted, in the tournament's balancing, during a scheduled backup
  (``BACKUP_EVERY=1m``: that life lasts a minute). Also once, while the bot plays,
  ``python -m bot backup`` is killed the same way in the middle of its copy.

After each kill (the bot dead) the database is checked (:mod:`bench.crash_checks`):
every acknowledged action is stored, none more times than it was sent; everything the
public messages said happened is stored; no result is in two messages; the chip audit
passes. After each restart: every hand running at the kill is resumed or cancelled (and
the channel told so), every table with two players with chips deals again, and every
hand settled at an open table has its result posted (one the kill kept from its channel
is posted after the restart). A life killed at its point before it logs in (while it
restores its tables) is counted, its checks left to the next restart. A last life ends
with SIGTERM and ``python -m bot audit``. The report counts kills, resumes and
anything lost (target 0).

Usage::

    .venv/bin/python bench/bench_crashes.py [--tables 50] [--kills 20] [--think 0.4]
        [--points action.stored,settle.writing,...] [--seed 1] [--keep DIR]

``tests/bench/test_bench_crashes.py`` runs it small (10 tables, 2 random kills, every
chosen point but the scheduled backup's minute).
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
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.crash_checks import (
    action_problems,
    audit,
    playable_channels,
    posted_late,
    posted_results,
    posted_twice,
    read,
    running_hands,
    settled_hands,
    told_problems,
)
from bench.crash_players import CrashDiscord, Crowd, is_prompt
from bot.crashpoint import ENV, POINTS
from tests.fakediscord import BotProcess
from tests.fakediscord.process import REPO

#: The crash points reached while tables play (a migration's are killed at in
#: ``tests/test_process_kills.py``: the database here is migrated at the first start).
PLAYING = tuple(p for p in POINTS if not p.startswith("migrate."))
#: How long a chosen point's life may take to reach it (a scheduled backup: a minute).
REACH = {"backup.copied": 90.0, "mtt.moved": 60.0}
RESUME_WITHIN = 30.0


@dataclass
class Life:
    """One run of the bot: killed at random (``point`` None) or at a crash point."""

    point: str | None = None
    nth: int = 1

    @property
    def env(self) -> dict[str, str]:
        if self.point is None:
            return {}
        extra = {ENV: f"{self.point}:{self.nth}"}
        if self.point == "backup.copied":
            extra["BACKUP_EVERY"] = "1m"
        return extra


@dataclass
class Report:
    tables: int
    kills: int = 0
    random_kills: int = 0
    points: dict[str, str] = field(default_factory=dict)
    restarts: int = 0
    hands_resumed: int = 0
    hands_cancelled: int = 0
    tables_back: int = 0
    unchecked: int = 0  # restarts killed at their crash point before every table was back
    back_after: list[float] = field(default_factory=list)  # s from log-in to every table back
    stalled: list[str] = field(default_factory=list)  # hands neither resumed nor cancelled
    idle: list[str] = field(default_factory=list)  # tables that dealt nothing after a restart
    sent: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    unposted: list[str] = field(default_factory=list)  # settled, no result after a restart
    posted_twice: list[str] = field(default_factory=list)
    results_late: int = 0  # results posted after a restart (killed before their post)
    audits: int = 0
    audit_failures: list[str] = field(default_factory=list)
    backup_cli: str = "not tried"
    hands: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.stalled or self.idle or self.lost or self.doubled or self.told
                    or self.unposted or self.posted_twice or self.audit_failures) and all(
            v == "killed there" for v in self.points.values())

    def text(self) -> str:
        points = ", ".join(f"{k}: {v}" for k, v in self.points.items()) or "none"
        problems = [*self.stalled, *self.idle, *self.lost, *self.doubled, *self.told,
                    *self.unposted, *self.posted_twice, *self.audit_failures]
        back = sorted(self.back_after) or [0.0]
        return "\n".join([
            f"{self.tables} tables and a tournament, {self.seconds:.0f} s: "
            f"{'OK' if self.ok else 'PROBLEMS'}",
            f"  kills {self.kills} ({self.random_kills} at random moments; chosen points: "
            f"{points}); restarts {self.restarts}",
            f"  hands running at a kill: {self.hands_resumed} resumed, {self.hands_cancelled} "
            f"cancelled; tables dealing again after a restart: {self.tables_back}, "
            f"hands stalled {len(self.stalled)}, tables idle {len(self.idle)} ({self.unchecked} "
            f"restarts killed at their point first); every table "
            f"back within {back[-1]:.1f} s of a restart (median {back[len(back) // 2]:.1f} s)",
            f"  actions sent {self.sent}, acknowledged {self.acknowledged}; lost "
            f"{len(self.lost)}, applied twice {len(self.doubled)}; told but not stored "
            f"{len(self.told)}",
            f"  results posted after a restart {self.results_late}; settled but never posted "
            f"{len(self.unposted)}, posted twice {len(self.posted_twice)}",
            f"  hands in the database: {self.hands}",
            f"  chip audits {self.audits}, failed {len(self.audit_failures)}; "
            f"`python -m bot backup` killed mid-copy: {self.backup_cli}",
            *(f"  ! {p}" for p in problems[:20]),
        ])


def plan(kills: int, points: list[str], rng: Random) -> list[Life]:
    """The lives: the tournament's balancing first (it is over within a few hands), then
    the random kills with the other points among them."""
    lives = [Life() for _ in range(kills)]
    for point in points:
        if point != "mtt.moved":  # the scheduled backup: its first, a minute in
            nth = 1 if point == "backup.copied" else rng.randint(1, 3)
            lives.insert(rng.randrange(len(lives) + 1), Life(point, nth))
    if "mtt.moved" in points:
        lives.insert(0, Life("mtt.moved", 1))
    return lives


class Harness:
    def __init__(self, fd: CrashDiscord, tmp: Path, tables: int, think: float, seed: int,
                 log: bool) -> None:
        self.fd, self.tmp, self.log = fd, tmp, log
        self.database = str(tmp / "bot.sqlite3")
        guild = fd.add_guild("Crash Club")
        self.channels = [fd.add_channel(guild, f"table-{i}") for i in range(tables)]
        self.players = [[fd.add_member(guild, f"p{i}-{s}") for s in range(3)]
                        for i in range(tables)]
        self.lobby = fd.add_channel(guild, "tournaments")
        self.entrants = [fd.add_member(guild, f"m{i}") for i in range(7)]
        self.names = {u.id: u.name for u in fd.users.values()}
        self.crowd = Crowd(fd, think, seed)
        fd.on_prompt = self.crowd.prompt
        self.report = Report(tables)
        self.began = time.monotonic()
        self.env = {"TABLES_PER_SERVER": "0", "RENDER_PROCESSES": "0",
                    "TABLE_PICTURES": "street"}

    def say(self, text: str) -> None:
        if self.log:
            print(f"{time.monotonic() - self.began:6.1f} s  {text}", flush=True)

    async def open_tables(self) -> None:
        fd = self.fd
        for channel, seats in zip(self.channels, self.players, strict=True):
            await (await fd.slash(seats[0], channel, "table create")).reply(within=30)
            for user in seats:
                await fd.slash(user, channel, "table join", buyin="200")
        await (await fd.slash(self.entrants[0], self.lobby, "tournament create", buy_in=100,
                              entrants=len(self.entrants), table_size=4,
                              structure="no limit")).reply(within=30)
        for user in self.entrants:
            await (await fd.slash(user, self.lobby, "tournament join")).reply(within=30)
        self.crowd.shovers.update(c.id for c in fd.channels.values()
                                  if c.parent_id == self.lobby.id)

    async def life(self, n: int, life: Life, rng: Random) -> None:
        fd, report = self.fd, self.report
        running = running_hands(self.database) if n else {}
        playable = playable_channels(self.database) if n else set()
        settled = settled_hands(self.database) if n else set()
        mark = max(fd.messages, default=0)
        self.say(f"life {n}: starts")
        fd.identified.clear()
        first_request = len(fd.requests)
        bot = BotProcess(fd, self.tmp, env={**self.env, **life.env})
        await bot.start()
        report.restarts += n > 0
        if not await self.logged_in(bot):
            report.unchecked += 1  # killed at its point while it restored its tables
        elif n == 0:
            await self.open_tables()
        else:
            await bot.wait_for_log("Restored", 60)
            await self.check_resumed(bot, running, playable, settled, mark)
        self.say(f"life {n}: tables back")
        if n == 2:
            report.backup_cli = await self.kill_cli_backup()
        if life.point is None:
            await asyncio.sleep(rng.uniform(0.5, 3.5))
            await bot.kill()
            report.random_kills += 1
        else:
            try:
                code = await bot.wait(within=REACH.get(life.point, 40.0))
                report.points[life.point] = ("killed there" if code == -9
                                             else f"exited {code}")
            except TimeoutError:
                await bot.kill()
                report.points[life.point] = "not reached"
        report.kills += 1
        (self.tmp / f"life-{n}.log").write_text(bot.log + "\n429s:\n" + "\n".join(
            " ".join(r) for r in fd.rate_limited) + "\nrequests:\n" + "\n".join(
            " ".join(map(str, r)) for r in fd.requests[first_request:]))
        self.say(f"life {n}: killed ({life.point or 'at random'})")
        await self.check_dead()
        self.say(f"life {n}: checked")

    async def logged_in(self, bot: BotProcess) -> bool:
        """Whether the bot logged in; False when it died first (a crash point reached
        while it restored its tables, before it connects to the gateway)."""
        began = time.monotonic()
        while not (self.fd.identified.is_set() and self.fd.commands_synced.is_set()):
            if bot.proc is None or bot.proc.returncode is not None:
                return False
            if time.monotonic() - began > 60:
                raise TimeoutError(f"the bot did not log in within 60 s:\n{bot.log}")
            await asyncio.sleep(0.1)
        self.say("logged in")
        return True

    async def check_resumed(
        self, bot: BotProcess, running: dict[tuple[int, int], int], playable: set[int],
        settled: set[tuple[int, int]], mark: int,
    ) -> None:
        """Every hand running at the kill is resumed or cancelled, and said so; every table
        with players deals again; every hand settled at the kill has its result posted."""
        fd, report = self.fd, self.report

        def said(channel: int, number: int) -> bool:
            return any(m.id > mark and m.channel_id == channel and (
                f"Hand #{number} resumes." in m.content
                or f"Hand #{number} was interrupted" in m.content)
                for m in fd.messages.values())

        def prompted(channel: int) -> bool:
            return any(m.id > mark and m.channel_id == channel and is_prompt(m)
                       for m in fd.messages.values())

        def unposted() -> list[tuple[int, int]]:
            posted = posted_results(fd.versions)
            return sorted(k for k in settled if not posted[k])

        began = time.monotonic()
        while not (all(said(*k) for k in running) and all(prompted(c) for c in playable)
                   and not unposted()):
            if bot.proc is None or bot.proc.returncode is not None:
                report.unchecked += 1  # killed at its crash point first: the next restart
                return  # checks these hands again (their tables have not dealt since)
            if time.monotonic() - began > RESUME_WITHIN:
                break
            await asyncio.sleep(0.1)
        report.back_after.append(time.monotonic() - began)
        life = f"restart {report.restarts}"
        report.stalled += [f"{life}: channel {c} hand #{n}: not resumed nor cancelled"
                           for c, n in running if not said(c, n)]
        report.idle += [f"{life}: channel {c}: no hand dealt within {RESUME_WITHIN:.0f} s"
                        for c in playable if not prompted(c)]
        report.tables_back += sum(prompted(c) for c in playable)
        report.unposted += [f"{life}: channel {c} hand #{n}: settled, its result never posted"
                            for c, n in unposted()]

    async def check_dead(self) -> None:
        report = self.report
        stored = read(self.database)
        sent, acked = self.crowd.counts()
        report.sent, report.acknowledged = sum(sent.values()), sum(acked.values())
        lost, doubled = action_problems(stored, sent, acked)
        report.lost, report.doubled = lost, doubled
        report.told = told_problems(stored, self.fd.versions, self.names)
        report.posted_twice = posted_twice(self.fd.versions)
        report.results_late = posted_late(self.fd.versions)
        report.audits += 1
        report.audit_failures += await audit(self.database)
        statuses = list(stored.status.values())
        report.hands = {s: statuses.count(s) for s in ("finished", "cancelled", "running")}
        report.hands_resumed = sum(1 for r in stored.resumed.values() if r)
        report.hands_cancelled = report.hands["cancelled"]

    async def kill_cli_backup(self) -> str:
        """``python -m bot backup`` killed after its copy, before the file is named: no
        backup file; taken again, it works and clears the staged copy the kill left."""
        target = self.tmp / "manual.sqlite3"
        code = await _run_bot_cli("backup", str(target), "--db", self.database,
                                  env={ENV: "backup.copied"})
        left, staged = target.exists(), len(list(self.tmp.glob(".manual*")))
        again = await _run_bot_cli("backup", str(target), "--db", self.database)
        cleared = not any(self.tmp.glob(".manual*"))
        return (f"exit {code}, file left: {left}, staged copies left {staged}; taken again: "
                f"exit {again}, staged copies cleared: {cleared}")

    async def last_life(self) -> int:
        """A restart that ends with SIGTERM, then ``python -m bot audit``."""
        running = running_hands(self.database)
        playable = playable_channels(self.database)
        settled = settled_hands(self.database)
        mark = max(self.fd.messages, default=0)
        self.fd.identified.clear()
        async with BotProcess(self.fd, self.tmp, env=self.env) as bot:
            self.report.restarts += 1
            await bot.wait_for_log("Restored", 60)
            await self.check_resumed(bot, running, playable, settled, mark)
            await asyncio.sleep(2.0)
            self.crowd.stop()
            code = await bot.stop(60)
        await self.check_dead()
        return code + await _run_bot_cli("audit", "--db", self.database)


async def _run_bot_cli(*args: str, env: dict[str, str] | None = None) -> int:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=REPO, env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await proc.wait()


async def run(tables: int = 50, kills: int = 20, *, think: float = 0.4, seed: int = 1,
              points: list[str] | None = None, keep: Path | None = None,
              log: bool = False) -> Report:
    """The whole run; the report."""
    rng = Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="bench-crashes-"))
    start = time.monotonic()
    try:
        async with CrashDiscord() as fd:
            h = Harness(fd, tmp, tables, think, seed, log)
            lives = plan(kills, list(PLAYING if points is None else points), rng)
            for n, life in enumerate(lives):
                await h.life(n, life, rng)
            if await h.last_life() != 0:
                h.report.audit_failures.append("the last stop or `python -m bot audit` failed")
            (tmp / "messages.txt").write_text("".join(
                f"{m.channel_id} {m.id} {m.content!r}\n" for m in fd.messages.values()))
        h.report.seconds = time.monotonic() - start
        return h.report
    finally:
        if keep is not None:
            shutil.copytree(tmp, keep, dirs_exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--kills", type=int, default=20, help="kills at random moments")
    parser.add_argument("--think", type=float, default=0.4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--points", default=",".join(PLAYING),
                        help="crash points to kill at (bot.crashpoint), comma-separated")
    parser.add_argument("--keep", type=Path, help="copy the database and logs here")
    args = parser.parse_args()
    report = asyncio.run(run(args.tables, args.kills, think=args.think, seed=args.seed,
                             points=[p for p in args.points.split(",") if p],
                             keep=args.keep, log=True))
    print(report.text(), flush=True)
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
