"""No message posted twice when Discord answers 5xx to a message it did post.

Discord can carry a request out and still answer 5xx (its backend did the work, the
answer was lost on the way back: a 502 in its incidents). discord.py sends a message
again after a 500, 502, 504 or 524, and the table's channel sends a turn message again
after a refusal (:mod:`bot.adapter.channel`): a message Discord did post would then be
posted twice. "Create Message" takes a ``nonce`` and, with ``enforce_nonce``, answers a
nonce the bot used in the past few minutes with that message instead of a new one
(Discord's Message resource: "If true and nonce is present, it will be checked for
uniqueness in the past few minutes. If another message was created by the same author
with the same nonce, that message will be returned and no new message will be
created.").

So :func:`send_with_nonces` gives every message the bot creates in a channel (DMs
included) a nonce with ``enforce_nonce``: discord.py's own retries send the same body,
nonce included. When the send still fails with a 5xx, :class:`Nonces` remembers the
nonce with the message (its body, without the nonce) for :data:`KEEP` seconds, and a
message sent again with the same body takes the same nonce: Discord gives back the one
it posted, if it did. Once sent, or after :data:`KEEP`, it is forgotten; at most
:data:`LIMIT` are kept (the oldest forgotten first).

The interaction followups have no nonce: :mod:`bot.adapter.hooks` does not send one
again after a 5xx without looking whether Discord posted it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

__all__ = ["KEEP", "LIMIT", "Nonces", "send_with_nonces"]

#: Seconds a failed message's nonce is kept (Discord remembers one "a few minutes").
KEEP = 120.0
#: Failed messages' nonces kept at most.
LIMIT = 1_000


class Nonces:
    """The nonces of messages whose send failed with a 5xx, by channel and body."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._failed: OrderedDict[tuple[int, str], tuple[str, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._failed)

    def take(self, channel_id: int, body: str) -> str:
        """The nonce for this message: the one it failed with lately, else a new one."""
        self._forget_old()
        kept = self._failed.get((channel_id, body))
        return kept[0] if kept is not None else secrets.token_hex(10)

    def failed(self, channel_id: int, body: str, nonce: str) -> None:
        """Its send failed with a 5xx: Discord may have posted it."""
        self._failed[(channel_id, body)] = (nonce, self.clock())
        self._failed.move_to_end((channel_id, body))
        while len(self._failed) > LIMIT:
            self._failed.popitem(last=False)

    def sent(self, channel_id: int, body: str) -> None:
        self._failed.pop((channel_id, body), None)

    def _forget_old(self) -> None:
        now = self.clock()
        while self._failed:
            _, (_, when) = next(iter(self._failed.items()))
            if now - when < KEEP:
                break
            self._failed.popitem(last=False)


def body_key(params: Any) -> str:
    """A message's body (JSON, or a multipart's ``payload_json`` and its files' names)
    without a nonce, as a short digest."""
    payload = dict(_payload(params) or {})
    payload.pop("nonce", None)
    payload.pop("enforce_nonce", None)
    files = [f.filename for f in params.files or ()]
    text = json.dumps([payload, files], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _payload(params: Any) -> dict[str, Any] | None:
    if params.payload is not None:
        return dict(params.payload)
    for part in params.multipart or ():
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return None


def stamp(params: Any, nonce: str) -> None:
    """Put ``nonce`` with ``enforce_nonce`` in the message's body (unless it has one)."""
    if params.payload is not None:
        params.payload.setdefault("nonce", nonce)
        params.payload.setdefault("enforce_nonce", True)
        return
    for part in params.multipart or ():
        if part.get("name") == "payload_json":
            payload = json.loads(part["value"])
            payload.setdefault("nonce", nonce)
            payload.setdefault("enforce_nonce", True)
            part["value"] = json.dumps(payload, separators=(",", ":"), ensure_ascii=True)


def send_with_nonces(http: discord.http.HTTPClient, nonces: Nonces | None = None) -> Nonces:
    """Give every ``http.send_message`` a nonce Discord enforces (see the module)."""
    nonces = nonces or Nonces()
    send = http.send_message

    async def send_message(channel_id: int, *, params: Any) -> Any:
        body = body_key(params)
        nonce = nonces.take(channel_id, body)
        stamp(params, nonce)
        try:
            message = await send(channel_id, params=params)
        except (discord.DiscordServerError, aiohttp.ClientError, TimeoutError):
            nonces.failed(channel_id, body, nonce)
            raise
        nonces.sent(channel_id, body)
        return message

    http.send_message = send_message  # type: ignore[assignment]
    return nonces
