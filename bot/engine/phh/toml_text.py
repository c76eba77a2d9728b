"""The TOML this package reads and writes.

Reading: :func:`parse_toml` tries :func:`fast_toml`, an exact reader of the
plain subset our writer produces, and falls back on :mod:`tomllib` for
anything else. Writing: :func:`toml_key` and :func:`toml_value` spell one key
or value deterministically (same value, same bytes).
"""

from __future__ import annotations

import datetime
import json
import math
import re
import tomllib
from collections.abc import Iterator

from bot.engine.phh.records import PHHError, TomlValue

__all__ = ["fast_toml", "parse_toml", "toml_key", "toml_value"]


# ---------------------------------------------------------------------------
# Reading

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_SIMPLE_STRING = re.compile(r'"([^"\\\x00-\x1f\x7f]*)"\Z')


def _simple_value(text: str) -> object:
    """A value our writer produces (integer, simple string, bool, one-line list), or raise."""
    if _INTEGER.match(text):
        return int(text)
    found = _SIMPLE_STRING.match(text)
    if found:
        return found.group(1)
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        if not inner:
            return []
        items = [_simple_value(v.strip()) for v in inner.split(",")]
        if any(isinstance(v, list) for v in items):
            raise ValueError("nested list")
        return items
    raise ValueError(text)


def _string_list(lines: Iterator[str]) -> list[object] | None:
    """The items of a multi-line list of strings, one per line up to ``]``; ``None`` if not that.

    ``lines`` is left just after the closing ``]``.
    """
    items: list[object] = []
    for raw_item in lines:
        item = raw_item.strip()
        if item == "]":
            return items
        if not item.endswith(","):
            return None
        found = _SIMPLE_STRING.match(item[:-1])
        if not found or "," in found.group(1) or "]" in found.group(1):
            return None
        items.append(found.group(1))
    return None  # the list never ends


def fast_toml(text: str) -> dict[str, object] | None:
    """Read the plain TOML subset that :func:`~bot.engine.phh.dumps` writes; ``None`` for
    anything else.

    Replays spend much of their time in :func:`tomllib.loads`; the files we
    write use only ``key = value`` lines (integers, strings without escapes,
    booleans, one-line lists) and one multi-line list of strings per hand
    (``actions``), under optional ``[N]`` tables. This reads exactly that and
    gives up (the caller then uses :mod:`tomllib`) on any other construct,
    including everything ambiguous: escapes, duplicate keys, comments after
    values, strings holding commas or brackets.
    """
    root: dict[str, object] = {}
    table = root
    lines = iter(text.split("\n"))
    try:
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):  # a table header: [N]
                name = line[1:-1]
                if not line.endswith("]") or not _BARE_KEY.match(name) or name in root:
                    return None
                table = {}
                root[name] = table
                continue
            key, sep, value = line.partition(" = ")
            if not sep or not _BARE_KEY.match(key) or key in table or "#" in value:
                return None
            if value == "[":  # a multi-line list of strings, one per line
                items = _string_list(lines)
                if items is None:
                    return None
                table[key] = items
                continue
            table[key] = _simple_value(value)
    except ValueError:
        return None
    return root


def parse_toml(text: str) -> dict[str, object]:
    """The TOML document as a dict; :class:`PHHError` if it is not valid TOML."""
    fast = fast_toml(text)
    if fast is not None:
        return fast
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML ({exc})") from None


# ---------------------------------------------------------------------------
# Writing


def toml_key(key: str) -> str:
    if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def _toml_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def toml_value(value: TomlValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _toml_float(value)
    if isinstance(value, str):
        # JSON's escapes are a subset of TOML basic-string escapes.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write {type(value).__name__} to PHH")
