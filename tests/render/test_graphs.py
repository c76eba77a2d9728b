"""Results graphs (bot.render.graphs): every point drawn where its value is, in the
reader's numbers, readable on a phone."""

from __future__ import annotations

import itertools
import random
import statistics

import pytest
from PIL import Image

from bot.render import GraphLine, GraphMark, GraphPanel, GraphView, render_graphs
from bot.render.canvas import PHONE_MIN_PX, inside
from bot.render.graphs import (
    NO_SHOWDOWN_INK,
    SHOWDOWN_INK,
    draw_graphs,
    panel_boxes,
    plot_of,
    plot_points,
    ticks,
)
from bot.render.theme import palette
from tests.render.pixels import load


def _panel(steps: int, seed: int = 1) -> GraphPanel:
    r = random.Random(seed)
    nets = [r.randint(-80, 90) for _ in range(steps)]
    return GraphPanel("Cash games · all games", f"{steps} hands · All time", "Hands", (
        GraphLine("Net", tuple(itertools.accumulate(nets))),
        GraphLine("At showdown", tuple(itertools.accumulate(n if n % 2 else 0 for n in nets)),
                  "showdown"),
    ))


@pytest.mark.parametrize(("low", "high", "most"), [(0, 7, 5), (-1234, 98_765, 5), (-5, 0, 3),
                                                   (0, 1, 5), (-10**9, 10**9, 6)])
def test_ticks_are_round_and_within_the_range(low: int, high: int, most: int) -> None:
    found = ticks(low, high, most)
    assert found and len(found) <= most
    assert all(low <= t <= high for t in found)
    step = found[1] - found[0] if len(found) > 1 else 1
    assert str(step).lstrip("0")[0] in "125" and set(str(step)[1:]) <= {"0"}


def test_each_point_is_drawn_at_its_value() -> None:
    """The vertices run left to right a step apart, and their heights keep the values'
    order and proportions: a line can be read back into its points."""
    panel = _panel(300)
    view = GraphView("Ana: results", (panel,))
    for line in panel.lines:
        pts = plot_points(view, 0, line)
        assert len(pts) == len(line.points) + 1
        xs = [x for x, _ in pts]
        assert all(b > a for a, b in itertools.pairwise(xs))
        values = (0, *line.points)
        scale = (pts[0][1] - pts[-1][1]) / (values[-1] - values[0] or 1)
        for (_, y), v in zip(pts, values, strict=True):
            assert y == pytest.approx(pts[0][1] - scale * v, abs=0.01)
    img = load(render_graphs(view))
    line = panel.lines[0]
    x, y = plot_points(view, 0, line)[len(line.points) // 2]
    near = [img.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(p[1] > 150 and p[0] < 150 for p in near)  # the net line's green is there


def test_numbers_speak_the_readers_language_and_read_on_a_phone() -> None:
    panel = GraphPanel("Sit and gos", "3 jogados", "Torneios",
                       (GraphLine("Lucro", (-1500, 2500, 12_000)),),
                       tuple(GraphMark(i + 1, f"{p}º", p == 1) for i, p in enumerate((4, 1, 1))))
    for locale, thousands in (("pt-BR", "10.000"), ("en", "10,000")):
        cv = draw_graphs(GraphView("Ana: resultados", (panel, _panel(40)), locale=locale))
        texts = {p.text for p in cv.placed if p.tag.startswith("y:")}
        assert thousands in texts
        assert {"4º", "1º"} <= {p.text for p in cv.placed if p.tag.startswith("mark:")}
        for p in cv.placed:
            assert cv.phone_px(p.size) >= PHONE_MIN_PX, p
            assert inside(p.extent, p.limit) and inside(p.extent, cv.bounds), p


def test_the_top_players_side_by_side() -> None:
    view = GraphView("Net won · top 4", tuple(_panel(50, s) for s in range(4)), columns=2)
    boxes = panel_boxes(view)
    assert boxes[0][1] == boxes[1][1] and boxes[0][2] < boxes[1][0]
    assert boxes[2][1] > boxes[0][3]
    cv = draw_graphs(view)
    assert inside(boxes[-1], cv.bounds)
    assert [p.text for p in cv.placed if p.tag.startswith("panel:")] == [
        "Cash games · all games"] * 4


def test_a_legend_too_long_for_one_row_takes_two_and_the_plot_moves_down() -> None:
    """Three long names in a narrow panel: every name and value is drawn whole, over two
    rows or more, and the plot starts under the last row."""
    long = GraphPanel("Mesas a dinheiro · Big O", "1.234 mãos", "Mãos", tuple(
        GraphLine(name, (12_345, -9_876), kind) for name, kind in (
            ("Saldo líquido", "net"), ("No showdown", "showdown"),
            ("Sem showdown", "no_showdown"))))
    short = GraphPanel("x", "y", "Mãos", (GraphLine("Neto", (12_345, -9_876)),))
    view = GraphView("Top", (long, short), columns=2, locale="pt-BR")
    cv = draw_graphs(view)
    legend = [p for p in cv.placed if p.tag == "legend:0"]
    assert [p.text for p in legend] == ["Saldo líquido -9.876", "No showdown -9.876",
                                        "Sem showdown -9.876"]
    assert len({p.extent[1] for p in legend}) >= 2
    first_y = min(y for _, y in plot_points(view, 0, long.lines[0]))
    assert first_y > max(p.extent[3] for p in legend)
    # the same values: the highest is drawn higher where the legend takes one row
    assert min(y for _, y in plot_points(view, 1, short.lines[0])) < first_y


def _pixels(img: Image.Image, box: tuple[float, float, float, float],
            ink: tuple[int, int, int]) -> list[tuple[int, int]]:
    """Where ``ink`` is inside ``box`` of ``img``."""
    return [(x, y) for x in range(round(box[0]), round(box[2]))
            for y in range(round(box[1]), round(box[3])) if img.getpixel((x, y)) == ink]


def _flat(label: str, value: int) -> GraphPanel:
    """A net that drops to ``value`` at the first hand and stays there."""
    return GraphPanel(label, "10 hands", "Hands", (GraphLine("Net", (value,) * 10),))


@pytest.mark.parametrize("shared", [True, False])
def test_side_by_side_panels_share_one_scale(shared: bool) -> None:
    """-33 beside -83: on one scale the drawn depths below zero are as 33 to 83 (each
    measured on the picture's red pixels); on their own scales both look as deep."""
    view = GraphView("Top", (_flat("1. bob", -33), _flat("2. dave", -83)), columns=2,
                     shared_scale=shared)
    img = load(render_graphs(view))
    red = palette("dark").danger
    depths = []
    for i in range(2):
        plot = plot_of(view, i)
        x0, y0, x1, y1 = plot.box
        ys = [y for _, y in _pixels(img, (x0 + (x1 - x0) / 2, y0, x1, y1), red)]
        depths.append(statistics.median(ys) - plot.y(0))
    ratio = depths[1] / depths[0]
    if shared:
        assert plot_of(view, 0).y(0) == plot_of(view, 1).y(0)
        assert ratio == pytest.approx(83 / 33, rel=0.03), depths
    else:  # the fault issue 31 reported: -33 drawn as steep as -83
        assert ratio == pytest.approx(1, rel=0.1), depths


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_net_is_green_and_solid_above_zero_red_and_dashed_below(theme: str) -> None:
    pts = (60,) * 8 + (-60,) * 8
    view = GraphView("Ana", (GraphPanel("Cash", "16 hands", "Hands", (GraphLine("Net", pts),)),))
    img = load(render_graphs(view, theme))
    pal = palette(theme)
    plot = plot_of(view, 0)
    up, down = round(plot.y(60)), round(plot.y(-60))
    above = [img.getpixel((x, up)) for x in range(round(plot.x(2)), round(plot.x(7)))]
    below = [img.getpixel((x, down)) for x in range(round(plot.x(10)), round(plot.x(15)))]
    assert set(above) == {pal.money}  # solid
    assert pal.danger in below and pal.money not in below
    assert below.count(pal.danger) < 0.8 * len(below)  # dashed: gaps between the dashes
    legend = [p for p in draw_graphs(view, theme).placed if p.tag == "legend:0"]
    assert [p.text for p in legend] == ["Net -60"]
    lx = round(legend[0].extent[0]) - 24  # the swatch left of the name: red, dashed
    swatch = [img.getpixel((x, round((legend[0].extent[1] + legend[0].extent[3]) / 2)))
              for x in range(lx, lx + 18)]
    assert pal.danger in swatch and pal.money not in swatch


def test_the_showdown_lines_show_where_they_run_along_the_net() -> None:
    """Every hand went to showdown: 'At showdown' is the net, point for point, and
    'Without showdown' stays on zero; both are still seen, over the net's band."""
    pts = tuple(itertools.accumulate((40, -10, 30, 25, -5, 60) * 5))
    panel = GraphPanel("Cash", "30 hands", "Hands", (
        GraphLine("Net", pts), GraphLine("At showdown", pts, "showdown"),
        GraphLine("Without showdown", (0,) * len(pts), "no_showdown")))
    view = GraphView("Ana", (panel,))
    img = load(render_graphs(view))
    plot = plot_of(view, 0)
    pal = palette("dark")
    seen = {ink: len(_pixels(img, plot.box, ink))
            for ink in (pal.money, SHOWDOWN_INK, NO_SHOWDOWN_INK)}
    assert all(n > 200 for n in seen.values()), seen
    for x, y in plot_points(view, 0, panel.lines[1])[3:-1:4]:  # the blue on the net's line
        column = [img.getpixel((round(x), round(y) + d)) for d in range(-4, 5)]
        assert SHOWDOWN_INK in column and pal.money in column, (x, y, column)
