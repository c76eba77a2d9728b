"""Discord's contract: every request the bot sends, checked against Discord's published
OpenAPI specification (``openapi.json.gz`` here; README.md says where it comes from).

A request is found a path template of the spec (the most literal one: ``.../@original``
before ``.../{message_id}``) and an operation for its method; its path parameters, its
query parameters and its JSON body (or a multipart request's ``payload_json``) are then
validated against the operation's schemas (JSON Schema 2020-12 with ``jsonschema-rs``,
the ``$ref`` s resolved within the document; a few microseconds a request, so every test
can afford it).

One exception, and only one, is allowed: **integer snowflakes**. The spec types every
snowflake as a string of digits (``SnowflakeType``); discord.py writes three of them as JSON
integers (``recipient_id`` opening a DM, ``allowed_mentions.users``, an upload's
``attachments[].id``), and Discord accepts them: every discord.py bot sends them so to the
real API (the spec's README owns that it types some fields more narrowly than the API
reads them). A request that fails the spec
but passes it once ``SnowflakeType`` also admits a non-negative 64-bit integer is counted
in :attr:`Report.integer_snowflakes`, not as a violation. Nothing else is waived.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema_rs

__all__ = [
    "Contract", "Report", "Request", "Violation", "assert_within_contract", "contract",
    "offline_requests",
]

SPEC_FILE = Path(__file__).with_name("openapi.json.gz")
_SNOWFLAKE = "SnowflakeType"
#: The exception: a snowflake written as a JSON integer (it fits Discord's 64 bits).
_INTEGER_SNOWFLAKE = {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}
_BOOLEANS = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Request:
    """One REST request as Discord sees it (``path`` after ``/api/v10``)."""

    method: str
    path: str
    query: Mapping[str, Any] = field(default_factory=dict)
    #: The JSON body, or a multipart request's ``payload_json``; None: no body.
    body: Any = None


@dataclass(frozen=True)
class Violation:
    request: Request
    route: str  # "POST /channels/{channel_id}/messages"; "" when no route matched
    problem: str

    def __str__(self) -> str:
        return f"{self.request.method} {self.request.path} ({self.route or 'no route'}): " \
               f"{self.problem}"


@dataclass
class Report:
    """What :meth:`Contract.check` saw: requests and routes counted, violations listed."""

    requests: int = 0
    routes: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    #: Route -> requests valid only thanks to the integer-snowflake exception.
    integer_snowflakes: Counter[str] = field(default_factory=Counter)

    def add(self, other: Report) -> None:
        self.requests += other.requests
        self.routes.update(other.routes)
        self.violations.extend(other.violations)
        self.integer_snowflakes.update(other.integer_snowflakes)


@dataclass(frozen=True)
class _Operation:
    route: str
    segments: tuple[str, ...]
    pointer: str  # JSON pointer of the operation in the spec
    parameters: Mapping[str, tuple[str, str]]  # name -> (where, pointer of its schema)
    body: str | None  # pointer of the request body's schema


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class Contract:
    """The spec, ready to check requests. Build it once (:func:`contract`): loading the spec
    and compiling its validators takes a moment."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec
        lenient = copy.deepcopy(dict(spec))
        schemas = lenient["components"]["schemas"]
        schemas[_SNOWFLAKE] = {"anyOf": [schemas[_SNOWFLAKE], _INTEGER_SNOWFLAKE]}
        self._documents = (spec, lenient)
        self._operations: dict[str, list[_Operation]] = {}
        for template, item in spec["paths"].items():
            for method in _METHODS:
                if method in item:
                    self._operations.setdefault(method.upper(), []).append(
                        self._operation(method, template, item)
                    )

    def _operation(self, method: str, template: str, item: Mapping[str, Any]) -> _Operation:
        pointer = f"/paths/{_escape(template)}/{method}"
        parameters: dict[str, tuple[str, str]] = {}
        for where, params in ((f"/paths/{_escape(template)}", item.get("parameters", [])),
                              (pointer, item[method].get("parameters", []))):
            for index, param in enumerate(params):
                parameters[param["name"]] = (param["in"], f"{where}/parameters/{index}/schema")
        body = None
        content = item[method].get("requestBody", {}).get("content", {})
        for kind in ("application/json", "multipart/form-data"):
            if kind in content:
                body = f"{pointer}/requestBody/content/{_escape(kind)}/schema"
                break
        return _Operation(f"{method.upper()} {template}", tuple(template.strip("/").split("/")),
                          pointer, parameters, body)

    def _match(self, method: str, path: str) -> tuple[_Operation, dict[str, str]] | None:
        segments = path.split("?")[0].strip("/").split("/")
        best: tuple[int, _Operation, dict[str, str]] | None = None
        for op in self._operations.get(method.upper(), ()):
            if len(op.segments) != len(segments):
                continue
            args: dict[str, str] = {}
            literals = 0
            for tpl, seg in zip(op.segments, segments, strict=True):
                if tpl.startswith("{") and tpl.endswith("}"):
                    args[tpl[1:-1]] = seg
                elif tpl == seg:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, op, args)
        return None if best is None else (best[1], best[2])

    @cache  # noqa: B019 (one Contract per run: :func:`contract`)
    def _validator(self, pointer: str, lenient: bool) -> jsonschema_rs.Draft202012Validator:
        # The whole document as the root schema (its other keys are no keywords), so
        # that the spec's own "#/components/..." references resolve within it.
        root = dict(self._documents[lenient])
        root["$ref"] = "#" + quote(pointer, safe="/~@")
        return jsonschema_rs.Draft202012Validator(root)

    def _problems(self, pointer: str, value: Any, what: str) -> tuple[list[str], bool]:
        """What is wrong with ``value`` under the schema at ``pointer``; and whether it
        passed only thanks to the integer-snowflake exception."""
        strict = self._validator(pointer, False)
        if strict.is_valid(value):
            return [], False
        lenient = [e.instance_path for e in self._validator(pointer, True).iter_errors(value)]
        if not lenient:
            return [], True
        # The strict spec's words for it where they apply (the lenient one's say "anyOf").
        error = next((e for e in strict.iter_errors(value) if e.instance_path in lenient), None)
        where = "/".join(str(p) for p in (error.instance_path if error else lenient[0]))
        message = error.message if error else "not valid under the spec"
        return [f"{what}{'/' + where if where else ''}: {message[:300]}"], False

    def _schema(self, pointer: str) -> Mapping[str, Any]:
        node: Any = self.spec
        for token in pointer.strip("/").split("/"):
            key = token.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        while "$ref" in node:
            node = self._schema(node["$ref"].removeprefix("#"))
        return node  # type: ignore[no-any-return]

    def _query_value(self, pointer: str, raw: Any) -> Any:
        """A query string's value as its schema types it (a URL carries only text). Booleans
        as Discord reads them: "Boolean Query Strings" in its API reference takes ``True``,
        ``true`` and ``1`` for true, ``False``, ``false`` and ``0`` for false."""
        text = str(raw)
        kind = self._schema(pointer).get("type")
        if kind == "integer" and re.fullmatch(r"-?\d+", text):
            return int(text)
        if kind == "boolean" and text in _BOOLEANS:
            return _BOOLEANS[text]
        return text

    def check_one(self, request: Request) -> Report:
        report = Report(requests=1)
        found = self._match(request.method, request.path)
        if found is None:
            report.violations.append(Violation(request, "", "no such route in the spec"))
            return report
        op, path_args = found
        report.routes[op.route] += 1
        problems: list[str] = []
        exception = False
        values = [(name, "path", value) for name, value in path_args.items()]
        values += [(name, "query", value) for name, value in request.query.items()]
        for name, where, value in values:
            if op.parameters.get(name, ("", ""))[0] != where:
                problems.append(f"{where} parameter {name!r} is not in the spec")
                continue
            pointer = op.parameters[name][1]
            found_problems, lenient = self._problems(
                pointer, self._query_value(pointer, value), f"{where} {name}")
            problems += found_problems
            exception |= lenient
        if request.body is not None:
            if op.body is None:
                problems.append("a body, where the spec takes none")
            else:
                found_problems, lenient = self._problems(op.body, request.body, "body")
                problems += found_problems
                exception |= lenient
        report.violations += [Violation(request, op.route, p) for p in problems]
        if exception and not problems:
            report.integer_snowflakes[op.route] += 1
        return report

    def check(self, requests: Iterable[Request]) -> Report:
        report = Report()
        for request in requests:
            report.add(self.check_one(request))
        return report


@cache
def contract() -> Contract:
    """The vendored spec's :class:`Contract` (loaded once per process)."""
    with gzip.open(SPEC_FILE, "rt", encoding="utf-8") as f:
        return Contract(json.load(f))


def offline_requests(log: Iterable[Any]) -> list[Request]:
    """The offline Discord's log of REST calls (simcord's ``HttpLogEntry``) as requests."""
    return [Request(e.method, e.path, e.params or {}, e.json) for e in log]


def assert_within_contract(requests: Iterable[Request]) -> Report:
    """Fail on any request outside Discord's spec (the integer-snowflake exception aside).

    With ``DISCORD_CONTRACT_LOG`` set to a file, each call appends a JSON line of what it
    saw (requests, routes, integer snowflakes, the seconds it took): the figures of a
    whole run add up from it.
    """
    start = time.perf_counter()
    report = contract().check(requests)
    log = os.environ.get("DISCORD_CONTRACT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"seconds": time.perf_counter() - start,
                                "requests": report.requests, "routes": report.routes,
                                "integer_snowflakes": report.integer_snowflakes,
                                "violations": [str(v) for v in report.violations]}) + "\n")
    assert not report.violations, "requests outside Discord's API specification:\n" + \
        "\n".join(str(v) for v in report.violations[:20])
    return report
