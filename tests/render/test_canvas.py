"""The canvas: cached text masks draw what Pillow draws, and the record is right."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from bot.render.canvas import Canvas, chips, chips_short, text_mask, to_png
from bot.render.fonts import font
from bot.render.theme import DeckStyle, Theme, palette


def test_cached_text_mask_draws_the_same_pixels_as_imagedraw() -> None:
    """Pasting the cached mask gives Pillow's own text pixels (off by at most 1 level)."""
    pal = palette(Theme.DARK)
    for bold in (False, True):
        cv = Canvas(400, 80, pal, DeckStyle.FOUR_COLOUR)
        cv.text((20, 40), "Bob the Builder 1,234", 28, (250, 196, 60), bold=bold, anchor="lm",
                limit=(0, 0, 400, 80))
        ref = Image.new("RGB", (400, 80), pal.background)
        ImageDraw.Draw(ref).text((20, 40), "Bob the Builder 1,234", font=font(28, bold),
                                 fill=(250, 196, 60), anchor="lm")
        diff = ImageChops.difference(cv.img, ref).getextrema()
        assert max(hi for _, hi in diff) <= 1


def test_text_record_is_the_inked_box_and_masks_are_cached() -> None:
    """The recorded extent holds all the ink; the same text reuses one mask."""
    pal = palette(Theme.LIGHT)
    cv = Canvas(300, 60, pal, DeckStyle.FOUR_COLOUR)
    ext = cv.text((150, 30), "Pot 1,250", 30, (0, 0, 0), bold=True, anchor="mm",
                  limit=(0, 0, 300, 60))
    ink = ImageChops.difference(cv.img, Image.new("RGB", (300, 60), pal.background)).getbbox()
    assert ink is not None
    assert ext[0] <= ink[0] and ext[1] <= ink[1] and ext[2] >= ink[2] and ext[3] >= ink[3]
    assert text_mask("Pot 1,250", 30, True, "mm") is text_mask("Pot 1,250", 30, True, "mm")


def test_amounts_are_formatted_for_people() -> None:
    """Thousands separators, and a compact form for tight spots."""
    assert chips(1234567) == "1,234,567"
    assert chips_short(1_234_567) == "1.23M"
    assert chips_short(45_600) == "45.6K"
    assert chips_short(120_000) == "120K"
    assert chips_short(999) == "999"
    assert chips_short(2_000_000_000) == "2B"


def test_palette_png_keeps_the_theme_colours_exact_and_costs_a_third() -> None:
    """A table picture as a palette PNG: the kept colours come back exactly (a plain
    fast-octree palette drifts them, even the background), every pixel stays within a
    few levels, and the bytes are at most 40% of true colour."""
    from bot.render.samples import full_table
    from bot.render.table import draw_table
    from tests.render.pixels import load, mean_diff

    cv = draw_table(full_table())
    png = cv.png()
    img = load(png)
    assert png[25] == 3  # colour type 3: a palette
    assert mean_diff(img, cv.img) < 1.0
    original = {c for _, c in cv.img.getcolors(1 << 20) or []}
    present = [c for c in cv.keep() if c in original]
    assert len(present) >= 8
    grid = [(x, y) for y in range(0, cv.img.height, 5) for x in range(0, cv.img.width, 5)]
    for colour in present:
        spots = [xy for xy in grid if cv.img.getpixel(xy) == colour]
        assert all(img.getpixel(xy) == colour for xy in spots), colour
    drift = cv.img.quantize(256, method=Image.Quantize.FASTOCTREE).convert("RGB")
    assert drift.getpixel((2, 2)) != cv.pal.background
    assert len(png) <= 0.4 * len(to_png(cv.img))


def test_palette_leaves_out_exactly_the_adaptive_colours_near_a_kept_one() -> None:
    """The PNG's palette is the fast-octree colours, less those within 6 levels of a kept
    colour on every channel, then the kept colours: the same palette as comparing every
    adaptive colour with every kept one (the filter only looks at kept colours near its red)."""
    from bot.render.samples import full_table
    from bot.render.table import draw_table

    cv = draw_table(full_table())
    keep = cv.keep()
    assert len(keep) > 8
    adaptive = cv.img.quantize(colors=256 - len(keep), method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE).getpalette() or []
    rgbs = [tuple(adaptive[i:i + 3]) for i in range(0, 3 * (256 - len(keep)), 3)]
    wanted = [c for c in rgbs
              if not any(max(abs(a - b) for a, b in zip(c, k, strict=True)) <= 6 for k in keep)]
    assert len(wanted) < len(rgbs), "no adaptive colour was near a kept one: nothing tested"
    png = Image.open(io.BytesIO(cv.png()))
    flat = png.getpalette() or []
    got = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)][:len(wanted) + len(keep)]
    assert got == [*wanted, *keep]
