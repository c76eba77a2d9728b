"""``OMAHA_CRASH_AT`` kills the process at the named point, the asked time, and never
otherwise (bot/crashpoint.py, the kill harness's hook)."""

from __future__ import annotations

import signal
import subprocess
import sys

from bot.crashpoint import ENV, POINTS
from tests.fakediscord.process import REPO

SCRIPT = """
from bot import crashpoint
for n in range(1, 4):
    print("before", n, flush=True)
    crashpoint.reached("settle.stored")
    crashpoint.reached("action.stored")
print("survived", flush=True)
"""


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_nth_time_the_named_point_is_reached_the_process_is_killed() -> None:
    done = _run({ENV: "action.stored:2", "PATH": ""})
    assert done.returncode == -signal.SIGKILL
    assert done.stdout.split("\n")[:-1] == ["before 1", "before 2"]


def test_unset_or_another_point_changes_nothing() -> None:
    for env in ({}, {ENV: "backup.copied"}):
        done = _run(env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.endswith("survived\n")


def test_every_point_is_reached_somewhere_in_the_bot() -> None:
    sources = "".join(p.read_text() for p in (REPO / "bot").rglob("*.py"))
    for point in POINTS:
        assert f'crashpoint.reached("{point}")' in sources, point
