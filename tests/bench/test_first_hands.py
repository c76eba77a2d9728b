"""Many tables opened at once, CI-sized (bench/bench_first_hands.py at 30 tables): the
unmodified ``python -m bot`` against the rate-limited fake Discord. Timings are the
benchmark's business; here the order: each table's deck commitment is posted once
(never given up and posted again), in its commitment thread or by the completing join's
token, before any of its hole cards and its first turn prompt; every table deals."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_first_hands


async def test_thirty_tables_commit_first_and_never_give_a_commitment_up() -> None:
    tables = 30
    row = await bench_first_hands.run_level(tables, rate=250.0, within=40.0)
    firsts, last_join = row["firsts"], row["last_join"]
    assert len(last_join) == tables and len(firsts.prompted) == tables, firsts
    for table in last_join:
        committed = firsts.committed[table]
        assert committed < firsts.prompted[table]
        assert table not in firsts.carded or committed < firsts.carded[table]
    assert all(count == 1 for count in firsts.posted.values()), firsts.posted
    assert len(firsts.posted) == tables and row["gave_up"] == 0
    assert sum(firsts.places.values()) == tables and row["tracebacks"] == 0
    # nothing of a new table waits behind the others' requests but its thread's opening
    # and what the joins' tokens could not carry
    assert firsts.by_channel["commitment of"] == firsts.places["thread"]
