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

:func:`plot_points` gives the pixel of every vertex, so a test can compare the
drawn line with the stored results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def _ink(line: GraphLine, pal: Palette) -> RGB:
    return {"showdown": SHOWDOWN_INK, "no_showdown": pal.danger}.get(line.kind, pal.money)


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


def _bounds(panel: GraphPanel) -> tuple[int, int, int]:
    """The steps and the lowest and highest values the panel shows (0 always in)."""
    values = [v for line in panel.lines for v in line.points]
    steps = max((len(line.points) for line in panel.lines), default=0)
    low, high = min([0, *values]), max([0, *values])
    margin = max(1, (high - low) // 12)
    return steps, low - (margin if low < 0 else 0), high + margin


def _plot(panel: GraphPanel, box: Box) -> Plot:
    steps, low, high = _bounds(panel)
    labels = [chips(v) for v in ticks(low, high, 5)]
    left = box[0] + max(text_width(t, SMALL) for t in labels) + 12
    right = box[2] - max(14, text_width(chips(max(1, steps)), SMALL) // 2 + 4)
    top = box[1] + TOP + (len(legend_rows(panel, box)) - 1) * LEGEND_ROW
    return Plot((left, top, right, box[3] - 2 * 30), steps, low, high)


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


def plot_points(panel: GraphPanel, box: Box, line: GraphLine) -> list[tuple[float, float]]:
    """The pixel of each vertex of ``line`` in a panel drawn in ``box``: the start at 0,
    then one per point."""
    plot = _plot(panel, box)
    return [(plot.x(i), plot.y(v)) for i, v in enumerate((0, *line.points))]


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
    cv.exact.add(SHOWDOWN_INK)
    cv.text((PAD, HEAD // 2), view.title, TITLE, pal.text, bold=True, anchor="lm",
            limit=(PAD, 0, WIDTH - PAD, HEAD), tag="title")
    for i, (panel, box) in enumerate(zip(view.panels, boxes, strict=True)):
        _draw_panel(cv, panel, box, i)
    return cv


def _draw_panel(cv: Canvas, panel: GraphPanel, box: Box, i: int) -> None:
    pal = cv.pal
    cv.draw.rounded_rectangle(box, radius=12, fill=pal.panel, outline=pal.panel_edge, width=2)
    inner = (box[0] + 12, box[1], box[2] - 12, box[3])
    cv.text((inner[0], box[1] + 22), panel.title, TEXT, pal.text, bold=True, anchor="lm",
            limit=inner, tag=f"panel:{i}")
    cv.text((inner[0], box[1] + 54), panel.subtitle, SMALL, pal.text_dim, anchor="lm",
            limit=inner, tag=f"subtitle:{i}")
    _draw_legend(cv, panel, inner, box[1] + 88, i)
    plot = _plot(panel, inner)
    _draw_axes(cv, panel, plot, inner, i)
    for line in reversed(panel.lines):  # the first (the net) on top
        points = [(plot.x(k), plot.y(v)) for k, v in enumerate((0, *line.points))]
        if len(points) > 1:
            cv.draw.line(points, fill=_ink(line, pal), width=3, joint="curve")
    _draw_marks(cv, panel, plot, i)


def _draw_legend(cv: Canvas, panel: GraphPanel, inner: Box, y: int, i: int) -> None:
    """Each line's colour, name and last value, left to right, in as many rows as it takes
    (a name longer than the panel is cut)."""
    pal = cv.pal
    for row in legend_rows(panel, inner):
        x = inner[0]
        for line in row:
            cv.draw.rounded_rectangle((x, y - 4, x + 18, y + 4), radius=3,
                                      fill=_ink(line, pal))
            extent = cv.text((x + 24, y), _legend_text(line), SMALL, pal.text, anchor="lm",
                             limit=(x + 24, y - 16, inner[2], y + 16), tag=f"legend:{i}")
            x = extent[2] + 18
        y += LEGEND_ROW


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


__all__ = ["Plot", "draw_graphs", "legend_rows", "panel_boxes", "plot_points", "render_graphs",
           "ticks"]
