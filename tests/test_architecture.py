"""The house rules of issue 20 on the real tree (``tools/architecture.py`` reads it with ast).

* no import cycle between our modules, imports inside functions counted
  (``if TYPE_CHECKING:`` ones aside): a cycle hidden in a function is still a cycle;
* no module imports another module's private (``_name``) objects, and none reaches
  into another object's private state (``table._kick()``): what others need is public
  and has a docstring. Third-party internals the offline Discord extends are listed
  in :data:`FOREIGN` with the reason;
* no ``import ... as`` of our own modules: one name per idea.

The layers themselves are import-linter's contract in ``pyproject.toml`` (run by
``.ci/run``); ``tests/test_layers.py`` keeps discord.py on the Discord side.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tools.architecture import ROOT, scan

PACKAGES = ("bot", "cogs")

#: ``module: receivers`` whose underscored attributes are not ours: the simcord internals
#: the offline Discord extends (pinned to one version for that), aiosqlite's connection
#: under our PostgreSQL-shaped one, ``os._exit`` and a named tuple's ``_replace``.
FOREIGN: dict[str, frozenset[str]] = {
    "bot.offline.gateway": frozenset({"env", "info", "socket"}),  # discord.py's ShardInfo too
    "bot.offline.harness": frozenset({"env", "result"}),
    "bot.offline.refusals": frozenset({"_messages"}),
    "bot.offline.replies": frozenset({"result"}),
    "bot.offline.routes": frozenset({"_router"}),
    "bot.offline.settling": frozenset({"_settlement"}),
    "bot.offline.thread_states": frozenset({"_messages"}),
    "bot.render": frozenset({"os"}),
    "bot.storage.db": frozenset({"conn"}),
    "bot.storage.postgres": frozenset({"parts"}),
}


def test_no_import_cycle() -> None:
    cycles = scan(ROOT, PACKAGES).cycles
    assert not cycles, "\n".join(", ".join(c) for c in cycles)


def test_no_private_name_of_another_module_is_imported() -> None:
    found = scan(ROOT, PACKAGES).private_imports
    assert not found, "\n".join(f"{p.module}:{p.line} {p.imported}.{p.name}" for p in found)


def test_no_alias_of_our_own_modules() -> None:
    found = scan(ROOT, PACKAGES).aliases
    assert not found, "\n".join(map(str, found))


def private_attributes(source: str) -> Iterator[tuple[int, str]]:
    """``(line, "x._name")`` for every private attribute read or written on something
    other than ``self``/``cls`` (``super()`` and dunders aside)."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id not in ("self", "cls")
        ):
            yield node.lineno, f"{node.value.id}.{node.attr}"


def classes_of(source: str) -> frozenset[str]:
    """The module's own classes (``BettingRound._sized()`` inside its module is its own)."""
    return frozenset(n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef))


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_reaches_into_another_objects_private_state() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = module_of(path)
            source = path.read_text(encoding="utf-8")
            allowed = FOREIGN.get(module, frozenset()) | classes_of(source)
            for line, text in private_attributes(source):
                if text.partition(".")[0] not in allowed:
                    found.append(f"{module}:{line} {text}")
    assert not found, "\n".join(found)


def test_the_private_state_scan_finds_what_it_looks_for() -> None:
    """It catches a helper poking a table, and lets a class's own state through."""
    source = "def f(table):\n    table._kick()\n    self._timer = 1\n    return obj.__class__\n"
    assert list(private_attributes(source)) == [(2, "table._kick")]
