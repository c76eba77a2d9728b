"""Pixel helpers for the render tests."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageStat

from bot.render.cardart import FACE


def load(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return Image.open(io.BytesIO(png)).convert("RGB")


def count_cards(img: Image.Image, y: int, x0: int = 0, x1: int | None = None) -> int:
    """Count card faces (and backs, whose rim is face-coloured) crossing the row ``y``.

    A card is a run of at least 10 face-coloured pixels; runs closer than 3
    pixels (the ink of an index) belong to the same card.
    """
    x1 = img.width if x1 is None else x1
    row = [img.getpixel((x, y)) for x in range(x0, x1)]
    is_face = [all(abs(int(a) - b) <= 3 for a, b in zip(p, FACE, strict=True)) for p in row]
    runs: list[list[int]] = []
    for x, f in enumerate(is_face):
        if f:
            if runs and x - runs[-1][1] <= 3:
                runs[-1][1] = x
            else:
                runs.append([x, x])
    return sum(1 for a, b in runs if b - a + 1 >= 10)


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0..255)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def differing_share(a: Image.Image, b: Image.Image, threshold: int = 48) -> float:
    """Share of pixels whose largest channel difference exceeds ``threshold``."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    gray = diff.convert("L").point(lambda v: 255 if v > threshold // 3 else 0)
    return gray.histogram()[255] / (a.width * a.height)


def border_is_plain(img: Image.Image, margin: int, colour: tuple[int, int, int]) -> bool:
    """True when the ``margin``-pixel frame of the image holds only ``colour``."""
    w, h = img.size
    for box in ((0, 0, w, margin), (0, h - margin, w, h), (0, 0, margin, h),
                (w - margin, 0, w, h)):
        colours = img.crop(box).getcolors(maxcolors=4)
        if colours is None or any(c != colour for _, c in colours):
            return False
    return True
