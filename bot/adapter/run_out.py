"""A run-out street's post: the hands face up with their equity (:class:`Stage`).

When every player left is all-in, the presenter posts each street of the run-out as a
stage of its own: the hands shown, each one's chance to win (hi-lo: its share) after
the board so far, and the last lines of the hand's log.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.adapter.limits import fit_message
from bot.adapter.posts import Stage
from bot.adapter.scenes import Live, equity_line, header, language, table_view
from bot.engine.equity import equity

__all__ = ["run_out_stage"]


async def run_out_stage(live: Live, street: str, board: tuple[Any, ...]) -> Stage:
    """A run-out street: the hands face up with their equity after ``board`` (run twice:
    the second board's street, the first board complete beside it)."""
    shown = [s for s in live.snap.seats if s.shown and not s.folded]
    variant = live.snap.config.variant
    hi_lo = variant.hi_lo
    line = note = ""
    if len(shown) >= 2 and len(board) < 5:
        result = await asyncio.to_thread(
            equity, [s.shown for s in shown], board, variant=variant, target_stderr=0.01
        )
        names, lang = [s.name for s in shown], language(live.snap)
        line = equity_line(names, result, hi_lo, locale=lang)
        # the picture: shares only
        note = equity_line(names, result, hi_lo, chances=False, locale=lang)
    head = header(live.snap, street)
    logged = [f"> {x}" for x in live.log[-4:]]
    content = fit_message(
        [head, line, *logged] if line else [head, *logged], locale=language(live.snap))
    second = live.second_board
    view = table_view(live, board=live.board if second else board, note=note,
                      second_board=second)
    return Stage(view, content)

