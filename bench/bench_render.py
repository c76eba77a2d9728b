"""Benchmark: rendering the hole-card, table and showdown pictures against plain Pillow.

Run: .venv/bin/python bench/bench_render.py [--runs N]

The peer, measured in the same run, is the least a picture can cost with
Pillow: a canvas of the same size filled with one colour, the same card
bitmaps (taken from the same sprite cache) pasted at the same places, and
the PNG encoded the same way (a 256-colour palette keeping the same colours
exact). Our render also draws the felt, boxes, badges, chips and every text.
Figures are medians over --runs renders, ours and the peer's timed
alternately (the machine is shared), after a warm-up: sprites, fonts and
text masks load once per process; the first, cold render is reported on its
own. The last column is the smallest letter drawn, in pixels once Discord
shows the picture 400 wide on a phone. Targets:
the full 10-seat table within 3x the peer and its PNG under 60 KB (114 KB in
true colour at 1280x860 before issue 9), and no letter under 12 px on a
phone in any picture. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.render import samples
from bot.render.canvas import PHONE_MIN_PX, Canvas, to_palette_png
from bot.render.cardart import card_image
from bot.render.hole import draw_hole_cards
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table
from bot.render.theme import palette

TABLE_RATIO_MAX = 3.0
TABLE_BYTES_MAX = 60_000


def paired_medians(ours: Callable[[], bytes], peer: Callable[[], bytes], runs: int
                   ) -> tuple[float, float]:
    """Median seconds of each, timed alternately so both see the same machine load."""
    a, b = [], []
    for _ in range(runs):
        start = time.perf_counter()
        ours()
        a.append(time.perf_counter() - start)
        start = time.perf_counter()
        peer()
        b.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def baseline(cv: Canvas) -> Callable[[], bytes]:
    """Plain Pillow: paste the same card bitmaps onto a flat canvas and encode the PNG."""
    size = cv.img.size
    background = palette("dark").background
    sprites = [(card_image(p.card, p.extent[3] - p.extent[1], cv.style), p.extent[:2])
               for p in cv.placed if p.kind == "card"]
    keep = cv.keep()

    def run() -> bytes:
        img = Image.new("RGB", size, background)
        for sprite, xy in sprites:
            img.paste(sprite, xy, sprite)
        return to_palette_png(img, keep)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="render benchmark")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)

    cases = [
        ("hole cards (4 + board)", lambda: draw_hole_cards(samples.hole_cards())),
        ("hole cards (6)", lambda: draw_hole_cards(samples.hole_cards_six())),
        ("table, 10 seats", lambda: draw_table(samples.full_table())),
        ("table, 10 seats, hand over", lambda: draw_table(samples.finished_table())),
        ("table, Courchevel 6-max", lambda: draw_table(samples.courchevel_table())),
        ("showdown, 3-way hi-lo", lambda: draw_showdown(samples.showdown())),
        ("showdown, 10-way hi-lo", lambda: draw_showdown(samples.crowded_showdown())),
    ]
    ok = True
    print(f"{'picture':26} {'size':>10} {'cards':>5} {'cold ms':>8} {'ours ms':>8} "
          f"{'peer ms':>8} {'ratio':>6} {'PNG KB':>7} {'min px':>6}")
    for name, draw in cases:
        start = time.perf_counter()
        draw().png()
        cold = time.perf_counter() - start
        cv = draw()
        peer = baseline(cv)
        peer()
        ours_s, peer_s = paired_medians(lambda d=draw: d().png(), peer,  # type: ignore[misc]
                                        args.runs)
        png = cv.png()
        ratio = ours_s / peer_s
        cards = sum(p.kind == "card" for p in cv.placed)
        smallest = min(cv.phone_px(p.size) for p in cv.placed
                       if p.kind == "text" or p.card is not None)
        print(f"{name:26} {cv.img.width:>5}x{cv.img.height:<4} {cards:>5} {cold * 1e3:8.1f} "
              f"{ours_s * 1e3:8.1f} {peer_s * 1e3:8.1f} {ratio:6.2f} {len(png) / 1e3:7.1f} "
              f"{smallest:6.1f}")
        if smallest < PHONE_MIN_PX:
            print(f"  MISSED: {name}: a letter of {smallest:.1f} px on a phone")
            ok = False
        if name == "table, 10 seats":
            if ratio > TABLE_RATIO_MAX:
                print(f"  MISSED: table ratio {ratio:.2f} > {TABLE_RATIO_MAX}")
                ok = False
            if len(png) >= TABLE_BYTES_MAX:
                print(f"  MISSED: table PNG {len(png)} bytes >= {TABLE_BYTES_MAX}")
                ok = False
    print("targets: 10-seat table within 3x the peer and under 60 KB, letters >= 12 px "
          "on a phone:", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
