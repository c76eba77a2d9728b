"""The shared slash-command choices: one list, one name per game, offered everywhere."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.engine.variants import VARIANTS, Structure
from cogs.choices import STRUCTURE_CHOICES, VARIANT_CHOICES
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


def test_every_game_and_structure_is_offered_under_the_engine_name() -> None:
    """Each variant appears once, named as the engine names it; each structure once."""
    assert {c.value: c.name for c in VARIANT_CHOICES} == {k: v.name for k, v in VARIANTS.items()}
    assert [c.value for c in STRUCTURE_CHOICES] == [s.value for s in Structure]


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
