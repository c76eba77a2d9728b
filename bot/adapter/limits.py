"""Discord's size limits, and fitting the bot's texts inside them.

Discord refuses a whole message (HTTP 400, code 50035) when one part of it is
too long: the result of a ten-way hi-lo hand with long names would simply not
appear. Everything the bot writes from player-controlled or unbounded data
(names, reasons, one line per seat or per pot share) goes through these
helpers on its way out:

* :func:`fit_message` keeps whole lines from the top and, when they do not all
  fit, ends with ``… and 4 more lines`` (a line longer than the limit on its
  own is cut with ``…``);
* :func:`fit_text` is the same for a text already joined with newlines;
* :func:`clip` shortens a single name or phrase to a length, ending in ``…``.

The numbers are Discord's documented limits
(https://discord.com/developers/docs/resources/message#create-message,
``.../message#embed-object-embed-limits``, ``.../components``); the offline
Discords refuse the same (:mod:`bot.offline.refusals`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import translate

#: A message's ``content``.
CONTENT = 2000
#: Embeds per message; an embed's parts; all embeds of a message together.
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
#: An attachment's description (its alt text): Discord's attachment object,
#: ``description``: "description for the file (max 1024 characters)".
ATTACHMENT_DESCRIPTION = 1024
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
#: Components: action rows per message, items per row, a button's label, a custom id.
ACTION_ROWS = 5
ROW_ITEMS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
#: Modals: the title, a text input's label and placeholder.
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its start and ``…`` (``limit`` long)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + ELLIPSIS


def more_lines(n: int, locale: object = "en") -> str:
    """The marker that ends a shortened message: ``… and 4 more lines``, in ``locale``."""
    return translate(locale, "limits.more_lines", count=n)


def fit_message(lines: Iterable[str], limit: int = CONTENT, locale: object = "en") -> str:
    """The lines joined by newlines, within ``limit`` characters, keeping whole lines.

    When they do not all fit, as many lines as possible are kept from the top
    and the text ends with :func:`more_lines` (how many lines were left out, in
    ``locale``: the language of whoever reads the message). A first line too long
    on its own is cut with ``…``.
    """
    kept = list(lines)
    full = "\n".join(kept)
    if len(full) <= limit:
        return full
    total = len(kept)
    size = -1  # the length of "\n".join(kept[:count]), -1 for no line
    count = 0
    for line in kept:
        size += 1 + len(line)
        if size + 1 + len(more_lines(total - count - 1, locale)) > limit:
            break
        count += 1
    if count == 0:
        marker = more_lines(total - 1, locale)
        room = limit - len(marker) - 1
        if total == 1 or room < 1:
            return clip(kept[0], limit)
        return clip(kept[0], room) + "\n" + marker
    return "\n".join(kept[:count]) + "\n" + more_lines(total - count, locale)


def fit_text(text: str, limit: int = CONTENT, locale: object = "en") -> str:
    """:func:`fit_message` for a text whose lines are already joined with newlines."""
    if len(text) <= limit:
        return text
    return fit_message(text.split("\n"), limit, locale)


__all__ = [
    "ACTION_ROWS",
    "AUTHOR",
    "BUTTON_LABEL",
    "CONTENT",
    "CUSTOM_ID",
    "ELLIPSIS",
    "EMBEDS",
    "EMBED_DESCRIPTION",
    "EMBED_FIELDS",
    "EMBED_TITLE",
    "EMBED_TOTAL",
    "FIELD_NAME",
    "FIELD_VALUE",
    "FOOTER",
    "INPUT_LABEL",
    "INPUT_PLACEHOLDER",
    "MODAL_TITLE",
    "ROW_ITEMS",
    "clip",
    "fit_message",
    "fit_text",
    "more_lines",
]
