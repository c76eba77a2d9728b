"""SIGKILL at random moments: after restart no chip is lost and every hand is accounted for."""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.engine.cards import Deck
from bot.engine.events import Action, ActionKind
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import GameConfig
from bot.storage import Database

from .crash_driver import rebuild
from .helpers import assert_audit_ok

ROOT = Path(__file__).resolve().parents[2]
KILLS = 25


def _spawn(db: str, seed: int, mode: str, key: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_driver", db, str(seed), mode, key],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _acks(stdout: str) -> tuple[set[tuple[int, int]], set[int]]:
    actions: set[tuple[int, int]] = set()
    settled: set[int] = set()
    for line in stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["ack"] and len(parts) == 3:
            actions.add((int(parts[1]), int(parts[2])))
        elif parts[:1] == ["done"] and len(parts) == 2:
            settled.add(int(parts[1]))
    return actions, settled


def test_sigkill_at_random_moments_loses_no_chip(database_target: str, tmp_path: Path) -> None:
    """25 kills mid-play; restarts resume or cancel; audit holds, acks are on disk, hands replay.

    On SQLite and on PostgreSQL (the killed process's open transaction is
    rolled back by the server)."""
    db_path = database_target
    key = str(tmp_path / "crash.key")
    rng = random.Random(20261129)
    acked: set[tuple[int, int]] = set()
    settled: set[int] = set()
    outputs = []
    for run in range(KILLS):
        child = _spawn(db_path, run, "run", key)
        first = ""
        if run % 2 == 0:
            # kill while hands are being played: wait for the first acknowledged write
            assert child.stdout is not None
            ready, _, _ = select.select([child.stdout], [], [], 20)
            first = child.stdout.readline() if ready else ""
            time.sleep(rng.uniform(0.0, 0.4))
        else:
            # kill at any moment from the start: imports, migrations, recovery, play
            time.sleep(rng.uniform(0.05, 0.7))
        os.kill(child.pid, signal.SIGKILL)
        out, err = child.communicate(timeout=30)
        out = first + out
        assert child.returncode == -signal.SIGKILL, err[-2000:]
        more_actions, more_settled = _acks(out)
        acked |= more_actions
        settled |= more_settled
        outputs.append(out)
    final = _spawn(db_path, 999, "finish", key)
    out, err = final.communicate(timeout=60)
    assert final.returncode == 0, err[-2000:]
    more_actions, more_settled = _acks(out)
    acked |= more_actions
    settled |= more_settled
    outputs.append(out)
    log = "".join(outputs)
    asyncio.run(_check(db_path, key, acked, settled, log))


async def _check(
    db_path: str, key: str, acked: set[tuple[int, int]], settled: set[int], log: str
) -> None:
    db = await Database.open(db_path, key_path=key)
    try:
        await assert_audit_ok(db)
        assert await db.hands.list_unfinished() == []
        rows = await db.read(lambda c: c.execute(
            "SELECT id, status, resumed FROM hands ORDER BY id").fetchall())
        stored = await db.read(lambda c: set(c.execute(
            "SELECT hand_id, seq FROM hand_actions").fetchall()))
        statuses = {hid: status for hid, status, _ in rows}
        assert acked <= stored, "an acknowledged action is missing from the database"
        assert all(statuses[h] == "finished" for h in settled)
        resumed = [hid for hid, status, n in rows if n and status == "finished"]
        cancelled = [hid for hid, status, _ in rows if status == "cancelled"]
        finished = [hid for hid, status, _ in rows if status == "finished"]
        assert len(finished) >= 12, f"only {len(finished)} hands finished"
        assert resumed, "no interrupted hand was resumed"
        assert cancelled, "no interrupted hand was cancelled"
        # a kill can fall between a commit and its line of output: never more lines than rows
        assert 0 < log.count("resumed ") <= sum(n for _, _, n in rows)
        # every finished hand replays from its stored deck and actions to its stored result
        for hid in finished:
            record = await db.hands.get(hid)
            seats = await db.hands.seats(hid)
            hand = rebuild(dict(record.settings),
                           [SeatIn(s.seat_no, s.start_stack, s.posts_big_blind) for s in seats],
                           record.button, Deck(order=await db.hands.reveal_deck(hid)),
                           [dict(a) for a in await db.hands.actions(hid)])
            assert hand.is_over
            assert hand.result.final_stacks == {s.seat_no: s.final_stack for s in seats}
            assert GameConfig.from_dict(dict(record.settings)).variant.key == record.variant
    finally:
        await db.close()


def test_a_resumed_hand_deals_the_same_cards() -> None:
    """Rebuilding from the stored deck order and actions gives the same hole cards and board."""
    rng = random.Random(5)
    config = GameConfig.from_dict({"variant": "omaha", "structure": "pot limit",
                                   "small_blind": 5, "big_blind": 10, "ante": 0})
    deck = Deck(rng=rng)
    seats = [SeatIn(1, 500), SeatIn(2, 500), SeatIn(3, 500)]
    hand = Hand(config, seats, 1, deck)
    hand.start()
    actions = []
    while not hand.is_over and len(actions) < 4:
        legal = hand.legal_actions()
        assert legal is not None
        kind = "check" if legal.can_check else "call"
        actions.append({"seat": hand.to_act, "kind": kind, "amount": None})
        hand.act(hand.to_act, Action(ActionKind(kind)))
    again = rebuild(config.to_dict(), seats, 1, Deck(order=deck.order), actions)
    assert [again.hole(s.seat) for s in seats] == [hand.hole(s.seat) for s in seats]
    assert again.board == hand.board and again.to_act == hand.to_act

