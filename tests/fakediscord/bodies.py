"""Reading a request's body once: its JSON (a multipart request's ``payload_json``) and
its uploaded files (``files[n]``), kept on the request so that the route's handler and
the check against Discord's API specification (:mod:`tests.discord_spec.contract`,
after the answer, for every request, refused or not) both see it."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .payloads import Attachment, snowflake

__all__ = ["payload"]

_KEY = web.RequestKey("fakediscord.payload", tuple)


async def payload(request: web.Request) -> tuple[Any, list[Attachment]]:
    """The request's JSON body (None: none) and its files, in ``files[n]`` order."""
    if _KEY not in request:
        request[_KEY] = await _read(request)
    return request[_KEY]


async def _read(request: web.Request) -> tuple[Any, list[Attachment]]:
    if not request.content_type.startswith("multipart/"):
        text = await request.text()
        return (json.loads(text) if text else None), []
    body: Any = None
    files: list[tuple[int, Attachment]] = []
    reader = await request.multipart()
    while True:
        part = await reader.next()
        if part is None:
            break
        name = part.name or ""  # type: ignore[union-attr]
        data = await part.read()  # type: ignore[union-attr]
        if name == "payload_json":
            body = json.loads(data)
        elif name.startswith("files["):
            index = int(name[6:-1])
            content_type = part.headers.get("Content-Type")  # type: ignore[union-attr]
            filename = part.filename or f"file{index}"  # type: ignore[union-attr]
            files.append((index, Attachment(snowflake(), filename, bytes(data), content_type)))
    files.sort(key=lambda pair: pair[0])
    return body, [a for _, a in files]
