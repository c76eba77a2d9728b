"""Card faces and the card back, drawn by code.

Every shape here is drawn with Pillow primitives (rounded rectangles,
ellipses, polygons) at four times the target size and scaled down, which
gives clean anti-aliased edges at any size. The face follows the style of
online card rooms, made for small screens: a very large rank index in the
top-left corner, a suit symbol under it and a big suit symbol in the
bottom-right corner. Nothing is copied from existing card art.

Sprites are cached per (card, height, style): a size is drawn once per
process. The returned images are shared: paste them, never draw on them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import Card
from bot.render.fonts import index_font
from bot.render.theme import RGB, SUIT_INK, DeckStyle

#: Width / height of a card (poker size, 2.5 x 3.5 inches).
ASPECT = 2.5 / 3.5
SUPERSAMPLE = 4
FACE = (253, 253, 251)
EDGE = (150, 152, 158)
BACK_RED = (150, 26, 44)
BACK_LINE = (186, 62, 78)

Box = tuple[float, float, float, float]


def card_width(height: int) -> int:
    return round(height * ASPECT)


def _tangent(p: tuple[float, float], c: tuple[float, float], r: float, outer_sign: float
             ) -> tuple[float, float]:
    """Point where a line from ``p`` touches the circle (``c``, ``r``), on the outer side."""
    dx, dy = c[0] - p[0], c[1] - p[1]
    d = math.hypot(dx, dy)
    base = math.atan2(-dy, -dx)  # direction from the centre towards p
    delta = math.acos(r / d)
    best = max((base + delta, base - delta),
               key=lambda a: outer_sign * (c[0] + r * math.cos(a)))
    return c[0] + r * math.cos(best), c[1] + r * math.sin(best)


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: Box, fill: RGB) -> None:
    """Draw the suit symbol ``suit`` ("cdhs") filling the square ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def pt(u: float, v: float) -> tuple[float, float]:
        return x0 + u * w, y0 + v * h

    if suit == "d":
        draw.polygon([pt(0.5, 0.0), pt(0.86, 0.5), pt(0.5, 1.0), pt(0.14, 0.5)], fill=fill)
        return
    if suit in "hs":
        # a heart; the spade is a heart upside down with a stem
        r = 0.26
        top = suit == "h"
        cy = 0.30 if top else 0.56
        tip = (0.5, 0.97) if top else (0.5, 0.0)
        left_c, right_c = (0.26, cy), (0.74, cy)
        lt = _tangent(tip, left_c, r, -1.0)
        rt = _tangent(tip, right_c, r, 1.0)
        _circle(draw, *pt(*left_c), r * w, fill)
        _circle(draw, *pt(*right_c), r * w, fill)
        draw.polygon([pt(*lt), pt(*tip), pt(*rt), pt(*right_c), pt(0.5, cy), pt(*left_c)],
                     fill=fill)
        if not top:
            draw.polygon([pt(0.5, 0.62), pt(0.31, 1.0), pt(0.69, 1.0)], fill=fill)
        return
    if suit == "c":
        r = 0.215
        _circle(draw, *pt(0.5, 0.25), r * w, fill)
        _circle(draw, *pt(0.255, 0.58), r * w, fill)
        _circle(draw, *pt(0.745, 0.58), r * w, fill)
        _circle(draw, *pt(0.5, 0.52), 0.14 * w, fill)
        draw.polygon([pt(0.5, 0.5), pt(0.31, 1.0), pt(0.69, 1.0)], fill=fill)
        return
    raise ValueError(f"unknown suit {suit!r}")


def suit_ink(suit: str, style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> RGB:
    return SUIT_INK[DeckStyle(style)][suit]


def rank_text(rank: int) -> str:
    return {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def _blank(w: int, h: int, fill: RGB, edge: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = round(w * 0.075)
    border = max(SUPERSAMPLE, round(h / 110))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=edge)
    draw.rounded_rectangle((border, border, w - 1 - border, h - 1 - border),
                           radius=max(1, radius - border), fill=fill)
    return img, draw


def _draw_rank(draw: ImageDraw.ImageDraw, text: str, x: float, y: float, max_w: float,
               size: int, ink: RGB) -> float:
    """Draw the rank index with its top-left ink at (x, y); return the bottom of the ink."""
    stroke = max(1, round(size / 22))
    f = index_font(size)
    if text == "10":  # tighten "10" so it stays as tall as the other indices
        one = f.getbbox("1", stroke_width=stroke)
        zero = f.getbbox("0", stroke_width=stroke)
        gap = -size * 0.02
        total = (one[2] - one[0]) + gap + (zero[2] - zero[0])
        squeeze = min(1.0, max_w / total)
        one_w = (one[2] - one[0]) * squeeze
        draw.text((x - one[0], y - one[1]), "1", font=f, fill=ink, stroke_width=stroke,
                  stroke_fill=ink)
        draw.text((x + one_w + gap - zero[0] * squeeze - (1 - squeeze) * (one[2] - one[0]),
                   y - zero[1]), "0", font=f, fill=ink, stroke_width=stroke, stroke_fill=ink)
        return y + max(one[3] - one[1], zero[3] - zero[1])
    left, top, _right, bottom = f.getbbox(text, stroke_width=stroke)
    draw.text((x - left, y - top), text, font=f, fill=ink, stroke_width=stroke, stroke_fill=ink)
    return y + (bottom - top)


def _index_size(c: Card, supersampled_height: int) -> int:
    """Font size of the rank index on a face ``supersampled_height`` pixels tall."""
    return round((0.33 if c.rank == 10 else 0.36) * supersampled_height)


def index_px(c: Card | None, height: int) -> float:
    """Font size in pixels of the rank index on the face of ``c`` ``height`` pixels tall
    (0 for a card back, which has no letters)."""
    return 0.0 if c is None else _index_size(c, height * SUPERSAMPLE) / SUPERSAMPLE


def _face(c: Card, height: int, style: DeckStyle) -> Image.Image:
    s = SUPERSAMPLE
    w, h = card_width(height) * s, height * s
    img, draw = _blank(w, h, FACE, EDGE)
    ink = suit_ink(c.suit, style)
    margin = 0.085 * w
    text = rank_text(c.rank)
    size = _index_size(c, h)
    bottom = _draw_rank(draw, text, margin, 0.06 * h, 0.70 * w, size, ink)
    small = 0.23 * w
    sy = bottom + 0.055 * h
    draw_suit(draw, c.suit, (margin, sy, margin + small, sy + small), ink)
    big = 0.50 * w
    bx1, by1 = w - 0.09 * w, h - 0.065 * h
    draw_suit(draw, c.suit, (bx1 - big, by1 - big, bx1, by1), ink)
    return img.resize((w // s, h // s), Image.Resampling.LANCZOS)


def _back(height: int) -> Image.Image:
    s = SUPERSAMPLE
    w, h = card_width(height) * s, height * s
    img, _ = _blank(w, h, FACE, EDGE)
    inset = round(0.075 * w)
    inner = (inset, inset, w - 1 - inset, h - 1 - inset)
    pattern = Image.new("RGBA", (w, h), (*BACK_RED, 255))
    pd = ImageDraw.Draw(pattern)
    step = 0.16 * w
    line = max(s, round(0.018 * w))
    k = float(-h)
    while k < w + h:  # a diagonal lattice
        pd.line((k, 0, k + h, h), fill=BACK_LINE, width=line)
        pd.line((k + h, 0, k, h), fill=BACK_LINE, width=line)
        k += step
    cx, cy, r = w / 2, h / 2, 0.26 * w
    pd.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_RED, outline=FACE, width=line * 2)
    sr = r * 0.55
    draw_suit(pd, "s", (cx - sr, cy - sr * 1.05, cx + sr, cy + sr * 0.95), FACE)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=round(0.05 * w), fill=255)
    img.paste(pattern, (0, 0), mask)
    return img.resize((w // s, h // s), Image.Resampling.LANCZOS)


def card_image(c: Card | None, height: int, style: DeckStyle | str = DeckStyle.FOUR_COLOUR
               ) -> Image.Image:
    """The face of ``c`` (or the back when ``c`` is None), ``height`` pixels tall, RGBA.

    Cached and shared: do not draw on the result.
    """
    if height < 16:
        raise ValueError("cards smaller than 16 pixels cannot be read")
    return _sprite(c, height, DeckStyle.FOUR_COLOUR if c is None else DeckStyle(style))


@lru_cache(maxsize=1024)
def _sprite(c: Card | None, height: int, style: DeckStyle) -> Image.Image:
    return _back(height) if c is None else _face(c, height, style)


@lru_cache(maxsize=512)
def faded_card_image(c: Card | None, height: int,
                     style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Image.Image:
    """:func:`card_image` at 40% opacity (cards a hand does not use)."""
    img = card_image(c, height, style).copy()
    alpha = img.getchannel("A").point(lambda a: a * 2 // 5)
    img.putalpha(alpha)
    return img
