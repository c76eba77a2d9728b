"""Results graphs: a player's chips over their hands, or over their tournaments.

Made for a phone like the other pictures: 800 pixels wide, no letter under 24
pixels. A :class:`~bot.render.views.GraphView` holds one panel (``/stats``) or
several side by side (``/leaderboard graphs``: the top players). A panel has a
title, a line under it, a legend (each line's colour, name and last value), then
the plot: a zero line, the y axis's amounts in the reader's number style (Babel's
separators through :mod:`bot.render.words`), the x axis counting hands or
tournaments from 0, and each line from 0 through every point (nothing is
averaged away: a line has a vertex per hand). Tournament finishes are marks on
the first line, labelled with the place while they are few enough to read.

How the lines read (issue 31):

* **One scale.** A view with ``shared_scale`` (the leaderboard's players) gives every
  panel the same y span and the same plot height, so -33 is drawn 33/83 as far below
  zero as -83 wherever the two are.
* **Colour by sign, not by hue alone.** The net (or profit) line is cut where it crosses
  zero: above it solid in the theme's money green, below it dashed in its danger red, so
  a colour-blind reader tells winning from losing by the dashes.
* **Every line visible.** The net is drawn first and widest; the showdown (blue, a
  round end) and non-showdown (orange, a square end) lines are drawn over it, thinner,
  so where one runs along the net it shows as a core inside the net's band. The legend
  shows each line's ink, dash and end mark.

:func:`plot_points` gives the pixel of every vertex, so a test can compare the
drawn line with the stored results.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from bot.render import words
from bot.render.canvas import Box, Canvas, chips
from bot.render.fonts import text_width
from bot.render.theme import RGB, DeckStyle, Palette, Theme, palette
from bot.render.views import GraphLine, GraphPanel, GraphView

WIDTH = 800
PAD = 16
TITLE = 30
TEXT = 26
SMALL = 24  # the smallest letters: 12 px when Discord shows the picture 400 wide
HEAD = 56  # the picture's title
GAP = 12
PANEL_H = {1: 460, 2: 400}  # a panel's height by the number of columns
TOP = 3 * 34 + 8  # a panel's title, subtitle and a row of legend, above the plot
LEGEND_ROW = 32  # each more row of legend when the lines' names do not fit one
MOST_MARK_LABELS = 12  # more finishes than this: dots only
SHOWDOWN_INK: RGB = (70, 130, 230)
NO_SHOWDOWN_INK: RGB = (230, 140, 0)  # blue and orange stay apart under every colour blindness
NET_W = 6  # the net's band, under the thinner showdown lines
LINE_W = 3
DASH = (14, 8)  # a losing stretch of the net: drawn, skipped (pixels)

Point = tuple[float, float]


def _ink(line: GraphLine, pal: Palette) -> RGB:
    """A showdown line's ink; the net's by the sign of its last value (the legend's)."""
    if line.kind == "net":
        last = line.points[-1] if line.points else 0
        return pal.money if last >= 0 else pal.danger
    return SHOWDOWN_INK if line.kind == "showdown" else NO_SHOWDOWN_INK


@dataclass(frozen=True, slots=True)
class Plot:
    """Where a panel's plot is and the values it spans."""

    box: Box  # the plotting area
    steps: int  # the x axis goes from 0 to steps
    low: int
    high: int

    def x(self, step: float) -> float:
        return self.box[0] + (self.box[2] - self.box[0]) * step / max(1, self.steps)

    def y(self, value: float) -> float:
        span = max(1, self.high - self.low)
        return self.box[3] - (self.box[3] - self.box[1]) * (value - self.low) / span


def ticks(low: int, high: int, most: int) -> list[int]:
    """Round values between ``low`` and ``high`` (1, 2 or 5 times a power of ten apart),
    at most ``most`` of them."""
    span = max(1, high - low)
    step = 1
    for power in range(19):
        for m in (1, 2, 5):
            step = m * 10 ** power
            if span / step <= most - 1:
                break
        else:
            continue
        break
    start = math.ceil(low / step) * step
    return list(range(start, high + 1, step))


@dataclass(frozen=True, slots=True)
class Scale:
    """The y span a panel's plot shows, and how many legend rows sit above it."""

    low: int
    high: int
    rows: int


def _span(panels: Sequence[GraphPanel]) -> tuple[int, int]:
    """The lowest and highest values ``panels`` show (0 always in), with a margin."""
    values = [v for panel in panels for line in panel.lines for v in line.points]
    low, high = min([0, *values]), max([0, *values])
    margin = max(1, (high - low) // 12)
    return low - (margin if low < 0 else 0), high + margin


def _scales(view: GraphView) -> list[Scale]:
    """Each panel's scale: its own, or with ``shared_scale`` one span and one plot height
    (as many legend rows as the panel that needs most) for all."""
    boxes = [_inner(box) for box in panel_boxes(view)]
    rows = [len(legend_rows(p, box)) for p, box in zip(view.panels, boxes, strict=True)]
    if view.shared_scale:
        low, high = _span(view.panels)
        return [Scale(low, high, max(rows))] * len(view.panels)
    return [Scale(*_span([p]), n) for p, n in zip(view.panels, rows, strict=True)]


def _plot(panel: GraphPanel, box: Box, scale: Scale) -> Plot:
    steps = max((len(line.points) for line in panel.lines), default=0)
    labels = [chips(v) for v in ticks(scale.low, scale.high, 5)]
    left = box[0] + max(text_width(t, SMALL) for t in labels) + 12
    right = box[2] - max(14, text_width(chips(max(1, steps)), SMALL) // 2 + 4)
    top = box[1] + TOP + (scale.rows - 1) * LEGEND_ROW
    return Plot((left, top, right, box[3] - 2 * 30), steps, scale.low, scale.high)


def _inner(box: Box) -> Box:
    """A panel's box less its side margins: where its words and plot go."""
    return (box[0] + 12, box[1], box[2] - 12, box[3])


def plot_of(view: GraphView, i: int) -> Plot:
    """Where panel ``i``'s plot is drawn and the values it spans."""
    return _plot(view.panels[i], _inner(panel_boxes(view)[i]), _scales(view)[i])


def _legend_text(line: GraphLine) -> str:
    last = line.points[-1] if line.points else 0
    return f"{line.label} {'+' if last > 0 else ''}{chips(last)}"


def legend_rows(panel: GraphPanel, box: Box) -> list[list[GraphLine]]:
    """The legend's lines, left to right, a new row when the next does not fit."""
    rows: list[list[GraphLine]] = [[]]
    x = box[0]
    for line in panel.lines:
        width = 24 + text_width(_legend_text(line), SMALL) + 18
        if rows[-1] and x + width > box[2]:
            rows.append([])
            x = box[0]
        rows[-1].append(line)
        x += width
    return rows


def plot_points(view: GraphView, i: int, line: GraphLine) -> list[Point]:
    """The pixel of each vertex of ``line`` in panel ``i``: the start at 0, then one per
    point."""
    plot = plot_of(view, i)
    return [(plot.x(k), plot.y(v)) for k, v in enumerate((0, *line.points))]


def _by_sign(points: Sequence[Point], zero: float) -> list[tuple[bool, list[Point]]]:
    """``points`` (pixels) cut where they cross the height ``zero``: each stretch and
    whether it is at or above zero (a smaller y is higher)."""
    stretches: list[tuple[bool, list[Point]]] = []
    for a, b in pairwise(points):
        cross = (a[1] - zero) * (b[1] - zero) < 0
        pieces = [a, b]
        if cross:
            t = (zero - a[1]) / (b[1] - a[1])
            pieces = [a, (a[0] + t * (b[0] - a[0]), zero), b]
        for p, q in pairwise(pieces):
            up = (p[1] + q[1]) / 2 <= zero
            if stretches and stretches[-1][0] == up:
                stretches[-1][1].append(q)
            else:
                stretches.append((up, [p, q]))
    return stretches


def _dashes(points: Sequence[Point], on: int = DASH[0], off: int = DASH[1]) -> list[list[Point]]:
    """The drawn pieces of ``points`` dashed: ``on`` pixels along the line, ``off`` not."""
    pieces: list[list[Point]] = []
    current, drawing, left = [points[0]], True, float(on)
    for a, b in pairwise(points):
        length, done = math.dist(a, b), 0.0
        while length - done > left:
            done += left
            p = (a[0] + (b[0] - a[0]) * done / length, a[1] + (b[1] - a[1]) * done / length)
            if drawing:
                pieces.append([*current, p])
            current, drawing = [p], not drawing
            left = float(on if drawing else off)
        left -= length - done
        if drawing:
            current.append(b)
    if drawing and len(current) > 1:
        pieces.append(current)
    return pieces


def draw_graphs(view: GraphView, theme: Theme | str = Theme.DARK) -> Canvas:
    """Lay out and draw ``view`` in its locale; the canvas keeps the record of what went
    where."""
    with words.speaking(view.locale):
        return _draw(view, theme)


def panel_boxes(view: GraphView) -> list[Box]:
    """Where each panel goes, row by row."""
    columns = max(1, min(view.columns, 2))
    height = PANEL_H[columns]
    width = (WIDTH - 2 * PAD - (columns - 1) * GAP) // columns
    boxes = []
    for i in range(len(view.panels)):
        x = PAD + (i % columns) * (width + GAP)
        y = HEAD + (i // columns) * (height + GAP)
        boxes.append((x, y, x + width, y + height))
    return boxes


def _draw(view: GraphView, theme: Theme | str) -> Canvas:
    if not view.panels:
        raise ValueError("a graph needs at least one panel")
    pal = palette(theme)
    boxes = panel_boxes(view)
    cv = Canvas(WIDTH, boxes[-1][3] + PAD, pal, DeckStyle.FOUR_COLOUR)
    cv.exact.update((SHOWDOWN_INK, NO_SHOWDOWN_INK))
    cv.text((PAD, HEAD // 2), view.title, TITLE, pal.text, bold=True, anchor="lm",
            limit=(PAD, 0, WIDTH - PAD, HEAD), tag="title")
    for i, (panel, box, scale) in enumerate(zip(view.panels, boxes, _scales(view), strict=True)):
        _draw_panel(cv, panel, box, scale, i)
    return cv


def _draw_panel(cv: Canvas, panel: GraphPanel, box: Box, scale: Scale, i: int) -> None:
    pal = cv.pal
    cv.draw.rounded_rectangle(box, radius=12, fill=pal.panel, outline=pal.panel_edge, width=2)
    inner = _inner(box)
    cv.text((inner[0], box[1] + 22), panel.title, TEXT, pal.text, bold=True, anchor="lm",
            limit=inner, tag=f"panel:{i}")
    cv.text((inner[0], box[1] + 54), panel.subtitle, SMALL, pal.text_dim, anchor="lm",
            limit=inner, tag=f"subtitle:{i}")
    _draw_legend(cv, panel, inner, box[1] + 88, i)
    plot = _plot(panel, inner, scale)
    _draw_axes(cv, panel, plot, inner, i)
    for line in sorted(panel.lines, key=lambda line: line.kind != "net"):  # the net under
        points = [(plot.x(k), plot.y(v)) for k, v in enumerate((0, *line.points))]
        if len(points) < 2:
            continue
        if line.kind == "net":
            _draw_net(cv, points, plot.y(0), NET_W if len(panel.lines) > 1 else LINE_W + 1)
        else:
            cv.draw.line(points, fill=_ink(line, pal), width=LINE_W, joint="curve")
            _end_mark(cv, line, points[-1])
    _draw_marks(cv, panel, plot, i)


def _draw_net(cv: Canvas, points: Sequence[Point], zero: float, width: int) -> None:
    """The net: solid green at or above zero, dashed red below."""
    for up, stretch in _by_sign(points, zero):
        if up:
            cv.draw.line(stretch, fill=cv.pal.money, width=width, joint="curve")
        else:
            for piece in _dashes(stretch):
                cv.draw.line(piece, fill=cv.pal.danger, width=width, joint="curve")


def _end_mark(cv: Canvas, line: GraphLine, at: Point) -> None:
    """A showdown line's end: a round mark, a non-showdown one's a square one."""
    x, y, r = at[0], at[1], 6
    shape = cv.draw.ellipse if line.kind == "showdown" else cv.draw.rectangle
    shape((x - r, y - r, x + r, y + r), fill=_ink(line, cv.pal), outline=cv.pal.panel, width=2)


def _draw_legend(cv: Canvas, panel: GraphPanel, inner: Box, y: int, i: int) -> None:
    """Each line's colour, name and last value, left to right, in as many rows as it takes
    (a name longer than the panel is cut)."""
    pal = cv.pal
    for row in legend_rows(panel, inner):
        x = inner[0]
        for line in row:
            _swatch(cv, line, x, y)
            extent = cv.text((x + 24, y), _legend_text(line), SMALL, pal.text, anchor="lm",
                             limit=(x + 24, y - 16, inner[2], y + 16), tag=f"legend:{i}")
            x = extent[2] + 18
        y += LEGEND_ROW


def _swatch(cv: Canvas, line: GraphLine, x: int, y: int) -> None:
    """A legend's 18 pixels of the line as drawn: its ink, dashes when it loses, its end."""
    ink = _ink(line, cv.pal)
    if line.kind != "net":
        cv.draw.rounded_rectangle((x, y - 2, x + 18, y + 2), radius=2, fill=ink)
        _end_mark(cv, line, (x + 9, y))
    elif ink == cv.pal.money:
        cv.draw.rounded_rectangle((x, y - 3, x + 18, y + 3), radius=2, fill=ink)
    else:
        for left in (x, x + 11):
            cv.draw.rectangle((left, y - 3, left + 7, y + 3), fill=ink)


def _draw_axes(cv: Canvas, panel: GraphPanel, plot: Plot, inner: Box, i: int) -> None:
    """The amounts on the left (with faint guides), the zero line, the steps under."""
    pal = cv.pal
    x0, _, x1, y1 = plot.box
    for v in ticks(plot.low, plot.high, 5):
        y = round(plot.y(v))
        cv.draw.line([(x0, y), (x1, y)], fill=pal.text_dim if v == 0 else pal.panel_edge,
                     width=2 if v == 0 else 1)
        cv.text((x0 - 8, y), chips(v), SMALL, pal.text_dim, anchor="rm",
                limit=(inner[0], y - 16, x0 - 4, y + 16), tag=f"y:{i}")
    room = (x1 - x0) // max(1, text_width(chips(max(1, plot.steps)), SMALL) + 40)
    for s in ticks(0, plot.steps, max(3, min(6, room))):
        x = plot.x(s)
        cv.draw.line([(x, y1), (x, y1 + 6)], fill=pal.text_dim, width=2)
        cv.text((x, y1 + 20), chips(s), SMALL, pal.text_dim, anchor="mm",
                limit=(inner[0], y1 + 6, inner[2], y1 + 34), tag=f"x:{i}")
    cv.text((x1, y1 + 48), panel.x_label, SMALL, pal.text_dim, bold=True, anchor="rm",
            limit=(x0, y1 + 34, inner[2], y1 + 62), tag=f"x-label:{i}")


def _draw_marks(cv: Canvas, panel: GraphPanel, plot: Plot, i: int) -> None:
    """A dot per finish on the first line, its place over it while they are few."""
    if not panel.marks or not panel.lines:
        return
    pal = cv.pal
    first = panel.lines[0].points
    labelled = len(panel.marks) <= MOST_MARK_LABELS
    for mark in panel.marks:
        x, y = plot.x(mark.x), plot.y(first[mark.x - 1])
        ink = pal.money if mark.good else pal.text_dim
        cv.draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=ink, outline=pal.panel, width=2)
        if labelled:
            above = round(y - 22 if y - 40 > plot.box[1] else y + 22)
            cv.text((x, above), mark.label, SMALL, ink, bold=True, anchor="mm",
                    limit=(plot.box[0] - 30, above - 16, plot.box[2] + 14, above + 16),
                    tag=f"mark:{i}")


def render_graphs(view: GraphView, theme: Theme | str = Theme.DARK) -> bytes:
    """PNG of results graphs (see the module's docstring)."""
    return draw_graphs(view, theme).png()


__all__ = ["Plot", "Scale", "draw_graphs", "legend_rows", "panel_boxes", "plot_of", "plot_points",
           "render_graphs", "ticks"]
