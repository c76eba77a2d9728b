"""Replacing one of simcord's HTTP route handlers (the offline Discord's patches use it).

simcord has no public way to change a route: :func:`replace_route` edits its
router's private table (``simcord.http.router._ROUTES``) in place, which is one
reason simcord is pinned to an exact version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord.http import router as _router

__all__ = ["replace_route"]


def replace_route(method: str, old: Callable[..., Any], new: Callable[..., Any]) -> None:
    """Serve the ``method`` requests simcord routes to ``old`` with ``new`` instead."""
    routes = _router._ROUTES[method]  # simcord's private route table (no public API)
    for index, (template, handler) in enumerate(routes):
        if handler is old:
            routes[index] = (template, new)
            return
    raise RuntimeError(f"simcord has no {method} route {old.__name__}; was it upgraded?")
