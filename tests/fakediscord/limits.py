"""What Discord refuses in a message or a modal, as the fake Discord checks it.

Discord answers a body it refuses with 400, code 50035, ``Invalid Form Body``
and an ``errors`` tree that names each bad field::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

:func:`message_problems` and :func:`modal_problems` return ``(path, code,
message)`` for every refusal; :func:`error_tree` builds that tree (discord.py
prints it as ``In content: Must be 2000 or fewer in length.``). The numbers
are Discord's documented limits, the same ones the bot fits its texts into
(:mod:`bot.adapter.limits`), and emoji are judged by the same rule as the in-process
offline Discord (:func:`bot.offline.refusals.emoji_problem`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.adapter import limits
from bot.offline.commands import error_tree
from bot.offline.refusals import emoji_problem
from bot.offline.uploads import description_problems

Problem = tuple[str, str, str]  # (path, code, message)


def _too_long(path: str, value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _too_many(path: str, items: Any, limit: int) -> list[Problem]:
    if isinstance(items, list) and len(items) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _embed_problems(embeds: Any) -> list[Problem]:
    found = _too_many("embeds", embeds, limits.EMBEDS)
    total = 0
    for i, embed in enumerate(embeds if isinstance(embeds, list) else []):
        if not isinstance(embed, Mapping):
            continue
        here = f"embeds.{i}"
        texts: list[tuple[str, Any, int]] = [
            (f"{here}.title", embed.get("title"), limits.EMBED_TITLE),
            (f"{here}.description", embed.get("description"), limits.EMBED_DESCRIPTION),
            (f"{here}.footer.text", (embed.get("footer") or {}).get("text"), limits.FOOTER),
            (f"{here}.author.name", (embed.get("author") or {}).get("name"), limits.AUTHOR),
        ]
        fields = embed.get("fields") or []
        found += _too_many(f"{here}.fields", fields, limits.EMBED_FIELDS)
        for j, fld in enumerate(fields):
            if isinstance(fld, Mapping):
                texts.append((f"{here}.fields.{j}.name", fld.get("name"), limits.FIELD_NAME))
                texts.append((f"{here}.fields.{j}.value", fld.get("value"), limits.FIELD_VALUE))
        for path, text, limit in texts:
            found += _too_long(path, text, limit)
            total += len(text) if isinstance(text, str) else 0
    if total > limits.EMBED_TOTAL:
        found.append(
            ("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )
    return found


def _component_problems(rows: Any) -> list[Problem]:
    found = _too_many("components", rows, limits.ACTION_ROWS)
    for i, row in enumerate(rows if isinstance(rows, list) else []):
        if not isinstance(row, Mapping):
            continue
        items = row.get("components") or []
        found += _too_many(f"components.{i}.components", items, limits.ROW_ITEMS)
        for j, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            here = f"components.{i}.components.{j}"
            found += _too_long(f"{here}.label", item.get("label"), limits.BUTTON_LABEL)
            found += _too_long(f"{here}.custom_id", item.get("custom_id"), limits.CUSTOM_ID)
            emojis = [(f"{here}.emoji", item.get("emoji"))] + [
                (f"{here}.options.{k}.emoji", option.get("emoji"))
                for k, option in enumerate(item.get("options") or [])
                if isinstance(option, Mapping)
            ]
            for path, value in emojis:
                if value is None:
                    continue
                problem = emoji_problem(value)
                if problem is not None:
                    key, message = problem
                    where = f"{path}.{key}" if key else path
                    found.append((where, "BUTTON_COMPONENT_INVALID_EMOJI", message))
    return found


def message_problems(body: Mapping[str, Any]) -> list[Problem]:
    """Every reason Discord would refuse this message body (create or edit)."""
    found = _too_long("content", body.get("content"), limits.CONTENT)
    if body.get("embeds") is not None:
        found += _embed_problems(body["embeds"])
    if body.get("components") is not None:
        found += _component_problems(body["components"])
    attachments = body.get("attachments")
    if isinstance(attachments, list):
        found += description_problems(
            [a.get("description") for a in attachments if isinstance(a, Mapping)])
    return found


def modal_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every reason Discord would refuse this modal (the callback's ``data``)."""
    found = _too_long("data.title", data.get("title"), limits.MODAL_TITLE)
    found += _too_long("data.custom_id", data.get("custom_id"), limits.CUSTOM_ID)
    rows = data.get("components") or []
    found += _too_many("data.components", rows, limits.ACTION_ROWS)
    for i, row in enumerate(rows):
        children = [row.get("component")] if row.get("component") else row.get("components", [])
        for j, item in enumerate(children):
            if not isinstance(item, Mapping):
                continue
            here = f"data.components.{i}.components.{j}"
            label = item.get("label", row.get("label"))
            found += _too_long(f"{here}.label", label, limits.INPUT_LABEL)
            found += _too_long(
                f"{here}.placeholder", item.get("placeholder"), limits.INPUT_PLACEHOLDER
            )
            found += _too_long(f"{here}.custom_id", item.get("custom_id"), limits.CUSTOM_ID)
    return found


__all__ = ["Problem", "error_tree", "message_problems", "modal_problems"]
