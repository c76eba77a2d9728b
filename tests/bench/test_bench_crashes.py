"""The kill harness, small: ``python -m bot`` SIGKILLed again and again loses nothing.

10 cash tables and a multi-table tournament; the bot is killed twice at random moments
and once at each of four chosen points (after an action is stored, inside a
settlement, after a settlement before its result is posted, in the tournament's
balancing; the full run, ``OMAHA_CRASH_FULL=1``, 50 tables and 20 random kills, has
every point reached while tables play, the scheduled backup after its minute of play
included), and ``python -m bot backup`` is killed mid-copy once. Every acknowledged
action is stored exactly once, nothing the channels were told is missing, every hand
running at a kill is resumed or cancelled and every table deals again, every settled
hand's result is posted once (a result a kill kept from its channel, after the
restart), and the chip audit passes after each kill.
"""

from __future__ import annotations

import os

from bench.bench_crashes import run

FULL = os.environ.get("OMAHA_CRASH_FULL") == "1"
SMALL_POINTS = ["action.stored", "settle.writing", "settle.stored", "mtt.moved"]


async def test_repeated_sigkills_lose_no_action_and_no_chip() -> None:
    if FULL:
        report = await run(50, 20)
    else:
        report = await run(10, 2, think=0.3, points=SMALL_POINTS)
    print(report.text())
    assert report.kills >= (25 if FULL else 5), report.text()
    assert all(v == "killed there" for v in report.points.values()), report.text()
    assert report.acknowledged > 0 and report.restarts == report.kills
    assert report.lost == [] and report.doubled == [] and report.told == [], report.text()
    assert report.unposted == [] and report.posted_twice == [], report.text()
    assert report.results_late > 0, report.text()  # the kill after a settlement's commit
    assert report.stalled == [] and report.idle == [], report.text()
    assert report.audit_failures == [] and report.audits == report.kills + 1, report.text()
    assert report.backup_cli.startswith("exit -9, file left: False"), report.backup_cli
    assert report.backup_cli.endswith("exit 0, staged copies cleared: True"), report.backup_cli
    assert report.hands_resumed > 0, report.text()
