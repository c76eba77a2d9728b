"""The results picture of a sit-and-go: place, name and prize, drawn as the leaderboard is.

It is the leaderboard's layout (medals for the top three, the value column on
the right, every letter at least 12 px when Discord shows it 400 px wide) with
the prize as the value: chips for a paid place, a dash for none. After a
cancellation the players still in have no place: they are numbered in the
order given (biggest prize first).
"""

from __future__ import annotations

from bot.render import words
from bot.render.canvas import Canvas
from bot.render.leaderboard import draw_leaderboard
from bot.render.theme import Theme
from bot.render.views import LeaderboardRow, LeaderboardView, ResultsView

__all__ = ["draw_results", "render_results"]

NO_PRIZE = "–"


def leaderboard_of(view: ResultsView) -> LeaderboardView:
    rows = tuple(
        LeaderboardRow(row.place if row.place is not None else i, row.name,
                       row.prize if row.prize > 0 else NO_PRIZE)
        for i, row in enumerate(view.rows, start=1)
    )
    with words.speaking(view.locale):
        prize = words.say("render.prize")
    return LeaderboardView(view.title, rows, view.subtitle, prize, locale=view.locale)


def draw_results(view: ResultsView, theme: Theme | str = Theme.DARK) -> Canvas:
    return draw_leaderboard(leaderboard_of(view), theme)


def render_results(view: ResultsView, theme: Theme | str = Theme.DARK) -> bytes:
    """PNG of a tournament's results."""
    return draw_results(view, theme).png()
