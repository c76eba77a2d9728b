"""``python -m bot demo``: a short game offline writes a transcript and real PNGs."""

from __future__ import annotations

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
