"""``python -m bot verify FILE.phh``: check a hand and its deal proof, from the file alone.

Prints one line: ``verified: ...`` (exit status 0), or ``NOT verified:``
and the first reason the file fails (exit status 1). A file that cannot be
opened also prints one line and exits 1. What is checked, in which order:
:mod:`bot.engine.phh.proof`; how to check the same by hand: README,
"Checking a deal".
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from bot.engine.phh.proof import Verdict, verify_text

USAGE = "usage: python -m bot verify FILE.phh"


def main(argv: Sequence[str]) -> int:
    if list(argv) in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 1
    path = Path(argv[0])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        verdict = Verdict(False, f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    else:
        verdict = verify_text(text)
    print(verdict.line())
    return 0 if verdict.ok else 1
