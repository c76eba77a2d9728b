"""``python -m bot replay PATH... [--check]``: replay PHH hand histories.

Every hand of every given ``.phh`` / ``.phhs`` file is played again on the
engine, dealt from the cards the history shows. One JSON line per hand goes
to standard output::

    {"path": "a.phhs", "index": 0, "finishing_stacks": [138, 219, 293]}
    {"path": "a.phhs", "index": 1, "error": "action 7 (p2 cbr 50): the most you can raise to is 42"}

``index`` counts the hands of a file from 0. A hand that breaks the rules is
reported and the next one is replayed.

``--check`` also compares each hand with the file's ``finishing_stacks``
(adding ``"expected"`` and ``"matches"`` to the line); a hand without
``finishing_stacks`` cannot be checked and counts as a mismatch.

Exit status: 0 when every file was read (a hand that breaks the rules is
reported on its line, not in the status); with ``--check``, 1 when some
hand is illegal or its final stacks differ from the file's; 2 when an input
cannot be read at all (missing file, bad TOML, not PHH), with a one-line
message on standard error. Every file is read before any hand is replayed,
so an unreadable file stops the run before any output.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot.engine.phh import HandError, HandHistory, PHHError, load_path, replay


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"replay: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m bot replay",
        description="Replay PHH hand histories (.phh, .phhs); one JSON line per hand.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a .phh or .phhs file")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with each hand's finishing_stacks; exit 1 on any difference",
    )
    return parser


def replay_line(path: str, index: int, hh: HandHistory, check: bool) -> tuple[dict[str, Any], bool]:
    """The JSON object for one hand and whether it passed."""
    line: dict[str, Any] = {"path": path, "index": index}
    try:
        stacks = list(replay(hh).finishing_stacks)
    except HandError as exc:
        line["error"] = str(exc)
        return line, False
    line["finishing_stacks"] = stacks
    if not check:
        return line, True
    expected = None if hh.finishing_stacks is None else list(hh.finishing_stacks)
    line["expected"] = expected
    line["matches"] = expected == stacks
    return line, expected == stacks


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    files: list[tuple[str, list[HandHistory]]] = []
    for path in args.paths:
        try:
            files.append((path, load_path(path)))
        except PHHError as exc:
            print(f"replay: {exc}".replace("\n", " "), file=sys.stderr)
            return 2
    ok = True
    out = sys.stdout
    for path, hands in files:
        for index, hh in enumerate(hands):
            line, passed = replay_line(path, index, hh, args.check)
            ok = ok and passed
            out.write(json.dumps(line) + "\n")
    out.flush()
    return 1 if args.check and not ok else 0
