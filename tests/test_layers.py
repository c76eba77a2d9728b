"""The layering of DESIGN.md, read from every module's imports (with ast, not by grep).

* only the Discord side imports discord.py (or simcord, its offline stand-in):
  the extensions in ``cogs/``, the adapter in ``bot/adapter/``, the offline
  Discord in ``bot/offline/``, ``bot/client.py`` and ``bot/__main__.py``;
* ``bot/engine/`` imports only the standard library and itself;
* nothing shipped (``bot/``, ``cogs/``) imports ``tests``: an installed
  package has no tests, so ``python -m bot demo`` and the bot must not need them;
* ``cogs/`` holds extensions only (each module has ``async def setup``) and only
  ``bot/client.py`` imports them: what the adapter needs lives in ``bot/adapter/``.

Imports inside functions and ``if TYPE_CHECKING:`` blocks count too.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("bot", "cogs")
DISCORD_ALLOWED = ("cogs", "bot.adapter", "bot.offline", "bot.client", "bot.__main__")
DISCORD_PACKAGES = ("discord", "simcord")
COGS_ALLOWED = ("cogs", "bot.client")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts)


def imported(source: str, module: str, *, is_package: bool = False) -> Iterator[tuple[str, int]]:
    """``(absolute name, line)`` of every import in ``source``, the text of ``module``."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield name, node.lineno
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value, node.lineno


def top(name: str) -> str:
    return name.partition(".")[0]


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def violations(module: str, source: str, *, is_package: bool = False) -> list[str]:
    """Every import in ``source`` that breaks a layer rule, as ``module:line: reason``."""
    found = []
    for name, line in imported(source, module, is_package=is_package):
        where = f"{module}:{line}"
        if top(name) == "tests":
            found.append(f"{where}: imports {name} (shipped code must not need the tests)")
        if top(name) in DISCORD_PACKAGES and not within(module, DISCORD_ALLOWED):
            found.append(f"{where}: imports {name} (only the Discord side may)")
        if top(name) == "cogs" and not within(module, COGS_ALLOWED):
            found.append(f"{where}: imports {name} (only bot/client.py loads the extensions)")
        if (
            within(module, ("bot.engine",))
            and top(name) not in sys.stdlib_module_names
            and not within(name, ("bot.engine",))
        ):
            found.append(f"{where}: imports {name} (the engine uses the standard library only)")
    return found


def shipped_modules() -> list[Path]:
    return sorted(p for package in SHIPPED for p in (ROOT / package).rglob("*.py"))


def test_every_shipped_module_keeps_to_its_layer() -> None:
    """No module of bot/ or cogs/ imports tests, discord out of its layer, non-stdlib in engine."""
    paths = shipped_modules()
    # the walk reaches subpackages
    assert any(p.parts[-2:] == ("offline", "harness.py") for p in paths)
    bad = [
        problem
        for path in paths
        for problem in violations(
            module_name(path).removesuffix(".__init__"),
            path.read_text(encoding="utf-8"),
            is_package=path.name == "__init__.py",
        )
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source", "reason"),
    [
        ("bot.demo", "from tests.conftest import Harness", "must not need the tests"),
        ("bot.offline.harness", "def f():\n    import tests.fakediscord", "need the tests"),
        ("bot.demo", "import importlib\nimportlib.import_module('tests.conftest')", "the tests"),
        ("bot.runtime.table.live", "if TYPE_CHECKING:\n    import discord", "the Discord side"),
        ("bot.demo", "from simcord import Env", "the Discord side"),
        ("bot.engine.hand", "from PIL import Image", "standard library only"),
        ("bot.engine.hand", "from bot.storage import Database", "standard library only"),
        ("bot.engine.pots", "from .. import render", "standard library only"),
        ("bot.adapter.views", "from cogs.errors import report", "loads the extensions"),
        ("bot.offline.harness", "def f():\n    import cogs.table", "loads the extensions"),
    ],
)
def test_a_forbidden_import_is_caught(module: str, source: str, reason: str) -> None:
    """The check fails on each kind of forbidden import (so it cannot pass vacuously)."""
    [problem] = violations(module, source)
    assert reason in problem and problem.startswith(f"{module}:")


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("cogs.table", "import discord\nfrom discord.ext import commands"),
        ("bot.offline.harness", "import simcord"),
        ("bot.adapter.presenter", "import discord"),
        ("bot.client", "import discord"),
        ("bot.client", "from cogs.channel_loss import ChannelLoss"),
        ("cogs.table", "from cogs.hands import OpenHandButton"),
        ("bot.engine.hand", "import itertools\nfrom bot.engine.cards import Card"),
        ("bot.engine.hand", "from . import pots\nfrom .events import Action"),
        ("bot.render.table", "from PIL import Image"),
    ],
)
def test_an_allowed_import_passes(module: str, source: str) -> None:
    """discord on the Discord side, stdlib and itself in the engine, Pillow in render."""
    assert violations(module, source) == []


def is_extension(source: str) -> bool:
    """The module defines ``async def setup`` at its top level (discord.py loads it)."""
    return any(
        isinstance(node, ast.AsyncFunctionDef) and node.name == "setup"
        for node in ast.parse(source).body
    )


def test_every_module_in_cogs_is_an_extension() -> None:
    """cogs/ holds discord.py extensions only; helpers live in bot/adapter/."""
    paths = sorted((ROOT / "cogs").glob("*.py"))
    assert any(p.name == "errors.py" for p in paths)
    bad = [p.name for p in paths
           if p.name != "__init__.py" and not is_extension(p.read_text(encoding="utf-8"))]
    assert not bad, f"not extensions: {bad}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("async def setup(bot):\n    pass\n", True),
        ("def setup(bot):\n    pass\n", False),
        ("class C:\n    async def setup(self):\n        pass\n", False),
        ("PUBLIC = 1\n", False),
    ],
)
def test_an_extension_is_told_from_a_helper_module(source: str, expected: bool) -> None:
    assert is_extension(source) is expected
