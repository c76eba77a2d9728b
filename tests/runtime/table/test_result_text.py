"""The result message (bot/runtime/table/result_text.py, issue 31): the winner's cards, a
split called a split, and for several pots, halves or boards a line per player with their
net for the hand; one capitalisation of hand names in every language."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from bot.engine.cards import parse_cards
from bot.engine.evaluate import best_high, best_low, hand_label
from bot.engine.variants import VARIANTS, HandRule
from bot.i18n import LOCALES, number, translate
from bot.runtime.table.hand_views import result_view
from bot.runtime.table.result_text import by_player, message_lines, signed
from bot.runtime.table.views import HandResultView, PotResultView, PotWinnerView, ShownHandView
from tests.card_text import all_symbols, symbols
from tests.engine.test_run_twice import _worked_hand
from tests.runtime.table.test_wording import _checked_down


def _down(variant: str, holes: list[str], board: str) -> HandResultView:
    view = _checked_down(variant, holes, board)
    assert isinstance(view, HandResultView)
    return view


def split_hand() -> HandResultView:
    """Heads-up Omaha checked down: both make the ace-high straight and split the 4."""
    return _down("omaha", ["AhKc7s7d", "AdKs8s8d"], "Ts Jd Qh 3c 2d")


def quartered_hand() -> HandResultView:
    """Heads-up Omaha Hi-Lo checked down: alice's kings take the high, both make
    7-4-3-2-A: the low is shared, alice collects 3 and bob 1 of the 4 (each put in 2)."""
    return _down("omaha_hilo", ["Ah4sKs9c", "Ad4c9s9h"], "2c3d7hKcKd")


def twice_hand() -> HandResultView:
    """tests/engine/test_run_twice.py's worked hand run twice: ann (31 in) and bob (31 in)
    split board 1's 47, cy's queens take board 2's 46."""
    hand = _worked_hand()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    return result_view(hand, 1, {1: "ann", 2: "bob", 3: "cy"}, {1: 11, 2: 12, 3: 13})


def test_the_winner_shows_their_cards_and_the_loser_theirs() -> None:
    view = _down("omaha", ["KhAs9d9c", "KdQs7c6h"], "Kc8d4s3h2c")
    assert message_lines("en", view) == all_symbols([
        "alice (Kh As 9d 9c) wins 4 with pair of kings, kicker ace",
        "bob shows Kd Qs 7c 6h: pair of kings, kicker queen"])
    assert message_lines("pt-BR", view) == all_symbols([
        "alice (Kh As 9d 9c) ganha 4 com par de reis, kicker ás",
        "bob mostra Kd Qs 7c 6h: par de reis, kicker dama"])


@pytest.mark.parametrize(("locale", "line"), [
    ("en", "bob (Ad Ks 8s 8d) and alice (Ah Kc 7s 7d) split 4 with straight, ace high"),
    ("pt-BR", "bob (Ad Ks 8s 8d) e alice (Ah Kc 7s 7d) dividem 4 com sequência, ás alto"),
    ("es-ES", "bob (Ad Ks 8s 8d) y alice (Ah Kc 7s 7d) se reparten 4 con escalera al as"),
    ("it", "bob (Ad Ks 8s 8d) e alice (Ah Kc 7s 7d) si dividono 4 con scala all'asso"),
])
def test_a_split_is_called_a_split(locale: str, line: str) -> None:
    """One line: who split the pot, with their cards, and the hand they tie with."""
    view = split_hand()
    assert not by_player(view)
    assert message_lines(locale, view) == [symbols(line)]


def test_an_uncontested_pot_names_no_hand_and_no_card() -> None:
    alone = HandResultView(hand_no=1, board=(), lines=(), net={1: 2}, pots=(
        PotResultView("Pot", 12, (PotWinnerView(1, "ann", 12),), uncontested=True),))
    assert message_lines("en", alone) == ["ann wins 12"]


@pytest.mark.parametrize(("locale", "lines"), [
    ("en", ["alice +1 · Ah 4s Ks 9c: three of a kind, kings; low 7-4-3-2-A",
            "bob −1 · Ad 4c 9s 9h: two pair, kings and nines; low 7-4-3-2-A"]),
    ("it", ["alice +1 · Ah 4s Ks 9c: tris di re; Low 7-4-3-2-A",
            "bob −1 · Ad 4c 9s 9h: doppia coppia, re e nove; Low 7-4-3-2-A"]),
])
def test_a_quartered_pot_gives_each_player_their_net(locale: str, lines: list[str]) -> None:
    """bob collects a quarter of the pot (1) for the 2 he put in: his line says −1, not
    "wins 1 low"; one line a player, not one a share."""
    view = quartered_hand()
    assert [(w.name, w.amount, w.half) for w in view.pots[0].winners] == [
        ("alice", 2, "high"), ("bob", 1, "low"), ("alice", 1, "low")]
    assert message_lines(locale, view) == all_symbols(lines)


@pytest.mark.parametrize(("locale", "lines"), [
    ("en", ["cy +15 · Qh Qd Jc Jd: pair of queens (board 1); three of a kind, queens (board 2)",
            "ann −7 · As Ks 7c 7d: two pair, aces and kings (board 1); pair of sevens (board 2)",
            "bob −8 · Ah Kh 6c 6d: two pair, aces and kings (board 1); pair of sixes (board 2)"]),
    ("es-ES", ["cy +15 · Qh Qd Jc Jd: pareja de reinas (mesa 1); trío de reinas (mesa 2)",
               "ann −7 · As Ks 7c 7d: doble pareja, ases y reyes (mesa 1); "
               "pareja de sietes (mesa 2)",
               "bob −8 · Ah Kh 6c 6d: doble pareja, ases y reyes (mesa 1); "
               "pareja de seises (mesa 2)"]),
])
def test_a_hand_run_twice_is_one_line_a_player(locale: str, lines: list[str]) -> None:
    """ann and bob took 24 and 23 of board 1 for the 31 each put in: they lost, and their
    lines say so; cy's net is what board 2 gave him over his 31."""
    view = twice_hand()
    assert len(view.pots) == 2 and sum(view.net.values()) == 0
    assert message_lines(locale, view) == all_symbols(lines)


def _pot(label: str, amount: int, *winners: tuple[int, str, int, str]) -> PotResultView:
    return PotResultView(label, amount, tuple(PotWinnerView(*w) for w in winners))


BOARD = parse_cards("2c 5d 7h 9s Kc")


def _shown(seat: int, name: str, hole: str) -> ShownHandView:
    """``name``'s hand shown at ``seat`` on :data:`BOARD`, evaluated by the engine."""
    cards = parse_cards(hole)
    label = hand_label(cards, BOARD, VARIANTS["omaha_hilo"])
    return ShownHandView(seat, 10 + seat, name, cards, label,
                         high=best_high(cards, BOARD, HandRule.OMAHA), low=best_low(cards, BOARD))


def three_pots() -> HandResultView:
    """ann (30 in) scoops the main pot; bob and cy (80 in each) split side pot 1 high/low
    and quarter side pot 2: bob collects 60, cy 40."""
    shown = (_shown(1, "ann", "Ah 3s Kd Kh"), _shown(2, "bob", "Ad 4s 9d 9h"),
             _shown(3, "cy", "Ac 4c 8d 8h"))
    pots = (
        _pot("Main pot", 90, (1, "ann", 45, "high"), (1, "ann", 45, "low")),
        _pot("Side pot 1", 60, (2, "bob", 30, "high"), (3, "cy", 30, "low")),
        _pot("Side pot 2", 40, (2, "bob", 20, "high"), (2, "bob", 10, "low"),
             (3, "cy", 10, "low")),
    )
    return HandResultView(hand_no=4, board=BOARD, lines=(), shown=shown, pots=pots,
                          payouts={1: 90, 2: 60, 3: 40}, net={1: 60, 2: -20, 3: -40})


def test_three_pots_are_three_lines_one_a_player() -> None:
    assert message_lines("en", three_pots()) == all_symbols([
        "ann +60 · Ah 3s Kd Kh: three of a kind, kings; low 7-5-3-2-A",
        "bob −20 · Ad 4s 9d 9h: three of a kind, nines; low 7-5-4-2-A",
        "cy −40 · Ac 4c 8d 8h: pair of eights; low 7-5-4-2-A",
    ])


@pytest.mark.parametrize("locale", LOCALES)
def test_nets_in_every_language(locale: str) -> None:
    lines = message_lines(locale, three_pots())
    assert [line.split(" · ")[0] for line in lines] == ["ann +60", "bob −20", "cy −40"]
    assert (signed(locale, 1234), signed(locale, -1234), signed(locale, 0)) == (
        "+" + number(locale, 1234), "\u2212" + number(locale, 1234), "±0")


WORD = re.compile(r"[^\W\d_]{2,}")
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@pytest.mark.parametrize("locale", LOCALES)
def test_one_capitalisation_in_every_result(locale: str) -> None:
    """Across every line of each result (split, quartered, run twice, three pots), a word
    is written one way only, and a hand's words are in lower case but for the
    language's own names of the halves (Italian "High", "Low")."""
    halves = {translate(locale, "half.high"), translate(locale, "half.low")}
    names = {"alice", "bob", "ann", "cy"}
    for view in (split_hand(), quartered_hand(), twice_hand(), three_pots()):
        forms: dict[str, set[str]] = defaultdict(set)
        lines = message_lines(locale, view)
        for line in lines:
            for word in WORD.findall(CARD.sub(" ", line)):
                forms[word.lower()].add(word)
                assert word in names or word in halves or word == word.lower(), (word, line)
        assert all(len(f) == 1 for f in forms.values()), (locale, lines)
