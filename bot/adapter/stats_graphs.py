"""The graphs of ``/stats`` and ``/leaderboard graphs``: stored results in, graph views out.

The views are made by pure functions; :func:`stats_file` and :func:`top_file` fetch
a player's results (:meth:`bot.economy.Economy.hand_nets`,
:meth:`~bot.economy.Economy.finishes`) and have the render processes draw them
(:func:`bot.render.render_graphs_async`), never on the event loop.

Whose results count: the caller's ``channels`` (:mod:`bot.adapter.visibility`).

Cash games: the running total of the player's net over their hands in order, and
the same total split in two, the hands that reached a showdown and those that did
not (the two end where the first does). Tournaments: the running profit (prize
minus buy-in) over the finishes, a mark per finish with its place, the ROI in the
subtitle. Every word and number in the reader's language.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Collection, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING

import discord

from bot.i18n import Ordinal, number, translate
from bot.render import GraphLine, GraphMark, GraphPanel, GraphView, alt, render_graphs_async
from bot.storage import HandNet, Metric, Period, TournamentFinish

if TYPE_CHECKING:
    from bot.adapter.leaderboard import Board
    from bot.economy import Economy

__all__ = ["TOP_GRAPHS", "cash_lines", "cash_panel", "profit_points", "stats_file", "top_file",
           "top_view", "tournament_panel"]


def cash_lines(locale: str, hands: Sequence[HandNet]) -> tuple[GraphLine, ...]:
    """Net, at showdown, without showdown: running totals, a point per hand."""
    nets = [h.net for h in hands]
    return (
        GraphLine(translate(locale, "stats.net"), tuple(accumulate(nets))),
        GraphLine(translate(locale, "graph.showdown"),
                  tuple(accumulate(h.net if h.showdown else 0 for h in hands)), "showdown"),
        GraphLine(translate(locale, "graph.no_showdown"),
                  tuple(accumulate(0 if h.showdown else h.net for h in hands)), "no_showdown"),
    )


def cash_panel(locale: str, game: str, period: str, hands: Sequence[HandNet],
               *, split: bool = True, title: str = "") -> GraphPanel:
    """A player's cash games: ``game`` and ``period`` already in ``locale``; ``split``
    adds the showdown lines."""
    lines = cash_lines(locale, hands)
    return GraphPanel(
        title=title or translate(locale, "graph.cash", game=game),
        subtitle=f"{translate(locale, 'graph.hands_count', count=len(hands))} · {period}",
        x_label=translate(locale, "graph.hands"),
        lines=lines if split else lines[:1],
    )


def profit_points(finishes: Sequence[TournamentFinish]) -> tuple[int, ...]:
    """The running profit after each finish."""
    return tuple(accumulate(f.prize - f.buy_in for f in finishes))


def tournament_panel(locale: str, period: str, finishes: Sequence[TournamentFinish],
                     *, title: str = "") -> GraphPanel:
    """A player's sit-and-go finishes: running profit, places, ROI."""
    buy_ins = sum(f.buy_in for f in finishes)
    profit = sum(f.prize - f.buy_in for f in finishes)
    roi = round(100 * profit / buy_ins) if buy_ins else 0
    wins = sum(1 for f in finishes if f.place == 1)
    sub = translate(locale, "graph.sng_sub", played=len(finishes), wins=wins,
                    roi=("+" if roi > 0 else "") + number(locale, roi))
    return GraphPanel(
        title=title or translate(locale, "stats.sngs"),
        subtitle=f"{sub} · {period}",
        x_label=translate(locale, "graph.tournaments"),
        lines=(GraphLine(translate(locale, "graph.profit"), profit_points(finishes)),),
        marks=tuple(GraphMark(i + 1, Ordinal(f.place).to(locale) if f.place else "",
                              f.prize > 0) for i, f in enumerate(finishes)),
    )


def top_view(locale: str, title: str, panels: Sequence[GraphPanel]) -> GraphView:
    """The leaderboard's top players side by side, two a row, on one scale."""
    return GraphView(title, tuple(panels), columns=2 if len(panels) > 1 else 1, locale=locale,
                     shared_scale=True)


#: How many of the top players ``/leaderboard graphs`` draws (two rows of two).
TOP_GRAPHS = 4


async def stats_file(
    economy: Economy, guild_id: int, user_id: int, name: str, *, variant: str | None,
    game: str, period: Period, period_name: str, locale: str,
    channels: Collection[int] | None,
) -> discord.File | None:
    """``/stats``'s picture: the player's cash games and sit-and-gos over ``period`` in
    ``channels`` (None: all; only the panels they have results for; None when they have
    none), drawn off the loop."""
    hands = await economy.hand_nets(guild_id, user_id, variant=variant, period=period,
                                    channels=channels)
    finishes = await economy.finishes(guild_id, user_id, period=period, channels=channels)
    panels = []
    if hands:
        panels.append(cash_panel(locale, game, period_name, hands))
    if finishes:
        panels.append(tournament_panel(locale, period_name, finishes))
    if not panels:
        return None
    view = GraphView(translate(locale, "graph.title", name=name), tuple(panels), locale=locale)
    png = await render_graphs_async(view)
    return discord.File(io.BytesIO(png), filename="stats.png", description=alt.graphs(view))


async def top_file(
    economy: Economy, name_of: Callable[[int], Awaitable[str]], board: Board, *,
    channels: Collection[int] | None, metric_name: str, period_name: str, locale: str,
) -> discord.File | None:
    """``/leaderboard graphs``: the first :data:`TOP_GRAPHS` players of ``board``, each
    one's running net (cash metrics) or profit (tournament metrics) over its period (or
    season) in ``channels``, side by side on one scale; None when nobody is ranked.

    Decision (issue 31): a balance has no history (gifts, bonuses and buy-ins move it
    too), so a balance leaderboard's graphs (the default one outside a season) draw its
    top players' net over all their hands (those who played none left out), and the
    title says so."""
    guild_id, period, season = board.guild_id, board.period, board.season
    ranking = await economy.leaderboard(guild_id, board.metric, period=period,
                                        variant=board.variant, page=0, per_page=TOP_GRAPHS,
                                        channels=channels, season=season)
    panels = []
    for row in ranking.rows:
        head = f"{row.rank}. {await name_of(row.user_id)}"
        if board.metric.value.startswith("tournament"):
            finishes = await economy.finishes(guild_id, row.user_id, period=period,
                                              channels=channels, season=season)
            panels.append(tournament_panel(locale, period_name, finishes, title=head))
        else:
            hands = await economy.hand_nets(guild_id, row.user_id, variant=board.variant,
                                            period=period, channels=channels, season=season)
            if hands:  # a top balance may have played no hand: nothing to draw
                panels.append(cash_panel(locale, "", period_name, hands, split=False,
                                         title=head))
    if not panels:
        return None
    key = "graph.top_balance" if board.metric is Metric.BALANCE else "graph.top"
    title = translate(locale, key, metric=metric_name, count=len(panels))
    view = top_view(locale, title, panels)
    png = await render_graphs_async(view)
    return discord.File(io.BytesIO(png), filename="leaderboard-graphs.png",
                        description=alt.graphs(view))
