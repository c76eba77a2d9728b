"""What the channel shows, built from snapshots (bot/adapter/scenes.py): the tournament
results picture's view; a hand's result text and pictures with each player's net."""

from __future__ import annotations

import pytest

from bot.adapter.scenes import Live, result_content, results_view, showdown_view, table_view
from bot.engine.variants import VARIANTS, Structure
from bot.i18n import LOCALES, listed
from bot.render import TableView
from bot.render.results import draw_results
from bot.render.showdown import draw_showdown, winner
from bot.render.table import draw_table
from bot.runtime.config import TableConfig
from bot.runtime.mix import Game, named
from bot.runtime.table.events import TournamentOver
from bot.runtime.table.views import HandResultView, SeatSnapshot, TableSnapshot
from tests.card_text import symbols
from tests.runtime.table.test_result_text import quartered_hand, split_hand, twice_hand

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


def _after(config: TableConfig, result: HandResultView, stacks: dict[int, int],
           folded: frozenset[int] = frozenset()) -> TableSnapshot:
    """The table once ``result``'s hand is over: a seat per player, their stacks."""
    names = {w.seat: w.name for p in result.pots for w in p.winners}
    names.update((s.seat, s.name) for s in result.shown)
    names.update((seat, f"p{seat}") for seat in stacks if seat not in names)
    seats = tuple(SeatSnapshot(seat, 10 + seat, names[seat], stack, in_hand=seat not in folded,
                               dealt_in=True, folded=seat in folded)
                  for seat, stack in sorted(stacks.items()))
    return TableSnapshot(table_id=3, guild_id=1, channel_id=2, creator_id=4, config=config,
                         seats=seats, hand_no=result.hand_no)


def _states(view: TableView) -> dict[int, str]:
    return {int(p.tag.removeprefix("state:")): p.text for p in draw_table(view).placed
            if p.tag.startswith("state:")}


@pytest.mark.parametrize("locale", ["en", "pt-BR"])
def test_a_hand_run_twice_draws_each_players_net(locale: str) -> None:
    """ann and bob collected 24 and 23 of board 1 for 31 each: their seats read −7 and −8,
    not +24 and +23; cy's +15. The result text says the same (issue 31)."""
    result = twice_hand()
    config = TableConfig.create(structure="no limit", run_it_twice=True, language=locale)
    snap = _after(config, result, {1: 24, 2: 23, 3: 115})
    assert _states(table_view(Live(snap), result=result)) == {1: "−7", 2: "−8", 3: "+15"}
    text = result_content(snap, result).splitlines()
    assert [line.split(" · ")[0] for line in text[1:]] == ["cy +15", "ann −7", "bob −8"]


@pytest.mark.parametrize("locale", ["en", "it"])
def test_a_quartered_pot_draws_each_players_net(locale: str) -> None:
    """bob collected 1 (a quarter) for the 2 he put in: the showdown's panel and the table's
    seat read −1; alice's +1 is the only winner's outline; a folded seat gets no net."""
    result = quartered_hand()
    config = TableConfig.create("omaha_hilo", language=locale)
    snap = _after(config, result, {1: 101, 2: 99, 3: 100}, folded=frozenset({3}))
    states = _states(table_view(Live(snap), result=result))
    assert (states[1], states[2]) == ("+1", "−1") and not states.get(3, "").startswith("±")
    cv = draw_showdown(showdown_view(snap, result))
    assert {p.tag: p.text for p in cv.placed if p.tag.startswith(("net:", "won:"))} == {
        "net:0": "+1", "net:1": "−1"}
    assert winner(showdown_view(snap, result).hands[0])
    assert not winner(showdown_view(snap, result).hands[1])


def test_a_split_pot_draws_even_nets() -> None:
    result = split_hand()
    snap = _after(TableConfig.create(), result, {1: 100, 2: 100})
    assert _states(table_view(Live(snap), result=result)) == {1: "±0", 2: "±0"}
    assert result_content(snap, result).splitlines()[1] == symbols(
        "bob (Ad Ks 8s 8d) and alice (Ah Kc 7s 7d) split 4 with straight, ace high")
