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
:func:`render_leaderboard`. They are made for a phone, where Discord shows
them about 400 pixels wide: no letter is smaller than 12 pixels there.
``theme`` is "dark" or "light", ``style`` "four_colour" or "two_colour" (per
player or per table).

Every ``render_*`` function is pure and CPU-bound; async code calls the
``render_*_async`` twins, which run it in a worker thread
(:func:`asyncio.to_thread`) so the event loop never blocks. Card sprites
and fonts are drawn/loaded once per process and cached; :func:`preload`
draws all sprites ahead (optional, e.g. in a thread at start-up).
"""

from __future__ import annotations

import asyncio

from bot.render.cardart import card_image, preload
from bot.render.hole import render_hole_cards, sort_hole
from bot.render.leaderboard import render_leaderboard
from bot.render.results import render_results
from bot.render.showdown import render_showdown
from bot.render.table import render_table
from bot.render.theme import DeckStyle, Theme
from bot.render.views import (
    BestHand,
    HoleCardsView,
    LeaderboardRow,
    LeaderboardView,
    MadeHandLike,
    PotResult,
    PotView,
    PotWinner,
    ResultRow,
    ResultsView,
    SeatStatus,
    SeatView,
    ShowdownHand,
    ShowdownView,
    TableView,
)


async def render_hole_cards_async(view: HoleCardsView, theme: Theme | str = Theme.DARK,
                                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_hole_cards` in a worker thread."""
    return await asyncio.to_thread(render_hole_cards, view, theme, style)


async def render_table_async(view: TableView, theme: Theme | str = Theme.DARK,
                             style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_table` in a worker thread."""
    return await asyncio.to_thread(render_table, view, theme, style)


async def render_showdown_async(view: ShowdownView, theme: Theme | str = Theme.DARK,
                                style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """:func:`render_showdown` in a worker thread."""
    return await asyncio.to_thread(render_showdown, view, theme, style)


async def render_results_async(view: ResultsView, theme: Theme | str = Theme.DARK) -> bytes:
    """:func:`render_results` in a worker thread."""
    return await asyncio.to_thread(render_results, view, theme)


async def render_leaderboard_async(view: LeaderboardView,
                                   theme: Theme | str = Theme.DARK) -> bytes:
    """:func:`render_leaderboard` in a worker thread."""
    return await asyncio.to_thread(render_leaderboard, view, theme)


__all__ = [
    "BestHand",
    "DeckStyle",
    "HoleCardsView",
    "LeaderboardRow",
    "LeaderboardView",
    "MadeHandLike",
    "PotResult",
    "PotView",
    "PotWinner",
    "ResultRow",
    "ResultsView",
    "SeatStatus",
    "SeatView",
    "ShowdownHand",
    "ShowdownView",
    "TableView",
    "Theme",
    "card_image",
    "preload",
    "render_hole_cards",
    "render_hole_cards_async",
    "render_leaderboard",
    "render_leaderboard_async",
    "render_results",
    "render_results_async",
    "render_showdown",
    "render_showdown_async",
    "render_table",
    "render_table_async",
    "sort_hole",
]
