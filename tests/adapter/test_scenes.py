"""What the channel shows, built from snapshots (bot/adapter/scenes.py): the tournament
results picture's view."""

from __future__ import annotations

import pytest

from bot.adapter.scenes import results_view
from bot.engine.variants import VARIANTS, Structure
from bot.i18n import LOCALES, listed
from bot.render.results import draw_results
from bot.runtime.config import TableConfig
from bot.runtime.mix import Game, named
from bot.runtime.table.events import TournamentOver
from bot.runtime.table.views import TableSnapshot

ROTATION = (Game("holdem", Structure.NO_LIMIT), Game("omaha", Structure.POT_LIMIT),
            Game("omaha_hilo", Structure.FIXED_LIMIT))
PLACES = ((1, 7, 600), (2, 8, 300), (3, 9, 0))


def finished(config: TableConfig, games: tuple[Game, ...], cancelled: bool = False
             ) -> TournamentOver:
    """A sit-and-go over at a table whose last hand dealt ``config``'s current game."""
    snap = TableSnapshot(table_id=3, guild_id=1, channel_id=2, creator_id=4, config=config,
                         seats=())
    return TournamentOver(snap, 12, games, 900, PLACES, cancelled=cancelled)


def test_a_rotations_results_name_its_list_of_games_not_the_last_dealt() -> None:
    """RULES.md 11: the last hand dealt Omaha Hi-Lo fixed limit; the picture names the
    tournament's three games, in order, in the table's language."""
    mixed = TableConfig.create(games=ROTATION, small_blind=50, big_blind=100,
                               language="pt-BR").playing(ROTATION[2])
    assert mixed.current_game == ROTATION[2]
    view = results_view(finished(mixed, ROTATION), ("ana", "bia", "caio"))
    games = listed("pt-BR", map(named, ROTATION))
    assert games == "Texas Hold'em No Limit, Omaha Pot Limit e Omaha Hi-Lo Limite Fixo"
    assert view.subtitle == f"{games} · 3 jogadores · 900 fichas · resultado final"
    assert view.title == "Sit and go #12" and view.locale == "pt-BR"
    assert [(r.place, r.name, r.prize) for r in view.rows] == [
        (1, "ana", 600), (2, "bia", 300), (3, "caio", 0)]


def test_a_one_game_tournaments_results_keep_its_game_and_stakes() -> None:
    one = TableConfig.create(variant_key="omaha", structure="pot limit", small_blind=50,
                             big_blind=100)
    view = results_view(finished(one, (one.current_game,), cancelled=True), ("a", "b", "c"))
    assert view.subtitle == "Pot Limit Omaha 50/100 · 3 players · 900 chips · cancelled, pool split"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_longest_list_of_games_is_drawn_whole(locale: str) -> None:
    """Eight games (the most a list holds), the longest names of the language: the game
    line wraps under the title, nothing cut, the picture grown by its lines."""
    games = [Game(k, s) for k in VARIANTS for s in Structure]
    every = sorted(games, key=lambda g: len(named(g).to(locale)))[-8:]
    config = TableConfig.create(games=every, small_blind=500_000, big_blind=1_000_000,
                                seats=6, language=locale)
    view = results_view(finished(config, tuple(every)), ("N" * 32, "b", "c"))
    cv = draw_results(view)
    lines = [p for p in cv.placed if p.tag == "subtitle"]
    assert len(lines) > 1 and not any(p.cut for p in lines)
    assert " ".join(p.text for p in lines).replace(" ", "") == view.subtitle.replace(" ", "")
    one_line = draw_results(results_view(finished(config, every[:1]), ("N" * 32, "b", "c")))
    assert cv.img.height > one_line.img.height
