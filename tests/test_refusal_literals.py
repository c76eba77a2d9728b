"""No refusal is raised with a bare English literal (issue 13).

A :class:`bot.runtime.errors.TableError` (and every subclass: ``NotYourTurn``,
``IllegalMove``, ``NoTable``, ``NotSeated``, ``TableSettingsError``,
``MissingChannelPermissions``...), storage's ``TableRecordError`` family (``SeatTaken``,
``InHand``, ``BuyInOutOfRange``, ``UnknownTable``...), its ``TournamentError`` and the
economy's ``EconomyError`` (``InvalidAmount``, ``InsufficientChips``...) reach
a player as a private reply: raised with a :class:`~bot.i18n.Phrase`, they are worded in
the reader's language; raised with a string literal, the reader gets English. This scans
every module of ``bot/`` and ``cogs/`` (not ``bot/offline``, the offline Discord) with
``ast`` for a call of such a class whose message is a string literal or an f-string with
words in it. The called name is resolved in the imported module itself, so a same-named
class that is no refusal (``bot.settings.SettingsError``, a ``.env`` error for the
operator) is not mistaken for one.

Exempt: :class:`~bot.runtime.tournament.settings.TournamentRuleError` raised with a
literal. Those are internal invariants on stored tournament facts ("The hand created or
lost chips."), never a player's doing; a restart that meets one cancels the tournament
and refunds it (``bot/runtime/tournament/restore.py``). The player-caused ones carry a Phrase.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.runtime.errors import TableError
from bot.runtime.tournament.settings import TournamentRuleError
from bot.storage.errors import EconomyError, TableRecordError, TournamentError
from tests.cogs.test_no_english_literals import _fixed_text

ROOT = Path(__file__).resolve().parents[1]
REFUSALS: tuple[type[Exception], ...] = (
    TableError, TableRecordError, TournamentError, EconomyError)
EXEMPT: tuple[type[Exception], ...] = (TournamentRuleError,)
_WORD = re.compile(r"[^\W\d_]{2,}")


def _resolve(func: ast.expr, namespace: Mapping[str, Any]) -> Any:
    """What a called name (``TableError``, ``errors.TableError``) is in ``namespace``."""
    if isinstance(func, ast.Name):
        return namespace.get(func.id)
    if isinstance(func, ast.Attribute):
        owner = _resolve(func.value, namespace)
        return getattr(owner, func.attr, None) if owner is not None else None
    return None


def _is_refusal(value: Any) -> bool:
    return (isinstance(value, type) and issubclass(value, REFUSALS)
            and not issubclass(value, EXEMPT))


def literal_refusals(source: str, namespace: Mapping[str, Any], where: str = "<source>"
                     ) -> list[str]:
    """``where:line: text`` for each refusal raised with a literal message in ``source``,
    its names resolved in ``namespace`` (the module's globals)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not _is_refusal(_resolve(node.func, namespace)):
            continue
        messages = node.args[:1] + [k.value for k in node.keywords if k.arg == "message"]
        for message in messages:
            text = _fixed_text(message)
            if text is not None and _WORD.search(text):
                found.append(f"{where}:{message.lineno}: {text!r}")
    return found


def _modules() -> list[tuple[Path, str]]:
    out = []
    for top in ("bot", "cogs"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "offline" in rel.parts or rel.name == "__main__.py":
                continue
            parts = rel.with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out.append((path, name))
    return out


def test_no_refusal_in_bot_or_cogs_is_raised_with_an_english_literal() -> None:
    modules = _modules()
    assert len(modules) > 100
    found = []
    for path, name in modules:
        namespace = vars(importlib.import_module(name))
        found += literal_refusals(path.read_text(encoding="utf-8"), namespace,
                                  str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_the_scan_finds_what_it_looks_for() -> None:
    """The refusals this test was written for, and what is let through."""
    from bot import settings
    from bot.runtime import errors
    from bot.storage.errors import SeatTaken, UnknownTable

    namespace = {**vars(errors), "errors": errors, "UnknownTable": UnknownTable,
                 "TournamentError": TournamentError, "SeatTaken": SeatTaken,
                 "TournamentRuleError": TournamentRuleError}
    caught = literal_refusals('''
raise NotYourTurn("You have already answered.")
raise TableError(f"Discord refused to open a thread for a table ({exc.status}); try again.")
raise errors.TableError("Multi-table tournaments are not available here.")
raise TournamentError("There is no such tournament.")
raise UnknownTable("That table is closed or does not exist.")
raise SeatTaken(f"Seat {n} is taken.")
raise TableSettingsError("A " + "bad setting")
raise NotSeated(message="You have no seat at this table.")
''', namespace)
    assert len(caught) == 8, caught
    allowed = literal_refusals('''
raise NotYourTurn(Phrase("refuse.run_twice.answered"))
raise TableError(reason)
raise TournamentRuleError("The hand created or lost chips.")
raise SettingsError(".env line 3 is not KEY=value")
raise ValueError("not a refusal")
''', {**namespace, "SettingsError": settings.SettingsError})
    assert allowed == []
