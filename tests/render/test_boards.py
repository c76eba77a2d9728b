"""The middle of the table picture (bot.render.boards): the board, two boards for a hand
run twice, the pots under it and after the hand who won each pot."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine.cards import parse_cards
from bot.render import render_table
from bot.render.boards import BOARD_H, HEIGHT, board_box
from bot.render.canvas import Placed, chips, chips_short, inside, overlaps
from bot.render.samples import full_table
from bot.render.table import WIDTH, centre_band, draw_table, shift
from bot.render.views import PotView, PotWinner, SeatStatus, SeatView, TableView
from tests.render.pixels import count_cards, load, mean_diff


def _tagged(placed: list[Placed], prefix: str) -> list[Placed]:
    return [p for p in placed if p.tag.startswith(prefix)]


def test_the_board_and_its_rows_of_pots_fit_the_band_they_are_given() -> None:
    """In any band: the board centred under the pot line, then room for the rows of
    pots; after the hand the board moves up to the pot line's place."""
    for band in (centre_band(), (0, 100, 600, 100 + HEIGHT), (50, 0, 751, HEIGHT)):
        during, after = board_box(band), board_box(band, over=True)
        assert inside(during, band) and inside(after, band)
        assert (during[0] + during[2]) // 2 == (band[0] + band[2]) // 2
        assert during[3] - during[1] == after[3] - after[1] == BOARD_H
        assert after[1] < during[1] and during[0] == after[0]


def test_each_pot_is_drawn_apart_with_its_label_clear_of_its_amount() -> None:
    """Two to ten pots: each has its own label and amount, the label ends well before the
    amount starts, and no two pots touch."""
    for count in range(2, 11):
        view = replace(full_table(), pots=tuple(PotView(10_000 * (i + 1) + 60)
                                                for i in range(count)))
        cv = draw_table(view)
        texts = _tagged(cv.placed, "pots")
        assert len(texts) == 2 * count
        amounts, labels = texts[0::2], texts[1::2]
        assert labels[0].text in ("Main pot", "Main", "M")  # a word or letter, never "M…"
        for i, (a, lab) in enumerate(zip(amounts, labels, strict=True)):
            amount = view.pots[i].amount
            assert a.text in (chips(amount), chips_short(amount))
            assert lab.text in (("Main pot", "Main", "M") if i == 0
                                else (f"Side pot {i}", f"Side {i}", f"S{i}"))
            assert lab.extent[2] + 6 <= a.extent[0], (lab.text, a.text)
        for a, b in itertools.combinations(texts, 2):
            assert not overlaps(a.extent, b.extent)


def test_results_that_do_not_fit_end_in_a_count_of_the_rest() -> None:
    """Ten pots split high and low among long names: three rows, the last ending in
    "+N more", and N is exactly the number of pots left out."""
    names = [f"Player {i} with a long name" for i in range(1, 11)]
    seats = tuple(SeatView(i + 1, n, 100) for i, n in enumerate(names))
    pots = tuple(PotView(1_000 + i, winners=(PotWinner(names[i], 500, "high", i + 1),
                                             PotWinner(names[-i - 1], 500, "low", 10 - i)))
                 for i in range(10))
    cv = draw_table(TableView("T", 1, 10, seats, board=parse_cards("2c3c4c5c6c"), pots=pots))
    results = _tagged(cv.placed, "result")
    pills = [p for p in results if p.text.startswith(("Main", "Side"))]
    more = [p.text for p in results if p.text.endswith(" more")]
    assert more == [f"+{10 - len(pills)} more"]
    assert 1 <= len(pills) < 10
    rows = {p.extent[1] // 10 for p in results}
    assert len(rows) <= 3
    for a, b in itertools.combinations(results, 2):
        assert not overlaps(a.extent, b.extent)


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5])
def test_board_shows_the_dealt_cards(n: int) -> None:
    """The board row holds exactly the dealt cards (pixel count), each one different."""
    board = parse_cards("AhKdQc2s7h")[:n]
    view = replace(full_table(), board=board)
    img = load(render_table(view))
    bx0, by0, bx1, _ = board_box(centre_band())
    by0 += shift(view)  # long names in the top row move the felt down
    assert count_cards(img, by0 + 3, bx0 - 2, bx1 + 2) == n
    cards = [p for p in draw_table(view).placed if p.tag == "board"]
    assert [p.card for p in cards] == list(board)
    for a, b in itertools.combinations(cards, 2):
        assert mean_diff(img.crop(a.extent), img.crop(b.extent)) > 2
        assert a.extent[3] - a.extent[1] == BOARD_H


@pytest.mark.parametrize("over", [False, True])
def test_a_hand_run_twice_draws_both_boards_side_by_side(over: bool) -> None:
    """Two boards in the board's place: numbered 1 and 2, the second left to right after
    the first, every card inside the felt and clear of the seats' cards and of each other;
    after the hand each board's share is a pot of its own."""
    seats = (SeatView(1, "ana", 0, status=SeatStatus.ALL_IN, cards=4,
                      shown=parse_cards("AsKs7c7d")),
             SeatView(4, "carla", 69, cards=4, shown=parse_cards("QhQdJcJd")))
    pots = (PotView(47, "Board 1", winners=(PotWinner("ana", 47, seat=1),)),
            PotView(46, "Board 2", winners=(PotWinner("carla", 46, seat=4),))) if over else (
        PotView(93),)
    view = TableView("Table 1", 7, 6, seats, board=parse_cards("AcKd2h3s9c"),
                     second_board=parse_cards("QcJh5s" + ("4h8d" if over else "")),
                     pots=pots, button=4, street="Turn")
    cv = draw_table(view)
    cards = [p for p in _tagged(cv.placed, "board") if p.kind == "card"]
    assert [str(p.card) for p in cards] == (
        ["Ac", "Kd", "2h", "3s", "9c", "Qc", "Jh", "5s"] + (["4h", "8d"] if over else []))
    assert [p.text for p in _tagged(cv.placed, "board") if p.kind == "text"] == ["1", "2"]
    xs = [p.extent[0] for p in cards]
    assert xs == sorted(xs) and cards[5].extent[0] > cards[4].extent[2]
    assert not any(overlaps(a.extent, b.extent) for a, b in itertools.combinations(cards, 2))
    shown = [p for p in cv.placed if p.kind == "card" and p.tag.startswith("shown")]
    assert shown and not any(overlaps(a.extent, b.extent) for a in cards for b in shown)
    assert all(p.extent[0] > 0 and p.extent[2] < WIDTH for p in cards)
    if over:
        assert [p.text for p in _tagged(cv.placed, "result") if "Board" in p.text] == [
            "Board 1", "Board 2"]
    png = render_table(view)
    assert png.startswith(b"\x89PNG")
