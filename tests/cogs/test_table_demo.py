"""``python -m bot demo``: a short game offline writes a transcript and real PNGs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.demo import _play, main

PNG = b"\x89PNG\r\n\x1a\n"


async def test_demo_writes_transcript_and_images(tmp_path: Path) -> None:
    """Two hands among four simulated players leave a transcript and every image posted."""
    summary = await _play(tmp_path, hands=2, seed=7)
    text = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "Played 2 hands" in summary
    assert "Drawing for the button" in text and "Hand #1 result" in text
    assert "alice's direct messages" in text and "The table is closed" in text
    images = sorted((tmp_path / "images").glob("*.png"))
    assert len(images) >= 10
    assert all(p.read_bytes().startswith(PNG) for p in images)
    assert any("cards" in p.name for p in images) and any("table" in p.name for p in images)


def test_demo_refuses_bad_arguments() -> None:
    """A nonsensical hand count is refused with exit code 2."""
    assert main(["--hands", "0"]) == 2


def test_demo_command_exits_when_the_game_is_over(tmp_path: Path) -> None:
    """``python -m bot demo DIR`` run outside the repository prints its summary and exits 0."""
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", str(tmp_path / "out"), "--hands", "1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Played 1 hands")
    assert (tmp_path / "out" / "transcript.md").is_file()
