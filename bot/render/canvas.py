"""A Pillow canvas that keeps a record of what it drew and where.

Every text and card goes through :class:`Canvas`, which fits text to the
room it is given (a name is cut with an ellipsis and marked ``cut``; labels, hands, pots
and titles are laid out whole with :meth:`Canvas.block`) and records the drawn extent
next to the box it had to stay in, and the size of its letters (for a card,
its rank index). Tests read that record to prove that no text runs out of
its box or the image, that texts and cards do not overlap, and that every
letter stays readable when Discord shrinks the picture to a phone's width.

PNGs are written with a 256-colour palette: the pictures are flat colours,
text and card art, which a palette holds without visible loss at a third of
the bytes of true colour. The theme's own colours stay exact.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import Card
from bot.render.cardart import FACE, card_image, card_width, faded_card_image, index_px
from bot.render.fonts import Block, drawable, fit, font
from bot.render.theme import RGB, SUIT_INK, DeckStyle, Palette
from bot.render.words import localize_number

#: The width at which Discord shows a picture on a phone, and the smallest
#: letter (in pixels at that width) a player can read there.
PHONE_WIDTH = 400
PHONE_MIN_PX = 12

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Placed:
    """One drawn item: its real extent and the box it had to stay inside."""

    kind: str  # "text" or "card"
    extent: Box
    limit: Box
    text: str = ""
    card: Card | None = None  # None for a card back (kind "card")
    tag: str = ""  # what the item is, for tests: "bet:3", "name:3", "board", ...
    faded: bool = False  # a card drawn faded (not used by the hand)
    size: float = 0  # font size in pixels (a card: its rank index; a card back: 0)
    cut: bool = False  # the text was shortened with an ellipsis to fit


def _moved(box: Box, dy: int) -> Box:
    return (box[0], box[1] + dy, box[2], box[3] + dy)


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] and inner[1] >= outer[1]
            and inner[2] <= outer[2] and inner[3] <= outer[3])


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Canvas:
    def __init__(self, width: int, height: int, pal: Palette, style: DeckStyle) -> None:
        self.img = Image.new("RGB", (width, height), pal.background)
        self.draw = ImageDraw.Draw(self.img)
        self.pal = pal
        self.style = DeckStyle(style)
        self.placed: list[Placed] = []
        self.exact: set[RGB] = set()  # more colours the PNG must keep exactly (medals, ...)

    @property
    def bounds(self) -> Box:
        return (0, 0, self.img.width, self.img.height)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB, *,
             limit: Box, bold: bool = False, anchor: str = "la", tag: str = "") -> Box:
        """Draw ``text`` at ``xy`` (Pillow anchor), cut to fit ``limit``'s width; return its extent.

        Nothing is drawn (and an empty box is returned) when the text is empty
        or not even an ellipsis fits.
        """
        x, y = xy
        if anchor[0] == "l":
            room = limit[2] - x
        elif anchor[0] == "r":
            room = x - limit[0]
        else:
            room = 2 * min(x - limit[0], limit[2] - x)
        shown = fit(text, size, int(room), bold=bold)
        if not shown:
            return (int(x), int(y), int(x), int(y))
        mask, left, top = text_mask(shown, size, bold, anchor)
        x0, y0 = round(x) + left, round(y) + top
        # the side bearings may overhang the anchor by a pixel: nudge back in
        x0 += max(0, limit[0] - x0) + min(0, limit[2] - (x0 + mask.width))
        extent = (x0, y0, x0 + mask.width, y0 + mask.height)
        self.img.paste(fill, extent, mask)
        self.placed.append(Placed("text", extent, limit, shown, tag=tag, size=size,
                                  cut=shown != drawable(text)))
        return extent

    def block(self, xy: tuple[float, float], laid: Block, line_h: int, fill: RGB, *,
              limit: Box, bold: bool = False, anchor: str = "lm", tag: str = "") -> Box:
        """Draw the lines of ``laid`` (:func:`bot.render.fonts.block`) one under the other,
        the first at ``xy``, ``line_h`` apart; return the extent of them all."""
        x, y = xy
        boxes = [self.text((x, y + k * line_h), line, laid.size, fill, limit=limit, bold=bold,
                           anchor=anchor, tag=tag) for k, line in enumerate(laid.lines)]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))

    def card(self, c: Card | None, x: int, y: int, height: int, *, faded: bool = False,
             limit: Box | None = None, tag: str = "") -> Box:
        sprite = (faded_card_image if faded else card_image)(c, height, self.style)
        self.img.paste(sprite, (x, y), sprite)
        extent = (x, y, x + sprite.width, y + sprite.height)
        self.placed.append(Placed("card", extent, limit or self.bounds, card=c, tag=tag,
                                  faded=faded, size=index_px(c, height)))
        return extent

    def card_row(self, cards: tuple[Card | None, ...], x: int, y: int, height: int, gap: int,
                 *, faded: frozenset[Card] = frozenset(), limit: Box | None = None,
                 tag: str = "") -> Box:
        w = card_width(height)
        for i, c in enumerate(cards):
            self.card(c, x + i * (w + gap), y, height, faded=c in faded if c else False,
                      limit=limit, tag=tag)
        return (x, y, x + len(cards) * (w + gap) - gap, y + height)

    def grown(self, top: int) -> Canvas:
        """A canvas ``top`` pixels taller with this picture and its record moved down by
        ``top`` (room for a header of more lines than the layout's)."""
        taller = Canvas(self.img.width, self.img.height + top, self.pal, self.style)
        taller.img.paste(self.img, (0, top))
        taller.exact = set(self.exact)
        taller.placed = [replace(p, extent=_moved(p.extent, top), limit=_moved(p.limit, top))
                         for p in self.placed]
        return taller

    def phone_px(self, size: float) -> float:
        """How tall letters of ``size`` pixels look once the picture is shown
        :data:`PHONE_WIDTH` pixels wide."""
        return size * PHONE_WIDTH / self.img.width

    def keep(self) -> tuple[RGB, ...]:
        """The colours the PNG keeps exact: the theme's, the cards' and :attr:`exact`'s."""
        return tuple(sorted({*(getattr(self.pal, f.name) for f in fields(self.pal)), FACE,
                             *SUIT_INK[self.style].values(), *self.exact}))

    def png(self) -> bytes:
        """The picture as a palette PNG (see :func:`to_palette_png`)."""
        return to_palette_png(self.img, self.keep())


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """Coverage mask of ``text`` and the offset of its top-left from the anchor point.

    Cached: a table is redrawn at every street with mostly the same names and
    amounts, and pasting a mask costs a fraction of rendering the glyphs.
    """
    f = font(size, bold)
    box = f.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def row_width(n: int, height: int, gap: int) -> int:
    """Width of ``n`` cards of ``height`` side by side with ``gap`` between them."""
    return n * card_width(height) + max(0, n - 1) * gap if n else 0


def to_png(img: Image.Image) -> bytes:
    """True-colour PNG bytes of ``img`` (RGBA sprites keep their alpha)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


#: zlib level of the palette PNGs. Level 4 deflates a table picture in about half the
#: time of level 6 for about 10% more bytes (24 KB against 22 KB on average over a
#: hand's tables and hole cards, 39 KB at most); the pixels are the same.
PALETTE_COMPRESS_LEVEL = 4

#: An adaptive colour this close (on every channel) to a kept one is left out of the palette.
KEPT_SLACK = 6


@lru_cache(maxsize=64)
def _near_kept(keep: tuple[RGB, ...]) -> tuple[tuple[RGB, ...], ...]:
    """For each red level 0-255, the kept colours whose red is within :data:`KEPT_SLACK`.

    The palette filter then compares an adaptive colour with the few kept
    colours near its red only (a set of pictures shares a handful of ``keep``
    tuples: theme, deck style, medals), not with every kept colour.
    """
    return tuple(tuple(k for k in keep if abs(k[0] - red) <= KEPT_SLACK) for red in range(256))


def to_palette_png(img: Image.Image, keep: tuple[RGB, ...] = ()) -> bytes:
    """PNG bytes of the RGB ``img`` with a 256-colour palette, ``keep``'s colours exact.

    The palette is an adaptive one (fast octree) of the picture's colours plus
    ``keep`` (at most 64); each pixel takes its nearest palette colour, without
    dithering (dithering would speckle flat areas and cost bytes). Adaptive
    colours within a few levels of a kept one are left out: Pillow's palette
    lookup is coarse and could otherwise give a kept colour's pixels a
    neighbour one level off. That filter compares each adaptive colour with the
    kept colours near its red only (:func:`_near_kept`): comparing it with every
    kept colour in Python was a third of a table picture's time.
    """
    buf = io.BytesIO()
    img.quantize(palette=palette_of(img, keep), dither=Image.Dither.NONE).save(
        buf, format="PNG", compress_level=PALETTE_COMPRESS_LEVEL)
    return buf.getvalue()


def palette_of(img: Image.Image, keep: tuple[RGB, ...] = ()) -> Image.Image:
    """A 256-colour palette (a 1x1 "P" image) for ``img``: an adaptive one of its colours
    plus ``keep``'s exact (see :func:`to_palette_png`)."""
    keep = keep[:64]
    adaptive = img.quantize(colors=256 - len(keep), method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
    flat = (adaptive.getpalette() or [])[:3 * (256 - len(keep))]
    near = _near_kept(keep)
    colours = [
        rgb for rgb in (tuple(flat[i:i + 3]) for i in range(0, len(flat), 3))
        if not any(abs(rgb[1] - k[1]) <= KEPT_SLACK and abs(rgb[2] - k[2]) <= KEPT_SLACK
                   for k in near[rgb[0]])
    ]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for rgb in (*colours, *keep) for v in rgb])
    return palette


def chips(amount: int) -> str:
    """``12345`` -> ``"12,345"`` (``"12.345"`` in a picture drawn in Portuguese)."""
    return localize_number(f"{amount:,}")


def signed_chips(amount: int, short: bool = False) -> str:
    """A net for a hand: ``"+1,234"``, ``"−10"`` (a minus sign), ``"±0"``;
    ``short``: ``"+1.23M"``."""
    digits = (chips_short if short else chips)(abs(amount))
    return ("+" if amount > 0 else "−" if amount < 0 else "±") + digits


def chips_short(amount: int) -> str:
    """A compact amount for tight spots: ``1234567`` -> ``"1.23M"``, ``45600`` -> ``"45.6K"``."""
    a = abs(amount)
    for unit, scale in (("B", 1_000_000_000), ("M", 1_000_000), ("K", 1_000)):
        if a >= scale:
            v = amount / scale
            digits = 2 if abs(v) < 10 else 1 if abs(v) < 100 else 0
            text = f"{v:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:.0f}"
            return localize_number(text) + unit
    return str(amount)


__all__ = ["PHONE_MIN_PX", "PHONE_WIDTH", "Box", "Canvas", "Placed", "chips", "chips_short",
           "drawable", "inside", "overlaps", "palette_of", "row_width", "signed_chips",
           "text_mask", "to_palette_png", "to_png"]
