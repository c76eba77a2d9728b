"""Pictures of the game: engine types in, PNG bytes out (Pillow only).

The caller copies what a picture needs into a frozen view
(:mod:`bot.render.views`) and asks for PNG bytes::

    png = await render_table_async(TableView(
        table_name="#poker", hand_number=12, max_seats=6,
        seats=(SeatView(1, "Ann", 980, bet=20, blind="BB", cards=4), ...),
        board=board, pots=(PotView(40),), button=6, to_act=2, clock=21, clock_total=30,
        game="Pot-limit Omaha \u00b7 10/20", street="Flop"), theme="dark", style="four_colour")

After the hand the same table view carries each pot's winners
(``PotView(1_800, "Main pot", winners=(PotWinner("Ann", 900, "high", seat=2), ...))``):
the picture then shows who won which pot and half, marks the winning seats
and reads "Showdown" or "Hand over".

Pictures: :func:`render_hole_cards` (a player's DM), :func:`render_table`
(the channel, every street), :func:`render_showdown`,
:func:`render_leaderboard`, :func:`render_replay` (a finished hand as an animated GIF),
:func:`render_graphs` (results over hands or tournaments).
They are made for a phone, where Discord shows
them about 400 pixels wide: no letter is smaller than 12 pixels there.
``theme`` is "dark" or "light", ``style`` "four_colour" or "two_colour" (per
player or per table).

Every ``render_*`` function is pure and CPU-bound; async code calls the
``render_*_async`` twins, which run it in a worker thread
(:func:`asyncio.to_thread`) so the event loop never blocks, or, once
:func:`use_processes` started a pool, in worker processes: the views are plain
frozen data and the answer is bytes, so they cross the process boundary
cheaply, and the event loop's process no longer shares its GIL with Pillow's
Python parts. Card sprites and fonts are drawn/loaded once per process and
cached; :func:`preload` draws all sprites ahead (optional, e.g. in a thread at
start-up).

Replays are the exception (issue 29): :func:`render_replay_async` draws each one in a
process of its own, started for it from the same fork server and gone after it, with
or without the pool (``RENDER_PROCESSES=0`` included), never in the bot's process. If
that process dies (the kernel's OOM killer, a crash), the replay fails with
:class:`RenderFailed` and is not drawn again in the bot. Decision for the other
pictures: when a pool process dies they are drawn in a thread of the bot, as before.
Each is one picture of a fixed size (10-60 ms and a few MB of memory; a graph of
50,000 hands draws in 0.15 s), and a live table's picture or a player's hole cards must
not be lost to a dead process; only a replay's work grew with the hand.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from bot.render.after_hand import CardRow, CardRowsView, render_card_rows
from bot.render.cardart import card_image
from bot.render.gif import TooLarge
from bot.render.graphs import render_graphs
from bot.render.hole import render_hole_cards, sort_hole
from bot.render.leaderboard import render_leaderboard
from bot.render.replay import REPLAY_BYTES, render_replay
from bot.render.results import render_results
from bot.render.showdown import render_showdown
from bot.render.sprites import preload
from bot.render.table import render_table
from bot.render.theme import DeckStyle, Theme
from bot.render.views import (
    BestHand,
    GraphLine,
    GraphMark,
    GraphPanel,
    GraphView,
    HoleCardsView,
    LeaderboardRow,
    LeaderboardView,
    MadeHandLike,
    PotResult,
    PotView,
    PotWinner,
    ReplayFrame,
    ReplayView,
    ResultRow,
    ResultsView,
    SeatStatus,
    SeatView,
    ShowdownHand,
    ShowdownView,
    TableView,
)

log = logging.getLogger("bot.render")

_pool: Executor | None = None
_workers = 0


def _context() -> multiprocessing.context.ForkServerContext:
    """The render processes' start method: forked from a fork server that imported this
    package once and drew the default deck's sprites (:mod:`bot.render.warm`)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["bot.render", "bot.render.warm"])
    return context


def start_render_server() -> None:
    """Start the render processes' fork server now, and wait until it has imported this
    package and drawn the default sprites (a second or two), rather than on the first
    replay (the pool of :func:`use_processes` starts it too): a process is forked from
    it and waited for."""
    probe = _context().Process(target=os.getpid, name="omaha-render-probe")
    probe.start()
    probe.join()


def use_processes(workers: int) -> None:
    """Render the ``render_*_async`` pictures in ``workers`` processes (0: worker threads).

    The processes are forked from a fork server that imported this package once
    and drew the default deck's sprites (:mod:`bot.render.warm`; no thread of the
    bot is ever forked), all of them now (starting one blocks the
    caller for a moment: better at start-up than in the middle of a burst); a
    previous pool is shut down.
    """
    global _pool, _workers
    stop_processes()
    _workers = workers
    if workers > 0:
        _pool = ProcessPoolExecutor(
            workers, mp_context=_context(), initializer=_start_worker, initargs=(os.getpid(),)
        )
        for _ in range(workers):  # start them now: a later first picture must not wait for it
            _pool.submit(os.getpid)


#: Seconds between a render process's checks that the bot is still there.
WATCH_EVERY = 0.5


#: How much less CPU priority a render process has than the bot (``nice``): when the
#: cores are busy the event loop answers Discord first and the pictures wait (the
#: auto picture mode then draws fewer of them, :mod:`bot.adapter.pictures`).
RENDER_NICENESS = 10


def _start_worker(bot_pid: int) -> None:
    """In each render process: a lower CPU priority, Ctrl-C ignored, and exit with the bot.

    Ctrl-C in a terminal sends SIGINT to the whole foreground job, render processes
    included: each would print a KeyboardInterrupt traceback while the bot is still
    closing cleanly. The bot alone decides when they stop (it shuts the pool down, or
    they exit when it is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(RENDER_NICENESS)
    _exit_with(bot_pid)


def _exit_with(bot_pid: int) -> None:
    """In each render process: exit as soon as the bot process is gone.

    A worker waits for pictures on a pipe whose other end it holds itself, and
    it holds the fork server's lifeline too, so neither notices a bot killed
    with SIGKILL (a crash, the OOM killer): without this they would stay
    forever, one set per crash, holding the bot's stdout open.
    """
    import threading

    def watch() -> None:
        while _alive(bot_pid):
            time.sleep(WATCH_EVERY)
        os._exit(0)  # the standard library's public os._exit: no cleanup, no atexit

    threading.Thread(target=watch, name="exit-with-bot", daemon=True).start()


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def render_processes() -> int:
    """How many render processes :func:`use_processes` started (0: pictures in threads)."""
    return _workers


def stop_processes() -> None:
    """Back to worker threads; pictures being drawn in the pool are abandoned."""
    global _pool, _workers
    pool, _pool, _workers = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


async def _off_loop(fn: Callable[..., bytes], *args: Any) -> bytes:
    """``fn(*args)`` in the process pool, else in a worker thread.

    A pool that broke (a worker killed, e.g. by the kernel when memory runs
    out) is replaced by a new one, and this picture is drawn in a thread: a
    picture is never lost to it (never a replay: :func:`_alone`).
    """
    pool = _pool
    if pool is None:
        return await asyncio.to_thread(fn, *args)
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
    except BrokenProcessPool:
        if pool is _pool:
            log.warning("A render process died; starting the render processes again")
            use_processes(_workers)
        return await asyncio.to_thread(fn, *args)


async def render_hole_cards_async(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_hole_cards` off the event loop."""
    return await _off_loop(render_hole_cards, view, theme, style)


async def render_card_rows_async(view: CardRowsView, theme: Theme | str = Theme.DARK,
                                 style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`~bot.render.after_hand.render_card_rows` off the event loop."""
    return await _off_loop(render_card_rows, view, theme, style)


async def render_table_async(view: TableView, theme: Theme | str = Theme.DARK,
                             style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_table` off the event loop."""
    return await _off_loop(render_table, view, theme, style)


async def render_showdown_async(view: ShowdownView, theme: Theme | str = Theme.DARK,
                                style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_showdown` off the event loop."""
    return await _off_loop(render_showdown, view, theme, style)


async def render_results_async(view: ResultsView, theme: Theme | str = Theme.DARK) -> bytes:
    """:func:`render_results` off the event loop."""
    return await _off_loop(render_results, view, theme)


class RenderFailed(Exception):
    """The process drawing a picture stopped before it answered (killed, crashed)."""


#: The ids of the processes drawing alone now (:func:`_alone`): one per replay.
_ALONE: set[int] = set()


def drawing_alone() -> tuple[int, ...]:
    """The process ids of the renders running now in processes of their own (replays)."""
    return tuple(sorted(_ALONE))


def _draw_alone(sender: Connection, bot_pid: int, fn: Callable[..., bytes],
                args: tuple[Any, ...]) -> None:
    """In a process of its own: ``fn(*args)``, sent back as ``(True, bytes)`` or
    ``(False, error)``."""
    _start_worker(bot_pid)
    try:
        outcome: tuple[bool, object] = (True, fn(*args))
    except Exception as error:  # it goes back to the bot, which raises it there
        outcome = (False, error)
    sender.send(outcome)
    sender.close()


def _receive(receiver: Connection) -> tuple[bool, object] | None:
    """What the process drawing alone sent (None: it died first)."""
    try:
        outcome: tuple[bool, object] = receiver.recv()
    except EOFError:
        return None
    return outcome


async def _alone(fn: Callable[..., bytes], *args: Any) -> bytes:
    """``fn(*args)`` in a process of its own (forked for it, gone after it), never in this
    one: :class:`RenderFailed` when that process dies first; cancelled, it is killed."""
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_draw_alone, args=(sender, os.getpid(), fn, args),
                              name="omaha-render-alone", daemon=True)
    try:
        await asyncio.to_thread(process.start)  # the first starts the fork server
        sender.close()
        assert process.pid is not None
        _ALONE.add(process.pid)
        outcome = await asyncio.to_thread(_receive, receiver)
    finally:
        receiver.close()
        sender.close()
        _ALONE.discard(process.pid or 0)
        if process.pid is not None:
            if process.is_alive():  # it has answered and is exiting, or was cancelled
                process.kill()
            process.join()
    if outcome is None:
        log.warning("A render process drawing alone died (exit code %s)", process.exitcode)
        raise RenderFailed(f"the render process stopped (exit code {process.exitcode})")
    done, value = outcome
    if done and isinstance(value, bytes):
        return value
    raise value if isinstance(value, Exception) else RenderFailed(repr(value))


async def render_replay_async(view: ReplayView, theme: Theme | str = Theme.DARK,
                              style: DeckStyle | str = DeckStyle.FOUR_COLOUR,
                              limit: int = REPLAY_BYTES) -> bytes:
    """:func:`render_replay` (an animated GIF) in a process of its own, never in the bot's
    (:class:`RenderFailed` when that process dies; :class:`TooLarge` past ``limit``
    bytes)."""
    return await _alone(render_replay, view, theme, style, limit)


async def render_graphs_async(view: GraphView, theme: Theme | str = Theme.DARK) -> bytes:
    """:func:`render_graphs` off the event loop."""
    return await _off_loop(render_graphs, view, theme)


async def render_leaderboard_async(view: LeaderboardView,
                                   theme: Theme | str = Theme.DARK) -> bytes:
    """:func:`render_leaderboard` off the event loop."""
    return await _off_loop(render_leaderboard, view, theme)


__all__ = [
    "REPLAY_BYTES",
    "BestHand",
    "CardRow",
    "CardRowsView",
    "DeckStyle",
    "GraphLine",
    "GraphMark",
    "GraphPanel",
    "GraphView",
    "HoleCardsView",
    "LeaderboardRow",
    "LeaderboardView",
    "MadeHandLike",
    "PotResult",
    "PotView",
    "PotWinner",
    "RenderFailed",
    "ReplayFrame",
    "ReplayView",
    "ResultRow",
    "ResultsView",
    "SeatStatus",
    "SeatView",
    "ShowdownHand",
    "ShowdownView",
    "TableView",
    "Theme",
    "TooLarge",
    "card_image",
    "drawing_alone",
    "preload",
    "render_card_rows",
    "render_card_rows_async",
    "render_graphs",
    "render_graphs_async",
    "render_hole_cards",
    "render_hole_cards_async",
    "render_leaderboard",
    "render_leaderboard_async",
    "render_processes",
    "render_replay",
    "render_replay_async",
    "render_results",
    "render_results_async",
    "render_showdown",
    "render_showdown_async",
    "render_table",
    "render_table_async",
    "sort_hole",
    "start_render_server",
    "stop_processes",
    "use_processes",
]
