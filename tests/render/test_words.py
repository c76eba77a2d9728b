"""The pictures' words in the view's language (read from the canvas record, not OCR)."""

from __future__ import annotations

import dataclasses
import itertools
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import parse_cards
from bot.engine.evaluate import describe_high
from bot.engine.variants import VARIANTS, Structure
from bot.i18n import translate
from bot.render import canvas, fonts, samples
from bot.render.canvas import Canvas
from bot.render.fonts import ELLIPSIS, drawable
from bot.render.hole import draw_hole_cards
from bot.render.leaderboard import draw_leaderboard
from bot.render.replay import draw_frame
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import (
    BestHand,
    HoleCardsView,
    LeaderboardRow,
    LeaderboardView,
    SeatView,
    ShowdownHand,
    ShowdownView,
    TableView,
)
from bot.runtime.config import TableConfig
from bot.runtime.mix import Game, Mix, named
from bot.runtime.replay_frames import replay_view
from bot.runtime.table import wording
from tests.runtime.replay_hands import busy, play


def texts(cv: Canvas) -> list[str]:
    """What was drawn, as the view asked for it, accents and all."""
    return [p.text for p in cv.placed if p.kind == "text"]


def test_the_live_table_in_portuguese() -> None:
    view = dataclasses.replace(samples.full_table(), locale="pt-BR")
    drawn = texts(draw_table(view))
    assert "Mão #1234" in drawn  # a hand number is a name, not a quantity: no separator
    assert "FLOP" in drawn  # the seed document keeps the street names
    assert "Pote 1.252.757" in drawn  # every chip in the middle, Portuguese separators
    assert "Desistiu" in drawn and "Folded" not in drawn
    assert not any("Pot " in t for t in drawn)


def test_the_finished_table_in_latin_american_spanish() -> None:
    view = dataclasses.replace(samples.finished_table(), locale="es-419")
    drawn = " | ".join(texts(draw_table(view)))
    assert "Pozo principal" in drawn
    assert "Pozo secundario 1" in drawn or "Secundario 1" in drawn
    assert " alta" in drawn and " baja" in drawn  # the high and low halves
    assert "Main pot" not in drawn and " high" not in drawn


def test_the_showdown_in_italian() -> None:
    view = dataclasses.replace(samples.showdown(), locale="it")
    drawn = texts(draw_showdown(view))
    english = texts(draw_showdown(samples.showdown()))
    assert "SHOWDOWN" in drawn
    assert any(t.startswith("vince ") for t in drawn)
    assert not any(t.startswith("wins ") for t in drawn)
    assert "Piatto principale" in drawn
    descriptions = [t for t in english if t.startswith(("Flush", "Straight", "Two pair", "Pair",
                                                        "Three", "Full", "Low"))]
    assert descriptions
    for text in descriptions:
        assert text not in drawn or text.startswith("Low "), text


def test_hole_cards_in_spanish() -> None:
    view = dataclasses.replace(samples.hole_cards(), locale="es-ES")
    drawn = texts(draw_hole_cards(view))
    assert "Mesa" in drawn
    assert "Tienes:" in drawn
    assert "Pareja de Reyes; sin baja" in drawn
    six = dataclasses.replace(samples.hole_cards_six(), game="", locale="it")
    assert "6 carte coperte" in texts(draw_hole_cards(six))


def test_leaderboard_and_english_by_default() -> None:
    empty = LeaderboardView("Top", (), locale="pt-BR")
    assert "Ninguém aqui ainda" in texts(draw_leaderboard(empty))
    assert "Nobody here yet" in texts(draw_leaderboard(dataclasses.replace(empty, locale="fr")))
    assert "Pot 1,252,757" in texts(draw_table(samples.full_table()))


def _ascii(text: str) -> str:
    """``text`` with its accents dropped: what the old ASCII-only font drew."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if ord(c) < 128)


def _ink(text: str, bold: bool = False) -> Image.Image:
    """``text`` drawn on a canvas the way every picture draws it."""
    cv = Canvas(400, 60, palette(Theme.DARK), DeckStyle.FOUR_COLOUR)
    cv.text((10, 30), text, 28, (255, 255, 255), bold=bold, anchor="lm",
            limit=(0, 0, 400, 60))
    return cv.img


def test_accented_letters_are_drawn_with_their_accents() -> None:
    """"Mão" and "Mao" are different pixels, in both weights (the tilde is drawn)."""
    for bold in (False, True):
        diff = ImageChops.difference(_ink("Mão", bold), _ink("Mao", bold)).getbbox()
        assert diff is not None
        assert diff[0] >= 32 and diff[2] <= 60  # only around the "a"
    assert ImageChops.difference(_ink("Mao"), _ink("Mao")).getbbox() is None


@pytest.mark.parametrize(("locale", "draw", "view", "words"), [
    ("pt-BR", draw_table, samples.full_table, ("Mão #1234",)),
    ("pt-BR", draw_showdown, samples.showdown, ("Sequência, Cinco alto",)),
    ("pt-BR", draw_hole_cards, samples.hole_cards, ("Você tem:", "Par de Reis; sem mão baixa")),
    ("es-ES", draw_table, samples.finished_table, ("Se tiró",)),
    ("es-ES", draw_table, samples.finished_table, ("+1 más",)),
    ("es-419", draw_table, samples.full_table, ("Botó",)),
])
def test_each_language_keeps_its_accents(locale: str, draw: Callable[[Any], Canvas],
                                         view: Callable[[], Any], words: tuple[str, ...]
                                         ) -> None:
    """The words are handed to the canvas with their accents, and their pixels are
    not those of the same words without accents."""
    drawn = texts(draw(dataclasses.replace(view(), locale=locale)))
    for word in words:
        assert word in drawn, (word, drawn)
        assert ImageChops.difference(_ink(word), _ink(_ascii(word))).getbbox() is not None


def test_an_accented_name_keeps_its_accents_in_every_picture() -> None:
    """A player's name keeps its Latin letters (Italian, Polish, Turkish...); a name in
    another script is drawn as '?' of its length, never as empty boxes."""
    names = ("Niccolò", "Łukasz Żółć", "Ömer İnce", "李小龙")
    seats = tuple(SeatView(i + 1, n, 1_000) for i, n in enumerate(names))
    cv = draw_table(TableView("Tavolo", 7, 4, seats, locale="it"))
    drawn = {p.tag: p.text for p in cv.placed if p.tag.startswith("name:")}
    assert drawn == {"name:1": names[0], "name:2": names[1], "name:3": names[2],
                     "name:4": "???"}
    board = texts(draw_leaderboard(LeaderboardView(
        "Classifica", (LeaderboardRow(1, names[0], 5),), locale="it")))
    assert names[0] in board


# -- nothing a player reads on a picture is cut ---------------------------------------------

LOCALES = ("en", "pt-BR", "es-ES", "it", "es-419")


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every text the canvas had to shorten: the text-fitting function is instrumented
    (what it was given and what it gave back), not only the drawn record."""
    found: list[tuple[str, str]] = []
    real = fonts.fit

    def fit(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
        shown = real(text, size, max_width, bold=bold)
        if shown != drawable(text):
            found.append((text, shown))
        return shown

    for module in (fonts, canvas):  # every module that fits text by cutting it
        monkeypatch.setattr(module, "fit", fit)
    return found


def _high_descriptions() -> list[str]:
    """Every description the engine can give a high hand (each category, each rank)."""
    found: dict[str, None] = {}
    for category in range(9):
        for first in range(2, 15):
            for second in range(2, 15):
                found[describe_high(category << 20 | first << 16 | second << 12)] = None
    return list(found)


def _uncut(cv: Canvas, cuts: list[tuple[str, str]]) -> None:
    """Nothing drawn was cut, players' names included."""
    assert cuts == []
    drawn = [p for p in cv.placed if p.kind == "text"]
    assert drawn
    assert [p.text for p in drawn if p.cut or ELLIPSIS in p.text] == []


def _whole(cv: Canvas, name: str, tag: str) -> None:
    """``name`` is drawn whole (every letter, in order) by the texts tagged ``tag``."""
    lines = [p.text for p in cv.placed if p.tag == tag]
    assert "".join(lines).replace(" ", "") == name.replace(" ", ""), (name, lines)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_hand_label_is_drawn_whole_in_every_language(
        locale: str, cuts: list[tuple[str, str]]) -> None:
    """Each high hand the engine can name, with the longest low, on the hole-card picture
    ("you have ...") and on a showdown's best fives: whole, in every language."""
    board = parse_cards("Ah7d2c5s9h")
    highs = _high_descriptions()
    for high in highs:
        cv = draw_hole_cards(HoleCardsView("#poker", 12, parse_cards("AsKh3d4c"), board,
                                           label=f"{high}; Low 8-7-6-5-4", locale=locale))
        _uncut(cv, cuts)
        assert any(p.tag == "label" for p in cv.placed)
    hands = tuple(ShowdownHand("Ann", parse_cards("AsKh3d4c"), BestHand(board, high),
                               BestHand(board, "Low 8-7-6-5-4"), won=1, seat=1)
                  for high in highs[:40])
    cv = draw_showdown(ShowdownView("#poker", 12, board, hands, hi_lo=True, locale=locale))
    _uncut(cv, cuts)
    assert len(cuts) == 0 and len(highs) > 100


@pytest.mark.parametrize("locale", LOCALES)
def test_every_pot_name_is_drawn_whole_at_ten_seats(
        locale: str, cuts: list[tuple[str, str]]) -> None:
    """A main pot and nine side pots, each split high and low, on the showdown picture
    (which pots each winner took) and at 2-, 6- and 10-seat tables of 32-letter names,
    during and after the hand: every pot's name and half whole, and every player's name
    in its seat box and in the pots' winner rows."""
    showdown = dataclasses.replace(samples.crowded_showdown(), locale=locale)
    cv = draw_showdown(showdown)
    _uncut(cv, cuts)
    where = " ".join(p.text for p in cv.placed if p.tag.startswith("where:"))
    assert translate(locale, "pot.side", number="9") in where
    assert [p.text for p in cv.placed if p.tag == "board-label"] == [
        translate(locale, "render.board")]  # not "Board" in every language
    main = "".join(p.text for p in cv.placed if p.tag == "pot:0").replace(" ", "")
    for name in samples.LONG_NAMES[:2]:  # the main pot's two winners, over rows of their own
        assert name.replace(" ", "") in main, main
    for seats, finished in itertools.product((2, 6, 10), (False, True)):
        table = dataclasses.replace(samples.crowded_table(seats, finished), locale=locale)
        cv = draw_table(table)
        _uncut(cv, cuts)
        for seat in table.seats:
            _whole(cv, seat.name, f"name:{seat.seat}")
    assert [p.text for p in cv.placed if p.tag == "result"][-1] == translate(
        locale, "pot.more", count=10)  # ten pots of 32-letter winners: none fits whole


@pytest.mark.parametrize("locale", LOCALES)
def test_hole_card_titles_are_whole_for_every_game(
        locale: str, cuts: list[tuple[str, str]]) -> None:
    """The hole-card picture's title and game line for every variant and structure (with
    an ante, six-figure blinds and a six-digit table number), Courchevel in es-419
    included, and the board's label beside its one card."""
    for key in VARIANTS:
        for structure in Structure:
            config = TableConfig(variant_key=key, structure=structure, small_blind=500_000,
                                 big_blind=1_000_000, ante=100_000, language=locale)
            view = HoleCardsView(wording.table_name(locale, 987_654), 987_654_321,
                                 parse_cards("AsKhQd"), parse_cards("Kh"),
                                 label="Full house, kings full of sevens; no low",
                                 game=wording.title(locale, config), locale=locale)
            cv = draw_hole_cards(view)
            _uncut(cv, cuts)
            drawn = {p.tag: p.text for p in cv.placed}
            assert drawn["board-label"] == translate(locale, "render.board")
            assert "".join(p.text for p in cv.placed if p.tag == "game").replace(" ", "") \
                == view.game.replace(" ", "").replace("\u202f", "")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("seats", [2, 10])
def test_a_mixed_tables_game_line_is_whole(
        locale: str, seats: int, cuts: list[tuple[str, str]]) -> None:
    """A mixed table's picture says the game dealt now and the next one (RULES.md 11): with
    the longest names of every language, six-figure blinds and an ante, drawn whole."""
    games = [Game(k, s) for k in VARIANTS for s in Structure]
    longest = max(games, key=lambda g: len(named(g).to(locale)))
    mix = Mix((games[0], games[1], longest), every=10)
    config = TableConfig(variant_key=longest.variant_key, structure=longest.structure,
                         small_blind=500_000, big_blind=1_000_000, ante=100_000,
                         language=locale, mix=mix)
    game = f"{wording.title(locale, config)} · {wording.next_game(locale, mix, 21)}"
    assert wording.next_game(locale, mix, 21) == translate(
        locale, "mix.next_in", game=named(games[0]), count=10)
    view = dataclasses.replace(samples.full_table(), game=game, locale=locale,
                               seats=samples.full_table().seats[:seats])
    cv = draw_table(view)
    _uncut(cv, cuts)
    _whole(cv, game, "game")


def test_open_seats_are_worded() -> None:
    """An open seat reads "Assento 3" at a Portuguese table (it read "Seat 3" everywhere)."""
    view = dataclasses.replace(samples.full_table(), locale="pt-BR",
                               seats=samples.full_table().seats[:2])
    drawn = {p.tag: p.text for p in draw_table(view).placed if p.tag.startswith("open:")}
    assert drawn["open:3"] == translate("pt-BR", "render.seat", number="3") == "Assento 3"


def test_the_results_picture_heads_its_prizes_in_the_language() -> None:
    from bot.render.results import draw_results
    from bot.render.views import ResultRow, ResultsView

    view = ResultsView("Sit and go #3", "Omaha", (ResultRow(1, "Ann", 300),), locale="it")
    assert "Premio" in texts(draw_results(view))
    assert "Prize" in texts(draw_results(dataclasses.replace(view, locale="en")))


def _phone_readable(cv: Canvas) -> None:
    """Shown 400 pixels wide, as on a phone, no letter is under 12 pixels."""
    small = [p.text for p in cv.placed if p.kind == "text"
             and cv.phone_px(p.size) < canvas.PHONE_MIN_PX]
    assert small == []


@pytest.mark.parametrize("locale", LOCALES)
def test_two_card_pictures_cut_nothing_in_every_language(
        locale: str, cuts: list[tuple[str, str]]) -> None:
    """Texas Hold'em's two-card pictures, read at a phone's 400 pixels, in every language:
    the hole-card DM with every high hand the engine can name and every structure's game
    line (six-figure blinds and an ante), tables of 2, 6 and 10 seats of 32-letter names
    during and after the hand, a showdown of ten two-card hands, the six-max samples and a
    replay's frames: nothing is cut, names whole, no letter under 12 pixels."""
    board = parse_cards("Ah7d2c5s9h")
    for high, structure in zip(_high_descriptions(), itertools.cycle(Structure)):
        config = TableConfig(variant_key="holdem", structure=structure, small_blind=500_000,
                             big_blind=1_000_000, ante=100_000, language=locale)
        cv = draw_hole_cards(HoleCardsView(wording.table_name(locale, 987_654), 987_654_321,
                                           parse_cards("AsKh"), board, label=high,
                                           game=wording.title(locale, config), locale=locale))
        _uncut(cv, cuts)
    _phone_readable(cv)
    for seats, finished in itertools.product((2, 6, 10), (False, True)):
        table = dataclasses.replace(samples.crowded_table(seats, finished, hole=2),
                                    locale=locale)
        cv = draw_table(table)
        _uncut(cv, cuts)
        _phone_readable(cv)
        for seat in table.seats:
            _whole(cv, seat.name, f"name:{seat.seat}")
    pictures = [draw_showdown(dataclasses.replace(
        samples.crowded_showdown(10, hole=2, hi_lo=False), locale=locale))]
    pictures += [draw(dataclasses.replace(view(), locale=locale)) for draw, view in (
        (draw_table, samples.holdem_table), (draw_table, lambda: samples.holdem_table(True)),
        (draw_hole_cards, samples.holdem_hole_cards), (draw_showdown, samples.holdem_showdown))]
    past = play(6, variant="holdem", policy=busy, twice=True, seed=5)
    pictures += [draw_frame(f) for f in replay_view(past, dict.fromkeys(range(1, 7), "W" * 32),
                                                    1, locale).frames]
    for cv in pictures:
        _uncut(cv, cuts)
        _phone_readable(cv)
        assert cv.img.width == 2 * canvas.PHONE_WIDTH


@pytest.mark.parametrize("locale", LOCALES)
def test_a_double_board_showdown_is_drawn_whole(
        locale: str, cuts: list[tuple[str, str]]) -> None:
    """Both boards named in the language ("Board 2", "Mesa 2"...), each hand's fives on
    each board under its name, every label and pot whole."""
    view = dataclasses.replace(samples.double_board_showdown(), locale=locale)
    cv = draw_showdown(view)
    _uncut(cv, cuts)
    board2 = translate(locale, "pot.board", number="2")
    assert [p.text for p in cv.placed if p.tag == "board-label:2"] == [
        board2[:1].upper() + board2[1:]]
    assert len([p for p in cv.placed if p.tag.startswith("board-name:2:")]) == 3
