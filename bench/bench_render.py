"""Benchmark: rendering the table, hole-card and showdown pictures against plain Pillow.

Run: .venv/bin/python bench/bench_render.py [--runs N] [--seed S]

The headline is a changing table: every picture of one real hand (10 seats,
Pot-Limit Omaha Hi-Lo, played by the engine from ``--seed``, see
``hand_views.py``): a picture per turn from the blinds to the river, with its
own board, pots, bets, stacks and player to act, and the result with the
shown hands; and its hole-card pictures (each player's at the deal, and with
the river for those still in). The sample pictures of ``bot.render.samples``
(the longest names, the most chips, the busiest showdowns) follow, each
rendered the same every run.

The peer, measured in the same run, is the least a picture can cost with
Pillow: a canvas of the same size filled with one colour, the same card
bitmaps (taken from the same sprite cache) pasted at the same places, and
the PNG encoded the same way (a 256-colour palette keeping the same colours
exact). Our render also draws the felt, boxes, badges, chips and every text.
Both give the same cards: before timing, every picture's peer is checked to
have our picture's size and, at every pixel of every face-up card, our
picture's colour (card backs are partly covered by the seat boxes in ours),
and both PNGs are decoded back. Each side renders every picture of a case
once per run, taking turns picture by picture (the machine is shared), for
--runs runs each (more for a case of few pictures, so that every side renders
at least 40 pictures); the figure is the median run, per picture. The first,
cold pass of ours over a case (sprites, fonts, text masks not yet cached) is
reported on its own. The last column is the smallest letter drawn, in pixels
once Discord shows the picture 400 wide on a phone. Targets: the changing
10-seat table within 3x the peer and every picture of it under 60 KB, and no
letter under 12 px on a phone in any picture. Exit status 1 when a check
fails or a target is missed.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hand_views import hand_views
from PIL import Image, ImageChops

from bot.render import samples
from bot.render.canvas import PHONE_MIN_PX, Canvas, Placed, to_palette_png
from bot.render.cardart import card_image, faded_card_image
from bot.render.hole import draw_hole_cards
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table
from bot.render.theme import palette

TABLE_RATIO_MAX = 3.0
TABLE_BYTES_MAX = 60_000
HAND_TABLE = "a hand: the 10-seat table"
MIN_RENDERS = 40  # a case of few pictures gets more runs: at least this many renders a side


Draw = Callable[[], Canvas]


@dataclass
class Case:
    name: str
    draws: list[Draw]  # one per picture, in the order they are shown


def timed_runs(ours: list[Callable[[], bytes]], peer: list[Callable[[], bytes]], runs: int
               ) -> tuple[float, float]:
    """Median seconds per picture of each side over ``runs`` runs of every picture.

    The sides take turns picture by picture, so both see the same machine load.
    """
    a, b = [], []
    for _ in range(runs):
        ta = tb = 0.0
        for mine, theirs in zip(ours, peer, strict=True):
            start = time.perf_counter()
            mine()
            ta += time.perf_counter() - start
            start = time.perf_counter()
            theirs()
            tb += time.perf_counter() - start
        a.append(ta / len(ours))
        b.append(tb / len(ours))
    return statistics.median(a), statistics.median(b)


def sprite_of(placed: Placed, cv: Canvas) -> Image.Image:
    """The bitmap our canvas pasted for a card (faded when the hand does not use it)."""
    art = faded_card_image if placed.faded else card_image
    return art(placed.card, placed.extent[3] - placed.extent[1], cv.style)


def baseline(cv: Canvas) -> Callable[[], Image.Image]:
    """Plain Pillow: the same card bitmaps pasted at the same places on a flat canvas."""
    size = cv.img.size
    background = palette("dark").background
    sprites = [(sprite_of(p, cv), p.extent[:2]) for p in cv.placed if p.kind == "card"]

    def run() -> Image.Image:
        img = Image.new("RGB", size, background)
        for sprite, xy in sprites:
            img.paste(sprite, xy, sprite)
        return img

    return run


def same_cards(cv: Canvas, peer: Image.Image) -> str | None:
    """Why the peer's picture does not show our face-up cards exactly, or None."""
    if peer.size != cv.img.size:
        return f"size {peer.size} != ours {cv.img.size}"
    faces = Image.new("L", peer.size, 0)
    for p in cv.placed:
        if p.kind == "card" and p.card is not None:
            sprite = sprite_of(p, cv)
            faces.paste(255, p.extent[:2], sprite.getchannel("A").point(lambda v: 255 * (v == 255)))
    differ = ImageChops.difference(cv.img, peer).convert("L").point(lambda v: 255 * (v > 0))
    bad = ImageChops.multiply(differ, faces).getbbox()
    return None if bad is None else f"card pixels differ in {bad}"


def prepare(draws: list[Draw]) -> tuple[list[Callable[[], bytes]], list[Callable[[], bytes]],
                                         list[Canvas], list[str]]:
    """Per picture: our render, the peer's, our canvas; and the checks that failed."""
    ours, peers, canvases, problems = [], [], [], []
    for i, draw in enumerate(draws):
        cv = draw()
        make = baseline(cv)
        keep = cv.keep()
        why = same_cards(cv, make())
        if why:
            problems.append(f"picture {i + 1}: {why}")
        for png in (cv.png(), to_palette_png(make(), keep)):
            if Image.open(io.BytesIO(png)).size != cv.img.size:
                problems.append(f"picture {i + 1}: a PNG does not decode to its size")
        ours.append(lambda d=draw: d().png())  # type: ignore[misc]
        peers.append(lambda m=make, k=keep: to_palette_png(m(), k))  # type: ignore[misc]
        canvases.append(cv)
    return ours, peers, canvases, problems


def cases(seed: int) -> list[Case]:
    tables, holes = hand_views(seed)
    samples_ = [
        ("hole cards (4 + board)", samples.hole_cards, draw_hole_cards),
        ("hole cards (6)", samples.hole_cards_six, draw_hole_cards),
        ("table, 10 seats", samples.full_table, draw_table),
        ("table, 10 seats, hand over", samples.finished_table, draw_table),
        ("table, Courchevel 6-max", samples.courchevel_table, draw_table),
        ("showdown, 3-way hi-lo", samples.showdown, draw_showdown),
        ("showdown, 10-way hi-lo", samples.crowded_showdown, draw_showdown),
    ]
    return [
        Case(HAND_TABLE, [partial(draw_table, v) for v in tables]),
        Case("a hand: its hole cards", [partial(draw_hole_cards, v) for v in holes]),
        *(Case(f"sample: {name}", [partial(draw, view())])  # type: ignore[operator]
          for name, view, draw in samples_),
    ]


def run_case(case: Case, runs: int) -> list[str]:
    """Measure one case, print its line; return what failed."""
    start = time.perf_counter()
    for draw in case.draws:
        draw().png()
    cold = (time.perf_counter() - start) / len(case.draws)
    ours, peers, canvases, problems = prepare(case.draws)
    runs = max(runs, -(-MIN_RENDERS // len(case.draws)))
    ours_s, peer_s = timed_runs(ours, peers, runs)
    ratio = ours_s / peer_s
    biggest = max(len(cv.png()) for cv in canvases)
    cv = canvases[0]
    smallest = min(cv.phone_px(p.size) for cv in canvases for p in cv.placed
                   if p.kind == "text" or p.card is not None)
    print(f"{case.name:34} {len(case.draws):>4} {runs:>4} {cv.img.width:>5}x{cv.img.height:<4} "
          f"{cold * 1e3:8.1f} {ours_s * 1e3:8.1f} {peer_s * 1e3:8.1f} {ratio:6.2f} "
          f"{biggest / 1e3:7.1f} {smallest:6.1f}")
    if smallest < PHONE_MIN_PX:
        problems.append(f"a letter of {smallest:.1f} px on a phone")
    if case.name == HAND_TABLE:
        if ratio > TABLE_RATIO_MAX:
            problems.append(f"table ratio {ratio:.2f} > {TABLE_RATIO_MAX}")
        if biggest >= TABLE_BYTES_MAX:
            problems.append(f"a table PNG of {biggest} bytes >= {TABLE_BYTES_MAX}")
    return [f"{case.name}: {p}" for p in problems]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="render benchmark")
    parser.add_argument("--runs", type=int, default=5, help="runs over every picture, each side")
    parser.add_argument("--seed", type=int, default=1, help="the first seed tried for the hand")
    args = parser.parse_args(argv)
    print("ours and the peer: median of the runs over each case's pictures, ms per picture;"
          " cold = our first pass; KB = the largest PNG")
    print(f"{'case':34} {'pics':>4} {'runs':>4} {'size':>10} {'cold ms':>8} {'ours ms':>8} "
          f"{'peer ms':>8} {'ratio':>6} {'max KB':>7} {'min px':>6}")
    problems = [p for case in cases(args.seed) for p in run_case(case, args.runs)]
    for problem in problems:
        print("  FAILED: " + problem)
    print("checks: the peer shows every face-up card exactly as ours:",
          "failed" if any("differ" in p or "size" in p for p in problems) else "passed")
    print("targets: the hand's 10-seat table within 3x the peer and under 60 KB, letters "
          ">= 12 px on a phone:", "MISSED" if problems else "met")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
