"""Writing :class:`HandHistory` records as PHH text: :func:`dumps`, :func:`dumps_all`.

Written by hand rather than by a TOML library so that the output is
deterministic (same hand, same bytes), readable by PokerKit's loader, and in
the plain subset that :func:`~bot.engine.phh.toml_text.fast_toml` reads back.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.phh.records import HandHistory
from bot.engine.phh.toml_text import toml_key, toml_value

__all__ = ["dumps", "dumps_all"]


def _numbers_line(name: str, values: Iterable[int]) -> str:
    return f"{name} = [{', '.join(str(v) for v in values)}]"


def dumps(hh: HandHistory) -> str:
    """The hand as PHH text, one field per line, one action per line."""
    lines = [f"variant = {toml_value(hh.variant)}"]
    lines.append(_numbers_line("antes", hh.antes))
    lines.append(_numbers_line("blinds_or_straddles", hh.blinds_or_straddles))
    for name in ("min_bet", "small_bet", "big_bet"):
        value = getattr(hh, name)
        if value is not None:
            lines.append(f"{name} = {value}")
    lines.append(_numbers_line("starting_stacks", hh.starting_stacks))
    lines.append("actions = [")
    lines.extend(f"  {toml_value(a)}," for a in hh.actions)
    lines.append("]")
    if hh.finishing_stacks is not None:
        lines.append(_numbers_line("finishing_stacks", hh.finishing_stacks))
    if hh.seats is not None:
        lines.append(_numbers_line("seats", hh.seats))
    if hh.players is not None:
        lines.append(f"players = {toml_value(list(hh.players))}")
    lines.extend(f"{toml_key(k)} = {toml_value(v)}" for k, v in hh.extra)
    if hh.hole_cards is not None:
        lines.append(f"_hole_cards = {hh.hole_cards}")
    if hh.courchevel:
        lines.append("_courchevel = true")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Several hands as a ``.phhs`` text: tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{i}]\n{dumps(hh)}" for i, hh in enumerate(hands, 1))
