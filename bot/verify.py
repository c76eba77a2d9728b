"""``python -m bot verify FILE.phh [--root HEX]``: check a hand and its deal proof.

Prints one line: ``verified: ...`` (exit status 0), or ``NOT verified:``
and the first reason the file fails (exit status 1). A file that cannot be
opened also prints one line and exits 1. ``--root`` is the commitment the
player copied from the hand's first message (or their hole-card message),
posted before any card was dealt: the file must commit to exactly that root,
so a file made up after the hand cannot pass. What is checked, in which order:
:mod:`bot.engine.phh.proof`; how to check the same by hand: README, "Checking a
deal".
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from bot.engine.phh.proof import Verdict, verify_text

USAGE = "usage: python -m bot verify FILE.phh [--root HEX]"


def parse(argv: Sequence[str]) -> tuple[str, str | None] | None:
    """``(file, root or None)``, or None when the arguments are not the usage."""
    args = list(argv)
    root = None
    if len(args) == 3 and args[1] == "--root":
        args, root = args[:1], args[2]
    elif len(args) == 3 and args[0] == "--root":
        args, root = args[2:], args[1]
    if len(args) != 1 or args[0].startswith("-"):
        return None
    return args[0], root


def main(argv: Sequence[str]) -> int:
    if list(argv) in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    parsed = parse(argv)
    if parsed is None:
        print(USAGE, file=sys.stderr)
        return 1
    name, root = parsed
    path = Path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        verdict = Verdict(False, f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    else:
        verdict = verify_text(text, root)
    print(verdict.line())
    return 0 if verdict.ok else 1
