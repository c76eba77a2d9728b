"""The shared slash-command choices: one list, one name per game, offered everywhere."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.adapter import leaderboard
from bot.adapter.choices import STRUCTURE_CHOICES, VARIANT_CHOICES
from bot.engine.variants import VARIANTS, Structure, game_name
from bot.render import LeaderboardView
from tests.conftest import Harness


def test_every_game_and_structure_is_offered_under_the_engine_name() -> None:
    """Each variant appears once, named as the engine names it; each structure once."""
    assert {c.value: c.name for c in VARIANT_CHOICES} == {k: v.name for k, v in VARIANTS.items()}
    assert [c.value for c in STRUCTURE_CHOICES] == [s.value for s in Structure]
    assert [c.name for c in STRUCTURE_CHOICES] == ["Pot Limit", "No Limit", "Fixed Limit"]


def test_a_game_name_is_the_structure_choice_then_the_variant_choice() -> None:
    """game_name() composes the two choice names, for every variant and structure."""
    for v in VARIANT_CHOICES:
        assert game_name(VARIANTS[v.value]) == v.name
        for s in STRUCTURE_CHOICES:
            assert game_name(VARIANTS[v.value], Structure(s.value)) == f"{s.name} {v.name}"


async def test_every_command_offers_the_same_game_names(harness: Harness) -> None:
    """/table create, /table settings, /tournament create, /leaderboard and /stats agree."""
    seen: dict[str, list[app_commands.Choice[str]]] = {}
    for command in harness.bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                if param.name in ("variant", "structure"):
                    seen[f"{command.qualified_name} {param.name}"] = list(param.choices)
    assert {
        "table create variant", "table settings variant", "tournament create variant",
        "leaderboard variant", "stats variant", "table create structure",
        "tournament create structure",
    } <= set(seen)
    for where, choices in seen.items():
        expected = VARIANT_CHOICES if where.endswith("variant") else STRUCTURE_CHOICES
        assert choices == expected, where


async def test_one_name_per_game_in_every_answer(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The names /table create offers are the ones /table info, /tournament create and
    info, /stats and /leaderboard show for that game."""
    h = harness
    variant = next(c for c in VARIANT_CHOICES if c.value == "omaha_hilo")
    structure = next(c for c in STRUCTURE_CHOICES if c.value == "fixed limit")
    full = f"{structure.name} {variant.name}"  # "Fixed Limit Omaha Hi-Lo"

    created = await h.slash(h.alice, "table create", variant=variant.value,
                            structure=structure.value)
    assert f"**{full} 1/2**" in created.text, created
    assert full in (await h.slash(h.bob, "table info")).text
    sng = h.add_channel("sng")
    opened = await h.slash(h.bob, "tournament create", channel=sng, buy_in=100,
                           variant=variant.value, structure=structure.value)
    assert f": {full} · buy-in" in opened.text, opened
    assert f": {full} · buy-in" in (await h.slash(h.bob, "tournament info", channel=sng)).text

    stats = await h.slash(h.alice, "stats", variant=variant.value)
    assert [e.title for e in stats.embeds] == [f"alice: {variant.name}"]

    shown: list[LeaderboardView] = []
    real = leaderboard.render_leaderboard_async

    async def spy(view: LeaderboardView, *args: Any, **kwargs: Any) -> bytes:
        shown.append(view)
        png: bytes = await real(view, *args, **kwargs)
        return png

    monkeypatch.setattr(leaderboard, "render_leaderboard_async", spy)
    board = await h.slash(h.alice, "leaderboard", metric="net_won", variant=variant.value)
    assert await board.images()
    [view] = shown
    assert view.subtitle.split(" · ")[1] == variant.name, view.subtitle
