"""How the bot logs: what a line may not carry, and one JSON object a line on request.

**Tokens.**
discord.py logs every HTTP request at DEBUG, and an interaction's routes carry
its token in the path (``/interactions/{id}/{token}/callback``,
``/webhooks/{application}/{token}/messages/@original``): whoever reads such a
log could answer in the bot's name for 15 minutes; discord.gateway's DEBUG lines
echo each event received, an interaction's ``'token'`` field included.
:class:`RedactTokens`, put on every handler by :func:`redact_tokens`, replaces
both with ``<token>``.
The bot token itself never reaches a log line (discord.py does not log it).

**JSON lines** (``LOG_FORMAT=json``): :class:`JsonLines` writes each record as one
object, ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, then ``guild``,
``table`` and ``hand`` where known, and ``error`` (the traceback) for an exception.
Where known: given with ``extra={"table": ...}``, or bound for the current task with
:func:`bind` (a table's events are delivered, and its channel's requests sent, in
tasks bound to that table: :mod:`bot.app_metrics`). The token filter runs before the
formatter, on the message and the traceback alike. No log line names a hole card or
a deck order in the first place (the runtime's events keep hidden cards out of their
``repr``); the process test checks both formats.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

TOKEN_IN_ROUTE = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+")
#: A ``token`` field in a payload logged as a dict or as JSON (discord.gateway's DEBUG
#: lines echo every event received, an interaction's token included).
TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*""")
REDACTED = r"\1<token>"


def redacted(text: str) -> str:
    """``text`` with every interaction token it names replaced by ``<token>``."""
    return TOKEN_FIELD.sub(REDACTED, TOKEN_IN_ROUTE.sub(REDACTED, text))


class RedactTokens(logging.Filter):
    """Rewrite a record's message with every route token replaced by ``<token>``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redacted(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def redact_tokens(logger: logging.Logger) -> None:
    """Put :class:`RedactTokens` on every handler of ``logger`` (filters on a logger do not
    see the records its children propagate; a handler's do)."""
    for handler in logger.handlers:
        if not any(isinstance(f, RedactTokens) for f in handler.filters):
            handler.addFilter(RedactTokens())


#: The fields a line may carry beside its message, in this order.
CONTEXT = ("guild", "table", "hand")
_BOUND: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "omaha_log_context", default=None)


def bind(**fields: Any) -> None:
    """Name ``guild``, ``table`` or ``hand`` on every later line of the current task (and
    of the tasks it starts); a value None forgets that field."""
    merged = dict(_BOUND.get() or {})
    merged.update(fields)
    _BOUND.set({k: v for k, v in merged.items() if v is not None and k in CONTEXT})


class JsonLines(logging.Formatter):
    """One JSON object per record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        bound = _BOUND.get() or {}
        for name in CONTEXT:
            value = getattr(record, name, None)
            value = bound.get(name) if value is None else value
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = redacted(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def log_to_stderr(level: str, fmt: str = "text") -> None:
    """Log at ``level`` on stderr: ``text`` keeps the handlers discord.py's
    ``setup_logging`` put on the root logger; ``json`` replaces them with one
    :class:`JsonLines` handler. Every handler then redacts tokens."""
    root = logging.getLogger()
    if fmt == "json":
        for old in list(root.handlers):
            root.removeHandler(old)
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLines())
        root.addHandler(handler)
    root.setLevel(getattr(logging, level))
    redact_tokens(root)


__all__ = ["CONTEXT", "JsonLines", "RedactTokens", "bind", "log_to_stderr", "redact_tokens"]
