"""The committed card images in card_images/ and the script that draws them."""

from __future__ import annotations

import hashlib
import runpy
from pathlib import Path

from PIL import Image

from bot.engine.cards import DECK
from tests.render.pixels import differing_share, mean_diff

ROOT = Path(__file__).resolve().parents[2] / "card_images"


def _make_cards(out: Path) -> list[Path]:
    module = runpy.run_path(str(ROOT / "make_cards.py"))
    return list(module["make_cards"](out))


def test_committed_images_cover_the_deck_in_every_style_and_the_back() -> None:
    """52 faces in each style plus one back are committed, each 200x280."""
    for style in ("four_colour", "two_colour", "colour_blind"):
        names = {p.stem for p in (ROOT / style).glob("*.png")}
        assert names == {str(c) for c in DECK}
    with Image.open(ROOT / "back.png") as back:
        assert back.size == (200, 280)
    with Image.open(ROOT / "four_colour" / "As.png") as face:
        assert face.size == (200, 280)


def test_script_regenerates_the_committed_images(tmp_path: Path) -> None:
    """A fresh run of the script draws the committed pixels (tolerance for FreeType builds)."""
    written = _make_cards(tmp_path)
    assert len(written) == 3 * 52 + 1
    for path in written:
        committed = ROOT / path.relative_to(tmp_path)
        with Image.open(path) as new, Image.open(committed) as old:
            assert new.size == old.size, path.name
            assert mean_diff(new, old) < 1.0, path.name
            assert differing_share(new, old) < 0.01, path.name


def test_script_output_is_deterministic(tmp_path: Path) -> None:
    """Two runs write byte-identical files."""
    first = _make_cards(tmp_path / "a")
    second = _make_cards(tmp_path / "b")
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in first]
    assert digest == [hashlib.sha256(p.read_bytes()).hexdigest() for p in second]
