"""Named crash points, for the kill harness only (``bench/bench_crashes.py``).

``OMAHA_CRASH_AT=NAME[:N]`` in the environment makes the process kill itself with
SIGKILL (no cleanup, no flush: a power cut) the N-th time (default 1) the code
reaches :func:`reached` with that NAME. Unset (always, in production), :func:`reached`
is one dictionary look-up. The points:

===================  =======================================================================
``action.stored``    a player's action is on disk, not yet applied nor acknowledged
``settle.writing``   inside the settlement's transaction, the stacks written, not committed
``settle.stored``    the settlement committed, the result not yet posted
``mtt.moved``        a tournament's balancing move stored, the player not yet moved
``backup.copied``    a backup copied and checked, not yet moved to its name
``migrate.writing``  inside a migration's transaction, its version row written, uncommitted
``migrate.applied``  a migration committed, the next one not begun
===================  =======================================================================
"""

from __future__ import annotations

import os
import signal
from collections import Counter

__all__ = ["ENV", "POINTS", "reached"]

ENV = "OMAHA_CRASH_AT"
POINTS = ("action.stored", "settle.writing", "settle.stored", "mtt.moved", "backup.copied",
          "migrate.writing", "migrate.applied")

_seen: Counter[str] = Counter()


def reached(name: str) -> None:
    """The code is at crash point ``name``: SIGKILL this process when it is the one asked
    for, the asked number of times."""
    wanted = os.environ.get(ENV)
    if not wanted:
        return
    point, _, nth = wanted.partition(":")
    if point != name:
        return
    _seen[name] += 1
    if _seen[name] >= int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
