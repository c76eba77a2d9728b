"""Fonts and text fitting.

The only font used is the scalable Aileron that Pillow builds in
(``ImageFont.load_default(size=...)``, Pillow >= 10.1 with FreeType): it needs
no system install and no file in the repository, so a fresh CI machine draws
exactly the same pixels as a developer's. Aileron has one weight; "bold" text
is drawn with a one-pixel-ish stroke in the text colour.

Aileron covers printable ASCII and a few punctuation marks only. Player names
are folded to what it can draw (accents dropped: "José" -> "Jose"); any other
character becomes "?". Suit symbols are never text: they are vector shapes
(:mod:`bot.render.suits`).
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from PIL import ImageFont

ELLIPSIS = "\u2026"
#: Characters Aileron draws besides printable ASCII.
_EXTRA = frozenset(
    "\u00a9\u00ab\u00b0\u00b1\u00b4\u00b7\u00bb\u2018\u2019\u201c\u201d\u2026\u2039\u203a"
)
#: Replacements for common punctuation Aileron lacks.
_SUBST = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x", "\u2022": "\u00b7",
          "\u00a0": " ", "\u2009": " ", "\u202f": " "}

Font = ImageFont.FreeTypeFont


_local = threading.local()


def font(size: int) -> Font:
    """The built-in scalable font at ``size`` pixels, loaded once per size and thread.

    One FreeType face must not be used by two threads at once (FreeType's rule;
    free-threaded Python would not serialise the calls), and rendering runs in
    worker threads, so each thread keeps its own faces.
    """
    fonts: dict[int, Font] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    found = fonts.get(size)
    if found is None:
        loaded = ImageFont.load_default(size=size)
        if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover
            raise RuntimeError("Pillow was built without FreeType; the renderer needs it")
        found = fonts[size] = loaded
    return found


def bold_stroke(size: int) -> int:
    """Stroke width that makes text of ``size`` pixels look bold."""
    return max(1, round(size / 26))


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` reduced to characters the font can draw.

    Accents are dropped ("José" -> "Jose"), emoji and other symbols, marks and
    control characters are left out, letters of other scripts become "?"
    (so a name never vanishes: "李小龙" -> "???"). Runs of spaces become one.
    """
    out: list[str] = []
    for ch in text:
        ch = _SUBST.get(ch, ch)
        if " " <= ch <= "~" or ch in _EXTRA:
            out.append(ch)
            continue
        kind = unicodedata.category(ch)[0]
        if kind == "Z":  # separators
            out.append(" ")
            continue
        base = unicodedata.normalize("NFKD", ch)
        ascii_part = "".join(b for b in base if " " <= b <= "~")
        if ascii_part:
            out.append(ascii_part)
        elif kind in "LN":  # a letter or digit the font cannot draw
            out.append("?")
        # symbols (emoji), marks, controls and format characters are left out
    return " ".join("".join(out).split())


def display_name(name: str, fallback: str) -> str:
    """``name`` if anything of it can be drawn, else ``fallback`` (an all-emoji name)."""
    return name if drawable(name) else fallback


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Advance width of ``text`` in pixels, including the bold stroke (cached)."""
    return _text_width(text, size, bold)


@lru_cache(maxsize=8192)
def _text_width(text: str, size: int, bold: bool) -> int:
    stroke = bold_stroke(size) if bold else 0
    left, _, right, _ = font(size).getbbox(text, stroke_width=stroke)
    return int(right - min(0, left))


def fit(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
    """``text`` made drawable and cut with an ellipsis so it is at most ``max_width`` wide."""
    text = drawable(text)
    if text_width(text, size, bold=bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size, bold=bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo].rstrip()
    return cut + ELLIPSIS if cut or text_width(ELLIPSIS, size, bold=bold) <= max_width else ""

