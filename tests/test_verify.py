"""``python -m bot verify FILE.phh``: one line, the verdict and the first reason; exit 0/1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.test_phh_proof import _export, _showdown_hand

ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", *args],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("verify") / "hand.phh"
    path.write_text(_export(_showdown_hand(), 2))
    return path


def test_a_good_file_verifies(good: Path) -> None:
    done = run(str(good))
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "verified: the deal and the actions match the commitment\n", "")


def test_a_tampered_file_prints_the_first_reason_and_exits_1(good: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(good.read_text().replace('"p3 f"', '"p3 cc"'))
    done = run(str(bad))
    assert done.returncode == 1
    assert done.stdout.startswith("NOT verified: action ") and done.stdout.count("\n") == 1


def test_a_missing_file_is_one_line_too(tmp_path: Path) -> None:
    done = run(str(tmp_path / "nope.phh"))
    assert done.returncode == 1
    assert done.stdout.startswith("NOT verified: cannot read ") and done.stdout.count("\n") == 1
    assert run().returncode == 1


def commitment_of(path: Path) -> str:
    line = next(x for x in path.read_text().splitlines() if x.startswith("_deck_commitment"))
    return line.split("=", 1)[1].strip().strip('"')


def test_the_root_the_player_copied_must_be_the_files(good: Path) -> None:
    """--root: the posted root (any case, either order) verifies; another one fails naming
    both; a root that is not 64 hex digits is named too."""
    root = commitment_of(good)
    assert len(root) == 64
    assert run(str(good), "--root", root.upper()).returncode == 0
    assert run("--root", root, str(good)).returncode == 0
    other = ("0" if root[0] != "0" else "1") + root[1:]
    done = run(str(good), "--root", other)
    assert done.returncode == 1 and done.stdout.count("\n") == 1
    assert done.stdout == (
        f"NOT verified: the file commits to {root}, not to the posted root {other}\n")
    short = run(str(good), "--root", root[:12])
    assert short.returncode == 1 and "is not 64 hex digits" in short.stdout
    assert run(str(good), "--root").returncode == 1  # the usage
