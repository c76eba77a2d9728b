"""Golden pictures: each sample rendered now matches the stored one within a tolerance.

Regenerate after an intended change of the art, then LOOK at the new files:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_golden.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.cards import parse_cards
from bot.render import render_hole_cards, render_leaderboard, render_showdown, render_table, samples
from tests.render.pixels import differing_share, load, mean_diff

GOLDEN = Path(__file__).resolve().parent / "golden"

CASES: dict[str, Callable[[], bytes]] = {
    "table_dark.png": lambda: render_table(samples.full_table(), "dark"),
    "finished_light.png": lambda: render_table(samples.finished_table(), "light"),
    "courchevel_light_two_colour.png": lambda: render_table(
        samples.courchevel_table(), "light", "two_colour"),
    "hole_dark.png": lambda: render_hole_cards(samples.hole_cards(), "dark"),
    "hole6_light.png": lambda: render_hole_cards(samples.hole_cards_six(), "light"),
    "showdown_dark.png": lambda: render_showdown(samples.showdown(), "dark"),
    "leaderboard_light.png": lambda: render_leaderboard(samples.leaderboard(), "light"),
    "holdem_finished_dark.png": lambda: render_table(samples.holdem_table(finished=True), "dark"),
    "holdem_showdown_light.png": lambda: render_showdown(samples.holdem_showdown(), "light"),
}


def matches(new: Image.Image, old: Image.Image) -> bool:
    """Same size, mean difference under 0.5 and under 0.2% of pixels clearly changed.

    The tolerance absorbs anti-aliasing differences between FreeType and
    Pillow builds; one card more or less on the table is well outside it.
    """
    return (new.size == old.size and mean_diff(new, old) < 0.5
            and differing_share(new, old) < 0.002)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(name: str) -> None:
    """The picture matches its golden file within the tolerance."""
    png = CASES[name]()
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(png)
    assert matches(load(png), load(path.read_bytes()))


def test_tolerance_catches_a_real_change() -> None:
    """A fourth board card, or the turn passing to the next seat, is outside the tolerance.

    (Exact texts are checked through the canvas record in the other tests.)
    """
    old = load((GOLDEN / "table_dark.png").read_bytes())
    view = samples.full_table()
    assert matches(load(render_table(view)), old)
    assert not matches(load(render_table(replace(view, board=parse_cards("Ah7d2c9s")))), old)
    assert not matches(load(render_table(replace(view, to_act=2))), old)
