"""Results graphs (bot.render.graphs): every point drawn where its value is, in the
reader's numbers, readable on a phone."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.render import GraphLine, GraphMark, GraphPanel, GraphView, render_graphs
from bot.render.canvas import PHONE_MIN_PX, inside
from bot.render.graphs import draw_graphs, panel_boxes, plot_points, ticks
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
    box = panel_boxes(view)[0]
    inner = (box[0] + 12, box[1], box[2] - 12, box[3])
    for line in panel.lines:
        pts = plot_points(panel, inner, line)
        assert len(pts) == len(line.points) + 1
        xs = [x for x, _ in pts]
        assert all(b > a for a, b in itertools.pairwise(xs))
        values = (0, *line.points)
        scale = (pts[0][1] - pts[-1][1]) / (values[-1] - values[0] or 1)
        for (_, y), v in zip(pts, values, strict=True):
            assert y == pytest.approx(pts[0][1] - scale * v, abs=0.01)
    img = load(render_graphs(view))
    line = panel.lines[0]
    x, y = plot_points(panel, inner, line)[len(line.points) // 2]
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
    box = panel_boxes(view)[0]
    inner = (box[0] + 12, box[1], box[2] - 12, box[3])
    first_y = min(y for _, y in plot_points(long, inner, long.lines[0]))
    assert first_y > max(p.extent[3] for p in legend)
    other = panel_boxes(view)[1]
    other_inner = (other[0] + 12, other[1], other[2] - 12, other[3])
    # the same values: the highest is drawn higher where the legend takes one row
    assert min(y for _, y in plot_points(short, other_inner, short.lines[0])) < first_y
