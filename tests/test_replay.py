"""``python -m bot replay``: one JSON line per hand, --check, and exit statuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "engine" / "data"
ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", "replay", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_good_files_print_one_line_per_hand_and_exit_0() -> None:
    """Every hand of a .phh and a .phhs file is replayed to its final stacks."""
    one = str(DATA / "po_steal.phh")
    many = str(DATA / "pokerkit_po.phhs")
    done = run(one, many)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert lines(done.stdout) == [
        {"path": one, "index": 0, "finishing_stacks": [99, 93, 108]},
        {"path": many, "index": 0, "finishing_stacks": [138, 219, 293]},
        {"path": many, "index": 1, "finishing_stacks": [180, 0]},
    ]


def test_check_passes_when_every_hand_matches() -> None:
    """--check compares with finishing_stacks and exits 0 when all agree."""
    path = str(DATA / "courchevel_hilo_fl.phh")
    done = run("--check", path)
    assert done.returncode == 0, done.stdout + done.stderr
    (line,) = lines(done.stdout)
    assert line["finishing_stacks"] == line["expected"] == [102, 102, 96]
    assert line["matches"] is True


def test_illegal_hand_reports_the_action_and_goes_on() -> None:
    """A hand that breaks the rules prints its error; the next hand still replays."""
    path = str(DATA / "mixed.phhs")
    done = run(path)
    assert done.returncode == 0  # reported on its line; only --check turns it into status 1
    first, second, third = lines(done.stdout)
    assert first == {"path": path, "index": 0, "finishing_stacks": [99, 93, 108]}
    assert second == {
        "path": path,
        "index": 1,
        "error": "action 4 (p3 cbr 8): the most you can raise to is 7",
    }
    assert third["finishing_stacks"] == [99, 93, 108]


def test_check_mismatch_exits_1() -> None:
    """--check flags the hand whose recorded stacks differ and exits 1."""
    good = str(DATA / "po_steal.phh")
    path = str(DATA / "mixed.phhs")
    done = run("--check", good, path)
    assert done.returncode == 1
    out = lines(done.stdout)
    assert out[0]["matches"] is True
    assert out[3]["index"] == 2
    assert out[3]["matches"] is False
    assert out[3]["expected"] == [100, 93, 107]


def test_unreadable_input_exits_2_with_one_line(tmp_path: Path) -> None:
    """Missing files, bad TOML and non-PHH TOML exit 2 with a one-line message."""
    bad_toml = tmp_path / "bad.phh"
    bad_toml.write_text("variant = \n")
    not_phh = tmp_path / "other.phh"
    not_phh.write_text("title = 'a poem'\n")
    for path in (str(tmp_path / "missing.phh"), str(bad_toml), str(not_phh)):
        done = run(str(DATA / "po_steal.phh"), path)
        assert done.returncode == 2, path
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1
        assert path in done.stderr


def test_no_path_is_a_usage_error() -> None:
    """Without a path the command explains its usage and exits 2."""
    done = run()
    assert done.returncode == 2
    assert "PATH" in done.stderr


def test_check_without_recorded_stacks_is_a_mismatch(tmp_path: Path) -> None:
    """A hand with no finishing_stacks cannot pass --check (expected is null)."""
    text = (DATA / "po_steal.phh").read_text().replace("finishing_stacks = [99, 93, 108]\n", "")
    path = tmp_path / "bare.phh"
    path.write_text(text)
    plain = run(str(path))
    assert plain.returncode == 0
    checked = run("--check", str(path))
    assert checked.returncode == 1
    (line,) = lines(checked.stdout)
    assert line["expected"] is None and line["matches"] is False
    assert line["finishing_stacks"] == [99, 93, 108]


def test_check_fails_on_an_illegal_hand_alone() -> None:
    """--check exits 1 when a hand is illegal even if no stacks differ."""
    done = run("--check", str(DATA / "illegal_raise.phh"))
    assert done.returncode == 1
    (line,) = lines(done.stdout)
    assert line["error"] == "action 4 (p3 cbr 8): the most you can raise to is 7"
