"""PHH hand histories: reading, writing, PokerKit compatibility and round trips."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bot.engine import phh
from bot.engine.cards import card
from bot.engine.phh import (
    BoardDeal,
    HandError,
    HandHistory,
    HoleDeal,
    PHHError,
    PlayerAction,
    Show,
    parse_action,
)

DATA = Path(__file__).parent / "data"


def _pokerkit_loads(text: str) -> object:
    from pokerkit import HandHistory as PKHandHistory

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unexpected field would warn
        return PKHandHistory.loads(text)


# --- actions ---------------------------------------------------------------


def test_actions_are_read_with_their_cards_and_amounts() -> None:
    """Every Omaha action of PHH reads into a typed record (players 0-based)."""
    assert parse_action("d dh p1 AsKd??Qh") == HoleDeal(
        0, (card("As"), card("Kd"), None, card("Qh"))
    )
    assert parse_action("d db Ah9s2d # flop") == BoardDeal((card("Ah"), card("9s"), card("2d")))
    assert parse_action("p3 f") == PlayerAction(2, "f")
    assert parse_action("p2 cc") == PlayerAction(1, "cc")
    assert parse_action("p10 cbr 1,500") == PlayerAction(9, "cbr", 1500)
    assert parse_action("p1 sm AsKsQhJh") == Show(0, tuple(map(card, ("As", "Ks", "Qh", "Jh"))))
    assert parse_action("p1 sm") == Show(0, None)
    assert parse_action("# just a comment") is None


@pytest.mark.parametrize(
    "bad",
    ["p0 f", "x1 f", "p1 cbr ten", "p1 cbr 0", "d db ????", "d dh p1 AsK", "p1 raise 5", "p1 sd"],
)
def test_unreadable_actions_are_hand_errors(bad: str) -> None:
    """An action that cannot be read makes that hand an error, with a readable reason."""
    with pytest.raises(HandError):
        parse_action(bad)


# --- reading ---------------------------------------------------------------


def test_pokerkit_written_files_load() -> None:
    """Files written by PokerKit's own writer (.phh and .phhs) load in ours."""
    one = phh.load_path(DATA / "pokerkit_po_3handed.phh")
    many = phh.load_path(DATA / "pokerkit_po.phhs")
    assert len(one) == 1 and len(many) == 2
    hand = one[0]
    assert hand == many[0]
    assert hand.variant == "PO"
    assert hand.blinds_or_straddles == (1, 2, 0)
    assert hand.min_bet == 2
    assert hand.starting_stacks == (200, 150, 300)
    assert hand.finishing_stacks == (138, 219, 293)
    assert hand.actions[3] == "p3 cbr 7"
    assert many[1].starting_stacks == (100, 80)


@pytest.mark.parametrize(
    "text",
    [
        "variant = 'PO'\nantes = [0, 0]",  # no actions, no stacks
        "variant = 'PO'\nantes = [0, 0]\nstarting_stacks = [1, 2]\nactions = 'p1 f'",
        "variant = 'PO'\nantes = 'none'\nstarting_stacks = [1, 2]\nactions = []",
        "variant = \n",
        "title = 'hello'",
        "[1]\nvariant = 'PO'\n[2]\nfoo = 1",
        "",
    ],
)
def test_text_that_is_not_phh_is_unreadable(text: str) -> None:
    """Bad TOML or a record without the required PHH fields cannot be read."""
    with pytest.raises(PHHError):
        phh.loads_all(text)


def test_fractional_chips_are_a_problem_of_that_hand_only() -> None:
    """Amounts with fractions are readable PHH but mark the hand as not replayable."""
    text = (
        "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [500, 1000]\nmin_bet = 1000\n"
        "starting_stacks = [1259450.25, 678473.5]\nactions = []\n"
    )
    hand = phh.loads(text)
    assert hand.problem is not None and "whole chips" in hand.problem


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    """A path that does not exist raises PHHError with the path in the message."""
    with pytest.raises(PHHError, match=r"nope\.phh"):
        phh.load_path(tmp_path / "nope.phh")


# --- writing ---------------------------------------------------------------


def _sample() -> HandHistory:
    return HandHistory(
        variant="PO/8",
        antes=(1, 1, 1),
        blinds_or_straddles=(1, 2, 0),
        min_bet=2,
        starting_stacks=(100, 90, 80),
        actions=("d dh p1 AsKsQsJsTs", "d dh p2 2c3c4c5c6c", "d dh p3 ??????????", "p3 f"),
        finishing_stacks=(99, 93, 79),
        seats=(2, 5, 7),
        players=('Ann "the rock"', "Bo", "Cé"),
        hole_cards=5,
        courchevel=True,
        extra=(("hand", 12), ("_table", "Main table")),
    )


def test_writer_is_deterministic_and_reads_back_the_same() -> None:
    """dumps() gives the same text every time and loads() returns an equal record."""
    hand = _sample()
    text = phh.dumps(hand)
    assert text == phh.dumps(hand)
    back = phh.loads(text)
    assert back == hand
    assert back.extra == hand.extra
    assert phh.dumps(back) == text
    assert text.splitlines()[0] == 'variant = "PO/8"'
    assert '  "p3 f",' in text.splitlines()


def test_multi_hand_files_round_trip() -> None:
    """dumps_all() writes [1], [2], ... tables that loads_all() reads back in order."""
    a = _sample()
    b = HandHistory(
        variant="FO",
        antes=(0, 0),
        blinds_or_straddles=(1, 2),
        small_bet=2,
        big_bet=4,
        starting_stacks=(50, 60),
        actions=("d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "p2 f"),
    )
    text = phh.dumps_all([a, b])
    assert text.startswith("[1]\n")
    assert phh.loads_all(text) == [a, b]


def test_our_files_load_in_pokerkit() -> None:
    """PokerKit's loader reads our output without warnings, with the same fields."""
    hand = _sample()
    loaded = _pokerkit_loads(phh.dumps(hand))
    assert loaded.variant == "PO/8"  # type: ignore[attr-defined]
    assert list(loaded.starting_stacks) == [100, 90, 80]  # type: ignore[attr-defined]
    assert list(loaded.actions) == list(hand.actions)  # type: ignore[attr-defined]
    assert loaded.players == list(hand.players or ())  # type: ignore[attr-defined]
    assert loaded.user_defined_fields == {  # type: ignore[attr-defined]
        "_table": "Main table",
        "_hole_cards": 5,
        "_courchevel": True,
    }
