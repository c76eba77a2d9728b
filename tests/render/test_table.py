"""The table picture (bot.render.table)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine.cards import DECK, parse_cards
from bot.render import render_table
from bot.render.canvas import Placed, inside, overlaps
from bot.render.samples import courchevel_table, full_table
from bot.render.table import (
    BOARD_H,
    HEADER,
    HEIGHT,
    WIDTH,
    board_box,
    draw_table,
    seat_spots,
)
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import PotView, SeatStatus, SeatView, TableView
from tests.render.pixels import border_is_plain, count_cards, load, mean_diff


def _tagged(placed: list[Placed], prefix: str) -> list[Placed]:
    return [p for p in placed if p.tag.startswith(prefix)]


def _crowded(max_seats: int) -> TableView:
    """Every seat taken, long names, huge stacks and bets, every marker at once."""
    seats = tuple(
        SeatView(i + 1, f"Player number {i + 1} with a very long display name",
                 stack=987_654_321, bet=123_456_789,
                 status=[SeatStatus.ACTIVE, SeatStatus.ALL_IN][i % 2],
                 blind="SB+BB" if i == 1 else "", cards=6)
        for i in range(max_seats))
    return TableView("T" * 80, 10**9, max_seats, seats, board=parse_cards("AhKhQhJhTh"),
                     pots=tuple(PotView(10**8 + i) for i in range(6)), button=1, to_act=2,
                     clock=9.5, clock_total=30, game="G" * 200, street="River",
                     note="N" * 200)


@pytest.mark.parametrize("max_seats", range(2, 11))
def test_seat_boxes_never_overlap_for_any_table_size(max_seats: int) -> None:
    """Seat boxes are inside the picture, below the header, apart, and off the board."""
    spots = seat_spots(max_seats)
    assert [s.seat for s in spots] == list(range(1, max_seats + 1))
    for s in spots:
        assert inside(s.box, (0, HEADER, WIDTH, HEIGHT)), s
        assert not overlaps(s.box, board_box())
    for a, b in itertools.combinations(spots, 2):
        assert not overlaps(a.box, b.box), (a.seat, b.seat)


def test_seat_one_is_at_the_top_and_seats_go_clockwise() -> None:
    """Seat 1 is at the top; seat 3 of 10 is right of seat 2, seat 6 is at the bottom."""
    spots = seat_spots(10)
    centre_x = [(s.box[0] + s.box[2]) / 2 for s in spots]
    assert spots[0].box[1] == min(s.box[1] for s in spots)
    assert centre_x[1] > centre_x[0] and centre_x[2] > centre_x[1]
    assert spots[5].box[3] == max(s.box[3] for s in spots)


@pytest.mark.parametrize(("max_seats", "theme"), [
    *((n, Theme.DARK) for n in range(2, 11)), (6, Theme.LIGHT), (10, Theme.LIGHT)])
def test_no_text_leaves_its_box_even_when_crowded(max_seats: int, theme: Theme) -> None:
    """With the longest names and amounts, all text stays in its box and nothing collides."""
    cv = draw_table(_crowded(max_seats), theme)
    texts = [p for p in cv.placed if p.kind == "text"]
    for p in texts:
        assert inside(p.extent, p.limit), p
        assert inside(p.extent, cv.bounds), p
    for a, b in itertools.combinations(texts, 2):
        assert not overlaps(a.extent, b.extent), (a.text, b.text)
    names = _tagged(cv.placed, "name:")
    assert len(names) == max_seats
    assert all(p.text.endswith("\u2026") for p in names)
    spots = {s.seat: s.box for s in seat_spots(max_seats)}
    backs: dict[str, tuple[int, int, int, int]] = {}  # the face-down cards of each seat
    for p in _tagged(cv.placed, "back:"):
        old = backs.get(p.tag, p.extent)
        backs[p.tag] = (min(old[0], p.extent[0]), min(old[1], p.extent[1]),
                        max(old[2], p.extent[2]), max(old[3], p.extent[3]))
    for p in _tagged(cv.placed, "bet:"):  # bets sit on the felt, clear of seats and board
        assert not overlaps(p.extent, board_box())
        assert not any(overlaps(p.extent, box) for box in spots.values())
        assert not any(overlaps(p.extent, box) for box in backs.values())
    for tag, box in backs.items():  # face-down cards touch no other seat, nor the board
        seat = int(tag.split(":")[1])
        assert not overlaps(box, board_box())
        assert not any(overlaps(box, b) for n, b in spots.items() if n != seat)


def test_full_table_shows_every_marker() -> None:
    """Button, blinds, folded, all-in, sitting out and the clock land in the right seats."""
    view = full_table()
    cv = draw_table(view)
    spots = {s.seat: s.box for s in seat_spots(10)}

    def in_seat(tag: str, seat: int) -> list[str]:
        return [p.text for p in cv.placed if p.tag == f"{tag}:{seat}"
                and inside(p.extent, spots[seat])]

    assert in_seat("button", 7) == ["D"]
    assert in_seat("badge", 8) == ["SB"]
    assert sorted(in_seat("badge", 9)) == ["BB", "FOLDED"]
    assert in_seat("badge", 3) == ["FOLDED"]
    assert in_seat("badge", 4) == ["ALL-IN"]
    assert in_seat("badge", 6) == ["SITTING OUT"]
    assert in_seat("clock", 1) == ["0:17"]
    assert not _tagged(cv.placed, "clock:2")
    assert in_seat("stack", 2) == ["98,765,432"]
    bets = {p.tag: p.text for p in _tagged(cv.placed, "bet:")}
    assert bets == {"bet:2": "200", "bet:4": "1.23M", "bet:5": "200", "bet:8": "50",
                    "bet:9": "100", "bet:10": "100"}
    assert [p.text for p in _tagged(cv.placed, "pot")] == [
        "Pot 1,252,757", "Main: 12,340 \u00b7 Side 1: 4,400 \u00b7 Side 2: 800"]
    backs = _tagged(cv.placed, "back:")
    in_hand = [s for s in view.seats if s.status in (SeatStatus.ACTIVE, SeatStatus.ALL_IN)]
    assert len(backs) == 4 * len(in_hand)


def test_whose_turn_is_outlined_in_the_accent_colour() -> None:
    """The seat to act has an accent border; the others do not."""
    img = load(render_table(full_table()))
    accent = palette(Theme.DARK).accent
    for spot in seat_spots(10):
        x = (spot.box[0] + spot.box[2]) // 2
        edge = img.getpixel((x, spot.box[1] + 1))
        assert (edge == accent) == (spot.seat == 1), spot.seat


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5])
def test_board_shows_the_dealt_cards(n: int) -> None:
    """The board row holds exactly the dealt cards (pixel count), each one different."""
    board = parse_cards("AhKdQc2s7h")[:n]
    view = replace(full_table(), board=board)
    img = load(render_table(view))
    bx0, by0, bx1, _ = board_box()
    assert count_cards(img, by0 + 3, bx0 - 2, bx1 + 2) == n
    cards = [p for p in draw_table(view).placed if p.tag == "board"]
    assert [p.card for p in cards] == list(board)
    for a, b in itertools.combinations(cards, 2):
        assert mean_diff(img.crop(a.extent), img.crop(b.extent)) > 2
        assert a.extent[3] - a.extent[1] == BOARD_H


def test_courchevel_shows_its_first_board_card_preflop() -> None:
    """Courchevel preflop: one face-up board card and the preflop label."""
    cv = draw_table(courchevel_table())
    assert [str(p.card) for p in cv.placed if p.tag == "board"] == ["Kd"]
    assert [p.text for p in _tagged(cv.placed, "street")] == ["PREFLOP"]
    open_seat = [p for p in cv.placed if p.text == "Seat 3"]
    assert len(open_seat) == 1 and inside(open_seat[0].extent, seat_spots(6)[2].box)


def test_shown_cards_replace_the_face_down_ones() -> None:
    """After a showdown the shown cards are drawn face up, the backs are gone."""
    seats = (SeatView(1, "Ann", 100, shown=parse_cards("AsKsQsJs"), cards=4),
             SeatView(2, "Ben", 100, cards=4))
    cv = draw_table(TableView("T", 1, 2, seats, board=parse_cards("2c3c4c5c6c")))
    assert [str(p.card) for p in _tagged(cv.placed, "shown:1")] == ["As", "Ks", "Qs", "Js"]
    assert not _tagged(cv.placed, "back:1")
    assert len(_tagged(cv.placed, "back:2")) == 4


def test_themes_and_deck_styles_change_the_picture() -> None:
    """Dark and light backgrounds differ; the deck style recolours the board."""
    dark = load(render_table(full_table(), Theme.DARK))
    light = load(render_table(full_table(), Theme.LIGHT))
    assert dark.getpixel((5, 5)) == palette(Theme.DARK).background
    assert light.getpixel((5, 5)) == palette(Theme.LIGHT).background
    two = load(render_table(full_table(), Theme.DARK, DeckStyle.TWO_COLOUR))
    box = board_box()
    assert mean_diff(dark.crop(box), two.crop(box)) > 0.5
    assert border_is_plain(dark, 4, palette(Theme.DARK).background)


def test_full_table_png_is_small_enough_to_upload_fast() -> None:
    """A full 10-seat table is well under 300 KB at 1280x860."""
    png = render_table(full_table())
    assert load(png).size == (WIDTH, HEIGHT)
    assert len(png) < 300_000


def test_unknown_seat_or_long_board_is_refused() -> None:
    """A seat number beyond the table or a sixth board card is an error."""
    with pytest.raises(ValueError, match="seat 7"):
        render_table(TableView("T", 1, 6, (SeatView(7, "X", 1),)))
    with pytest.raises(ValueError, match="at most 5"):
        render_table(TableView("T", 1, 6, (), board=parse_cards("2c3c4c5c6c7c")))


@pytest.mark.parametrize(("max_seats", "hole"), [(10, 4), (9, 4), (8, 5), (7, 6), (6, 6), (2, 6)])
def test_shown_hands_at_a_full_table_do_not_overlap(max_seats: int, hole: int) -> None:
    """Every seat showing its cards: the fans touch no box, no board card, no other fan."""
    deck = iter(DECK)
    seats = tuple(SeatView(i + 1, f"Player {i + 1}", 1000, cards=hole,
                           shown=tuple(next(deck) for _ in range(hole)))
                  for i in range(max_seats))
    cv = draw_table(TableView("Showdown", 1, max_seats, seats,
                              board=tuple(next(deck) for _ in range(5)), pots=(PotView(10),),
                              note="Player 1 wins 10"))
    fans: dict[str, list[tuple[int, int, int, int]]] = {}
    for p in _tagged(cv.placed, "shown:"):
        fans.setdefault(p.tag, []).append(p.extent)
    assert len(fans) == max_seats and all(len(v) == hole for v in fans.values())
    boxes = [s.box for s in seat_spots(max_seats)]
    others = [p.extent for p in cv.placed if not p.tag.startswith("shown:")
              and p.tag != "" and not p.tag.startswith(("name:", "stack:"))]
    for tag, cards in fans.items():
        for card_box in cards:
            assert inside(card_box, cv.bounds)
            assert not overlaps(card_box, board_box()), tag
            assert not any(overlaps(card_box, b) for b in boxes), tag
            assert not any(overlaps(card_box, o) for o in others), tag
            for other_tag, other_cards in fans.items():
                if other_tag != tag:
                    assert not any(overlaps(card_box, o) for o in other_cards), (tag, other_tag)


def test_a_name_of_emoji_only_falls_back_to_the_seat_number() -> None:
    """A name the font cannot draw at all still labels the seat."""
    seats = (SeatView(1, "\U0001f525\U0001f525", 100), SeatView(2, "Jos\u00e9", 100))
    cv = draw_table(TableView("T", 1, 2, seats))
    names = {p.tag: p.text for p in _tagged(cv.placed, "name:")}
    assert names == {"name:1": "Seat 1", "name:2": "Jose"}
