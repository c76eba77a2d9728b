"""Fonts and text fitting.

The pictures draw DejaVu Sans Condensed and DejaVu Sans Condensed Bold, subset
to the characters of :data:`COVERAGE` (printable ASCII, Latin-1, Latin Extended-A and the
punctuation the pictures use) and shipped in ``bot/render/fontdata/`` as
package data with their license: a fresh machine draws the same pixels with
nothing installed by hand. ``fontdata/README.md`` gives the subsetting command
(``tools/subset_fonts.py`` runs it). Text is laid out with FreeType's basic
layout (the font's kerning table, no shaping library), so a machine with or
without libraqm draws the same pixels. Bold text is the real bold face.

Why the condensed width: at one pixel size it is as wide as the Aileron the
layouts were made for (regular DejaVu Sans is 11% wider, its bold 25% wider
than Aileron's stroked "bold"), with the same x-height, so the seat boxes
keep their turn clock and "Folded" and names lose fewer letters.

Player names may hold anything. :func:`drawable` keeps what the font covers
("José", "Łukasz", "Ørjan" stay as they are), folds a letter it lacks to its
base letters when they are covered ("ệ" -> "e", full-width "Ａ" -> "A"), turns
any other letter or digit into "?" ("李小龙" -> "???": the name keeps its
length and never vanishes) and leaves out emoji, other symbols, combining
marks and control characters, so nothing ever draws as an empty box. A
member whose name would be mostly "?" (:func:`legible`) is named by their
username instead, on the Discord side (:mod:`bot.adapter.names`), so two Thai
players do not both show as "?????".

The card indices keep Pillow's built-in Aileron (:func:`index_font`): they
are only "A K Q J 10 9 ... 2", and the card images are tuned to its shapes.
Suit symbols are never text: they are vector shapes (:mod:`bot.render.suits`).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

ELLIPSIS = "\u2026"
FONT_DIR = Path(__file__).resolve().parent / "fontdata"
REGULAR = FONT_DIR / "DejaVuSansCondensed-subset.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold-subset.ttf"

#: The code points the shipped fonts hold (inclusive ranges): printable ASCII,
#: Latin-1 and Latin Extended-A letters and signs, dashes, quotes, bullet,
#: ellipsis, single guillemets, euro and minus.
COVERAGE: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E), (0xA0, 0x17F), (0x2013, 0x2014), (0x2018, 0x201A), (0x201C, 0x201E),
    (0x2022, 0x2022), (0x2026, 0x2026), (0x2039, 0x203A), (0x20AC, 0x20AC),
    (0x2212, 0x2212),
)
#: Spaces the font lacks, drawn as a plain space.
_SUBST = {"\u2009": " ", "\u202f": " ", "\u2007": " ", "\u2002": " ", "\u2003": " "}

Font = ImageFont.FreeTypeFont

_local = threading.local()


def covered(ch: str) -> bool:
    """Whether the shipped fonts draw ``ch``."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in COVERAGE)


def unicodes_arg() -> str:
    """:data:`COVERAGE` as pyftsubset's ``--unicodes`` value (``U+0020-007E,...``)."""
    return ",".join(f"U+{lo:04X}-{hi:04X}" if hi > lo else f"U+{lo:04X}" for lo, hi in COVERAGE)


def _faces() -> dict[tuple[int, bool], Font]:
    faces: dict[tuple[int, bool], Font] | None = getattr(_local, "faces", None)
    if faces is None:
        faces = _local.faces = {}
    return faces


def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (or Bold) at ``size`` pixels, loaded once per size, weight and thread.

    One FreeType face must not be used by two threads at once (FreeType's rule;
    free-threaded Python would not serialise the calls), and rendering runs in
    worker threads, so each thread keeps its own faces.
    """
    faces = _faces()
    found = faces.get((size, bold))
    if found is None:
        found = faces[size, bold] = ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC)
    return found


def index_font(size: int) -> Font:
    """Pillow's built-in Aileron at ``size`` pixels (the card indices), per thread."""
    faces = _faces()
    found = faces.get((-size, False))
    if found is None:
        loaded = ImageFont.load_default(size=size)
        if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover
            raise RuntimeError("Pillow was built without FreeType; the renderer needs it")
        found = faces[-size, False] = loaded
    return found


def _fold(ch: str) -> str:
    """What to draw for ``ch``, one character of NFC text (see the module docstring)."""
    ch = _SUBST.get(ch, ch)
    category = unicodedata.category(ch)
    if category == "Cf":  # format characters (soft hyphen, joiners): invisible
        return ""
    if covered(ch):
        return ch
    kind = category[0]
    if kind == "Z":  # separators
        return " "
    base = "".join(b for b in unicodedata.normalize("NFKD", ch)
                   if covered(b) and unicodedata.category(b)[0] != "M")
    if base:
        return base
    # a letter or digit the font cannot draw; symbols (emoji), marks, controls: nothing
    return "?" if kind in "LN" else ""


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` reduced to characters the font can draw (see the module docstring).

    Composed first ("e" + combining acute -> "é"); runs of spaces become one.
    """
    out = "".join(_fold(ch) for ch in unicodedata.normalize("NFC", text))
    return " ".join(out.split())


def legible(text: str) -> bool:
    """Whether the pictures draw ``text`` so that it can be told apart: something of it is
    drawn, and at most half of its letters and digits become "?" ("Bob 李" yes; "สมชาย",
    "محمد", "李小龙" and an all-emoji name no). A name that is not legible is replaced
    by the member's username before it reaches a table (:mod:`bot.adapter.names`)."""
    letters = [ch for ch in unicodedata.normalize("NFC", text)
               if unicodedata.category(ch)[0] in "LN"]
    unknown = sum(_fold(ch) == "?" for ch in letters)
    return bool(drawable(text)) and 2 * unknown <= len(letters)


def display_name(name: str, fallback: str) -> str:
    """``name`` if anything of it can be drawn, else ``fallback`` (an all-emoji name)."""
    return name if drawable(name) else fallback


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Advance width of ``text`` in pixels (cached)."""
    return _text_width(text, size, bold)


@lru_cache(maxsize=8192)
def _text_width(text: str, size: int, bold: bool) -> int:
    left, _, right, _ = font(size, bold).getbbox(text)
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


@dataclass(frozen=True, slots=True)
class Block:
    """Text laid out whole in a width: its lines (every letter kept) and their pixel size."""

    lines: tuple[str, ...]
    size: int


def _split_word(word: str, size: int, width: int, bold: bool) -> list[str]:
    """A word wider than ``width`` in pieces that fit (the last may be shorter)."""
    pieces: list[str] = []
    while word:
        n = len(word)
        while n > 1 and text_width(word[:n], size, bold=bold) > width:
            n -= 1
        pieces.append(word[:n])
        word = word[n:]
    return pieces


def wrap(text: str, size: int, width: int, *, bold: bool = False,
         sep: str = " ") -> tuple[str, ...]:
    """``text`` made drawable and broken into lines at most ``width`` wide: after a ``sep``
    (``", "`` keeps the items of a list whole) where it can, else at spaces; a word wider
    than a line is broken between its letters. Nothing is left out."""
    lines: list[str] = []
    line = ""
    for item in drawable(text).split(sep):
        candidate = f"{line}{sep}{item}" if line else item
        if text_width(candidate, size, bold=bold) <= width:
            line = candidate
            continue
        if line:
            lines.append(line + sep.rstrip())
        if sep != " " and text_width(item, size, bold=bold) > width:
            pieces = list(wrap(item, size, width, bold=bold))
        else:
            pieces = _split_word(item, size, width, bold)
        lines.extend(pieces[:-1])
        line = pieces[-1] if pieces else ""
    if line or not lines:
        lines.append(line)
    return tuple(lines)


@lru_cache(maxsize=4096)
def block(text: str, size: int, width: int, *, bold: bool = False,
          smallest: int | None = None, sep: str = " ") -> Block:
    """``text`` whole in ``width``: on one line at the largest size from ``size`` down to
    ``smallest`` (default ``size``) at which it fits, else wrapped at ``smallest``. Never
    an ellipsis: the pictures cut no word of a label, a hand, a pot or a title."""
    shown = drawable(text)
    low = size if smallest is None else min(size, smallest)
    for s in range(size, low - 1, -1):
        if text_width(shown, s, bold=bold) <= width:
            return Block((shown,), s)
    return Block(wrap(shown, low, width, bold=bold, sep=sep), low)
