"""Message and modal bodies at Discord's limits and one step over, for both offline Discords.

Each case is ``(name, at_limit, over_limit, field)``: Discord accepts the
first body and refuses the second with 400, code 50035 (Invalid Form Body),
naming ``field`` in its answer. ``tests/cogs/test_refusals.py`` sends them
through the in-process offline Discord, ``tests/test_fake_discord.py``
through the process-level fake.
"""

from __future__ import annotations

from typing import Any

Body = dict[str, Any]


def _button(n: int = 0, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": f"b{n}", "custom_id": f"id{n}", **extra}


def _rows(rows: int, per_row: int = 1) -> list[dict[str, Any]]:
    return [
        {"type": 1, "components": [_button(r * 10 + i) for i in range(per_row)]}
        for r in range(rows)
    ]


def _embed(**fields: Any) -> Body:
    return {"embeds": [{"type": "rich", **fields}]}


def _field(name: str = "n", value: str = "v") -> dict[str, Any]:
    return {"name": name, "value": value, "inline": False}


MESSAGE_CASES: list[tuple[str, Body, Body, str]] = [
    ("content", {"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    (
        "embed count",
        {"embeds": [{"title": "t"}] * 10},
        {"embeds": [{"title": "t"}] * 11},
        "embeds",
    ),
    ("embed title", _embed(title="t" * 256), _embed(title="t" * 257), "title"),
    (
        "embed description",
        _embed(description="d" * 4096),
        _embed(description="d" * 4097),
        "description",
    ),
    (
        "field name",
        _embed(fields=[_field(name="n" * 256)]),
        _embed(fields=[_field(name="n" * 257)]),
        "name",
    ),
    (
        "field value",
        _embed(fields=[_field(value="v" * 1024)]),
        _embed(fields=[_field(value="v" * 1025)]),
        "value",
    ),
    ("field count", _embed(fields=[_field()] * 25), _embed(fields=[_field()] * 26), "fields"),
    (
        "footer",
        _embed(footer={"text": "f" * 2048}),
        _embed(footer={"text": "f" * 2049}),
        "footer",
    ),
    (
        "author name",
        _embed(author={"name": "a" * 256}),
        _embed(author={"name": "a" * 257}),
        "author",
    ),
    (
        "embeds total",
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000}]},
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3001}]},
        "embeds",
    ),
    (
        "action rows",
        {"content": "c", "components": _rows(5)},
        {"content": "c", "components": _rows(6)},
        "components",
    ),
    (
        "buttons per row",
        {"content": "c", "components": _rows(1, per_row=5)},
        {"content": "c", "components": _rows(1, per_row=6)},
        "components",
    ),
    (
        "button label",
        {"content": "c", "components": [{"type": 1, "components": [_button(label="l" * 80)]}]},
        {"content": "c", "components": [{"type": 1, "components": [_button(label="l" * 81)]}]},
        "label",
    ),
    (
        "custom id",
        {"content": "c", "components": [{"type": 1, "components": [_button(custom_id="i" * 100)]}]},
        {"content": "c", "components": [{"type": 1, "components": [_button(custom_id="i" * 101)]}]},
        "custom_id",
    ),
    (
        "button emoji",
        {"content": "c", "components": [
            {"type": 1, "components": [_button(emoji={"name": "🃏", "id": None})]}
        ]},
        {"content": "c", "components": [
            {"type": 1, "components": [_button(emoji={"name": "🂠", "id": None})]}
        ]},
        "emoji",
    ),
    (
        "custom emoji",
        {"content": "c", "components": [
            {"type": 1, "components": [_button(emoji={"name": "chip_stack", "id": "1234567"})]}
        ]},
        {"content": "c", "components": [
            {"type": 1, "components": [_button(emoji={"name": "chip stack", "id": "12x"})]}
        ]},
        "emoji",
    ),
    (
        "select option emoji",
        {"content": "c", "components": [{"type": 1, "components": [{
            "type": 3, "custom_id": "pick",
            "options": [{"label": "Spades", "value": "s", "emoji": {"name": "♠️"}}],
        }]}]},
        {"content": "c", "components": [{"type": 1, "components": [{
            "type": 3, "custom_id": "pick",
            "options": [{"label": "Ace", "value": "a", "emoji": {"name": "🂡"}}],
        }]}]},
        "emoji",
    ),
]


def modal(
    title: str = "Raise to", label: str = "Raise to: 4 to 12", placeholder: str = "4"
) -> Body:
    """A modal callback's ``data`` with one text input (as discord.py sends it)."""
    return {
        "custom_id": "raise-form",
        "title": title,
        "components": [{"type": 1, "components": [{
            "type": 4, "custom_id": "amount", "style": 1, "label": label,
            "placeholder": placeholder, "required": True,
        }]}],
    }


MODAL_CASES: list[tuple[str, Body, Body, str]] = [
    ("modal title", modal(title="t" * 45), modal(title="t" * 46), "title"),
    ("input label", modal(label="l" * 45), modal(label="l" * 46), "label"),
    (
        "input placeholder",
        modal(placeholder="p" * 100),
        modal(placeholder="p" * 101),
        "placeholder",
    ),
]
