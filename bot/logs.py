"""What the bot's log lines may not carry: interaction and webhook tokens.

discord.py logs every HTTP request at DEBUG, and an interaction's routes carry
its token in the path (``/interactions/{id}/{token}/callback``,
``/webhooks/{application}/{token}/messages/@original``): whoever reads such a
log could answer in the bot's name for 15 minutes. :class:`RedactTokens`, put
on every handler by :func:`redact_tokens`, replaces them with ``<token>``.
The bot token itself never reaches a log line (discord.py does not log it).
"""

from __future__ import annotations

import logging
import re

TOKEN_IN_ROUTE = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+")
REDACTED = r"\1<token>"


class RedactTokens(logging.Filter):
    """Rewrite a record's message with every route token replaced by ``<token>``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = TOKEN_IN_ROUTE.sub(REDACTED, message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def redact_tokens(logger: logging.Logger) -> None:
    """Put :class:`RedactTokens` on every handler of ``logger`` (filters on a logger do not
    see the records its children propagate; a handler's do)."""
    for handler in logger.handlers:
        if not any(isinstance(f, RedactTokens) for f in handler.filters):
            handler.addFilter(RedactTokens())


__all__ = ["RedactTokens", "redact_tokens"]
