"""The load benchmark in short mode: a few tables, some seconds (slow: ``OMAHA_SLOW=1``).

``bench/bench_load.py`` runs ``python -m bot`` unchanged against the fake Discord
(with Discord's rate limits): a burst of ``/table create`` and ``/table join``,
then simulated players playing every turn prompt. At this small size nothing
may be late and Discord may never have to refuse a request.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.fakediscord.process import REPO

pytestmark = pytest.mark.skipif(
    os.environ.get("OMAHA_SLOW") != "1", reason="slow load run: set OMAHA_SLOW=1"
)


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", REPO / "bench" / "bench_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


async def test_small_load_has_no_late_interaction_and_no_429(tmp_path: Path) -> None:
    """4 tables, 12 players: every interaction in time, play goes on, no 429, no traceback."""
    row = await bench().run_level(4, seconds=8.0, think=1.0, rate=250.0, echo=False)
    burst, steady = row["burst"], row["steady"]
    assert burst.sent == 16 and burst.late == 0 and burst.unanswered == 0
    assert row["burst_429"] == 0 and steady.rate_limited == 0
    assert steady.actions > 0 and steady.prompts, "no hand was played"
    assert all(t < 3.0 for t in steady.acks)
    assert row["tracebacks"] == 0 and row["unhandled"] == []
