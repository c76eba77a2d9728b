"""Bounded memories of the Discord side: a long night must not grow them for ever.

:class:`Recent` is a dictionary that keeps its ``limit`` most recently written keys (the
oldest written is forgotten first). It holds what can be found out again at the cost
of a request or a default: a user's DM channel id (:mod:`bot.adapter.dms`), the
language a user last wrote in (:mod:`bot.adapter.presenter`), a refused DM
(:mod:`bot.adapter.closed_dms`), the tables whose channel was lost.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

__all__ = ["REMEMBERED", "Recent"]

#: How many of each the Discord side remembers.
REMEMBERED = 10_000

K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """A dict of at most ``limit`` entries: writing a key makes it the newest; past the
    limit the oldest written is dropped."""

    def __init__(self, limit: int = REMEMBERED) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
