"""The table picture (bot.render.table)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine.cards import DECK, parse_cards
from bot.render import render_table
from bot.render.canvas import Canvas, Placed, inside, overlaps
from bot.render.front import BLIND_INK
from bot.render.samples import courchevel_table, crowded_table, finished_table, full_table
from bot.render.table import (
    BOX_H,
    HEADER,
    HEIGHT,
    MARGIN,
    MINI_STEP,
    WIDTH,
    board_box,
    draw_table,
    height,
    layout,
    seat_spots,
    shift,
)
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import PotView, PotWinner, SeatStatus, SeatView, TableView
from tests.render.pixels import border_is_plain, load, mean_diff


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
    """With the longest names and amounts, all text stays in its box and nothing collides;
    the long title and game take more lines and move the table down by them."""
    view = _crowded(max_seats)
    cv = draw_table(view, theme)
    dy = shift(view)
    assert dy > 0 and cv.img.height == load(cv.png()).height
    texts = [p for p in cv.placed if p.kind == "text"]
    for p in texts:
        assert inside(p.extent, p.limit), p
        assert inside(p.extent, cv.bounds), p
    for a, b in itertools.combinations(texts, 2):
        assert not overlaps(a.extent, b.extent), (a.text, b.text)
    for seat in view.seats:  # each name whole, on as many lines as it takes
        lines = [p.text for p in cv.placed if p.tag == f"name:{seat.seat}"]
        assert "".join(lines).replace(" ", "") == seat.name.replace(" ", ""), lines
        assert len(lines) > 1 or max_seats == 2
    spots = {s.seat: s.box for s in layout(view)}
    board = _moved(board_box(), dy)
    for a, b in itertools.combinations(spots.values(), 2):  # grown boxes stay apart
        assert not overlaps(a, b)
    for box in spots.values():
        assert inside(box, cv.bounds) and not overlaps(box, board)
        assert box[3] - box[1] > BOX_H or max_seats == 2
    backs: dict[str, tuple[int, int, int, int]] = {}  # the face-down cards of each seat
    for p in _tagged(cv.placed, "back:"):
        old = backs.get(p.tag, p.extent)
        backs[p.tag] = (min(old[0], p.extent[0]), min(old[1], p.extent[1]),
                        max(old[2], p.extent[2]), max(old[3], p.extent[3]))
    for p in _tagged(cv.placed, "bet:"):  # bets sit on the felt, clear of seats and board
        assert not overlaps(p.extent, board)
        assert not any(overlaps(p.extent, box) for box in spots.values())
        assert not any(overlaps(p.extent, box) for box in backs.values())
    for tag, box in backs.items():  # face-down cards touch no other seat, nor the board
        seat = int(tag.split(":")[1])
        assert not overlaps(box, board)
        assert not any(overlaps(box, b) for n, b in spots.items() if n != seat)


def _moved(box: tuple[int, int, int, int], dy: int) -> tuple[int, int, int, int]:
    return (box[0], box[1] + dy, box[2], box[3] + dy)


def _in_seat(cv: Canvas, tag: str, seat: int, area: tuple[int, int, int, int]) -> list[str]:
    return [p.text for p in cv.placed if p.tag == f"{tag}:{seat}" and inside(p.extent, area)]


def test_full_table_shows_every_marker() -> None:
    """Button, folded, all-in, sitting out and the clock in the right seat boxes; blinds
    and bets on the felt in front of their seats; each pot on its own."""
    view = full_table()
    cv = draw_table(view)
    spots = {s.seat: s for s in layout(view)}
    boxes = {n: s.box for n, s in spots.items()}
    assert _in_seat(cv, "button", 7, boxes[7]) == ["D"]
    assert _in_seat(cv, "state", 3, boxes[3]) == ["Folded"]
    assert _in_seat(cv, "state", 9, boxes[9]) == ["Folded"]
    assert _in_seat(cv, "stack", 4, boxes[4]) == ["ALL-IN"]
    assert _in_seat(cv, "state", 6, boxes[6]) == ["Away"]  # "Sitting out" does not fit 10-max
    assert _in_seat(cv, "state", 1, boxes[1]) == ["0:17"]
    assert not [p for p in cv.placed if p.tag.startswith("state:") and p.text == "0:17"
                and p.tag != "state:1"]
    assert _in_seat(cv, "stack", 2, boxes[2]) == ["98.8M"]  # 98,765,432 is too wide there
    assert _in_seat(cv, "blind", 8, spots[8].front) == ["SB"]
    assert _in_seat(cv, "blind", 9, spots[9].front) == ["BB"]
    assert not _tagged(cv.placed, "blind:7")
    bets = {p.tag: p.text for p in _tagged(cv.placed, "bet:")}
    assert bets == {"bet:2": "200", "bet:4": "1,234,567", "bet:5": "200", "bet:8": "50",
                    "bet:9": "100", "bet:10": "100"}
    for p in _tagged(cv.placed, "bet:"):
        assert inside(p.extent, spots[int(p.tag[4:])].front), p
    assert [p.text for p in _tagged(cv.placed, "pot")] == [
        "Pot 1,252,757", "12,340", "Main pot", "4,400", "Side pot 1", "800", "Side pot 2"]
    backs = _tagged(cv.placed, "back:")
    in_hand = [s for s in view.seats if s.status in (SeatStatus.ACTIVE, SeatStatus.ALL_IN)]
    assert len(backs) == 4 * len(in_hand)


def test_blind_markers_are_coloured_chips_unlike_the_dealer_button() -> None:
    """SB and BB sit on pills of their own colours, each different from the white dealer
    button and from a plain bet's chip; a posted blind shows even without a bet."""
    view = replace(full_table(), seats=tuple(
        replace(s, bet=0) if s.seat == 8 else s for s in full_table().seats))
    cv = draw_table(view)
    img = load(cv.png())
    pal = palette(Theme.DARK)
    fills = {}
    for blind in ("SB", "BB"):
        marker = next(p for p in cv.placed if p.tag.startswith("blind:") and p.text == blind)
        x0, y0, _, y1 = marker.limit
        fills[blind] = img.getpixel((x0 + 4, (y0 + y1) // 2))
    assert fills == {"SB": BLIND_INK["SB"], "BB": BLIND_INK["BB"]}
    button = next(p for p in cv.placed if p.tag == "button:7")
    assert img.getpixel((button.limit[0] + 17, button.limit[1] + 4)) == (250, 250, 250)
    assert pal.chip not in fills.values()
    assert not _tagged(cv.placed, "bet:8")  # seat 8's blind is shown without a bet


def test_a_straddle_has_a_marker_of_its_own_colour() -> None:
    """RULES.md 10: the straddler's bet sits on an "STR" pill, unlike either blind's."""
    view = replace(full_table(), seats=tuple(
        replace(s, blind="STR") if s.seat == 10 else s for s in full_table().seats))
    cv = draw_table(view)
    marker = next(p for p in cv.placed if p.tag == "blind:10")
    x0, y0, _, y1 = marker.limit
    fill = load(cv.png()).getpixel((x0 + 4, (y0 + y1) // 2))
    assert (marker.text, fill) == ("STR", BLIND_INK["STR"])
    assert fill not in (BLIND_INK["SB"], BLIND_INK["BB"])
    assert {p.tag: p.text for p in _tagged(cv.placed, "bet:10")} == {"bet:10": "100"}


@pytest.mark.parametrize(("left", "ink"), [(24.0, "accent"), (6.0, "danger")])
def test_the_clock_bar_shows_the_share_of_time_left(left: float, ink: str) -> None:
    """The bar along the box of the player to act is filled in proportion to the time left,
    in the accent colour, in the warning colour under a quarter; the time is written."""
    view = replace(full_table(), clock=left, clock_total=30.0)
    cv = draw_table(view)
    img = load(cv.png())
    colour = getattr(palette(Theme.DARK), ink)
    x0, _, x1, y1 = layout(view)[0].box
    bar_y = y1 - 10
    filled = sum(img.getpixel((x, bar_y)) == colour for x in range(x0 + 10, x1 - 10))
    assert abs(filled / (x1 - x0 - 20) - left / 30) < 0.05
    assert [p.text for p in _tagged(cv.placed, "state:1")] == [f"0:{int(left):02d}"]


def test_after_the_hand_each_pot_shows_who_won_it() -> None:
    """A finished hand: "Showdown" instead of the stale street, no pot line and no bets,
    each pot's pill followed by its winners and halves, the winners' seats outlined
    with what they won."""
    view = finished_table()
    cv = draw_table(view)
    assert [p.text for p in _tagged(cv.placed, "street")] == ["SHOWDOWN"]
    assert not _tagged(cv.placed, "pot") and not _tagged(cv.placed, "bet:")
    results = [p.text for p in _tagged(cv.placed, "result")]
    assert results == ["12,340", "Main pot", "Dmitri", "6,170 high", "Alice", "6,170 low",
                       "4,400", "Side pot 1", "Alice", "4,400 scoop",
                       "800", "Side pot 2", "Bob the Builder", "400 high", "Juliette",
                       "400 low"]
    spots = {s.seat: s.box for s in layout(view)}
    won = {int(p.tag[6:]): p.text for p in _tagged(cv.placed, "state:")
           if p.text.startswith("+")}
    assert won == {1: "+10,570", 2: "+400", 4: "+6,170", 10: "+400"}
    img = load(cv.png())
    accent = palette(Theme.DARK).accent
    for seat, box in spots.items():
        edge = img.getpixel(((box[0] + box[2]) // 2, box[1] + 1))
        assert (edge == accent) == (seat in won), seat
    texts = [p for p in cv.placed if p.kind == "text"]
    for a, b in itertools.combinations(texts, 2):
        assert not overlaps(a.extent, b.extent), (a.text, b.text)


def test_a_hand_won_without_a_showdown_says_the_hand_ended() -> None:
    """Everyone folded: "Hand over", and the winner found by name when the view has no
    seat numbers."""
    seats = (SeatView(1, "Mia", 1_040), SeatView(2, "Noah", 990, status=SeatStatus.FOLDED))
    view = TableView("T", 3, 6, seats, board=parse_cards("Kd7c2h"), street="Flop",
                     pots=(PotView(60, winners=(PotWinner("Mia", 60),)),))
    cv = draw_table(view)
    assert [p.text for p in _tagged(cv.placed, "street")] == ["HAND OVER"]
    assert [p.text for p in _tagged(cv.placed, "result")] == ["60", "Pot", "Mia", "60"]
    assert [p.text for p in _tagged(cv.placed, "state:1")] == ["+60"]


def test_a_large_win_in_a_narrow_box_is_shown_whole_in_its_short_form() -> None:
    """Ten seats, huge stacks and wins: neither stack nor win is ever cut to "...": the
    win alone in its short form ("+49.4M") when both do not fit."""
    cv = draw_table(crowded_table(10, finished=True))
    states = {p.tag: p.text for p in _tagged(cv.placed, "state:")}
    assert states and all(t.startswith("+") for t in states.values())
    assert "+49.4M" in states.values() or "+98.8M" in states.values()
    for p in _tagged(cv.placed, "state:") + _tagged(cv.placed, "stack:"):
        assert not p.text.endswith("\u2026"), p


def test_whose_turn_is_outlined_in_the_accent_colour() -> None:
    """The seat to act has an accent border; the others do not."""
    img = load(render_table(full_table()))
    accent = palette(Theme.DARK).accent
    for spot in layout(full_table()):
        x = (spot.box[0] + spot.box[2]) // 2
        edge = img.getpixel((x, spot.box[1] + 1))
        assert (edge == accent) == (spot.seat == 1), spot.seat


def test_courchevel_shows_its_first_board_card_preflop() -> None:
    """Courchevel preflop: one face-up board card and the preflop label."""
    cv = draw_table(courchevel_table())
    assert [str(p.card) for p in cv.placed if p.tag == "board"] == ["Kd"]
    assert [p.text for p in _tagged(cv.placed, "street")] == ["PREFLOP"]
    open_seat = [p for p in cv.placed if p.text == "Seat 3"]
    assert len(open_seat) == 1 and inside(open_seat[0].extent, layout(courchevel_table())[2].box)


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
    box = _moved(board_box(), shift(full_table()))
    assert mean_diff(dark.crop(box), two.crop(box)) > 0.5
    assert border_is_plain(dark, 4, palette(Theme.DARK).background)


def test_table_pngs_are_small() -> None:
    """A full 10-seat table, during and after the hand, is a palette PNG under 60 KB
    (it was 114 KB in true colour at 1280x860)."""
    for view in (full_table(), finished_table()):
        png = render_table(view)
        bottom = max(s.box[3] for s in layout(view))  # the picture ends under the seats
        assert load(png).size == (WIDTH, bottom + MARGIN)
        assert png[25] == 3  # PNG colour type 3: a palette
        assert len(png) < 60_000


def test_unknown_seat_or_long_board_is_refused() -> None:
    """A seat number beyond the table or a sixth board card is an error."""
    with pytest.raises(ValueError, match="seat 7"):
        render_table(TableView("T", 1, 6, (SeatView(7, "X", 1),)))
    with pytest.raises(ValueError, match="at most 5"):
        render_table(TableView("T", 1, 6, (), board=parse_cards("2c3c4c5c6c7c")))


@pytest.mark.parametrize(("max_seats", "hole"), [(10, 4), (9, 4), (8, 5), (7, 6), (6, 6), (2, 6),
                                               (10, 2), (6, 2), (2, 2)])
def test_shown_hands_at_a_full_table_do_not_overlap(max_seats: int, hole: int) -> None:
    """Every seat showing its cards: the fans touch no box, no board card, no other fan."""
    deck = iter(DECK)
    seats = tuple(SeatView(i + 1, f"Player {i + 1}", 1000, cards=hole,
                           shown=tuple(next(deck) for _ in range(hole)))
                  for i in range(max_seats))
    view = TableView("Showdown", 1, max_seats, seats,
                     board=tuple(next(deck) for _ in range(5)), pots=(PotView(10),),
                     note="Player 1 wins 10")
    cv = draw_table(view)
    fans: dict[str, list[tuple[int, int, int, int]]] = {}
    for p in _tagged(cv.placed, "shown:"):
        fans.setdefault(p.tag, []).append(p.extent)
    assert len(fans) == max_seats and all(len(v) == hole for v in fans.values())
    boxes = [s.box for s in layout(view)]
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


@pytest.mark.parametrize("max_seats", [2, 6, 10])
def test_two_cards_are_two_whole_cards_not_an_omaha_fan(max_seats: int) -> None:
    """Texas Hold'em: two shown cards lie side by side, each whole (in front of its seat,
    the narrowest box of ten included), where four Omaha cards overlap; two face-down
    cards spread wider than four do, so each back shows."""
    deck = iter(DECK)
    seats = tuple(SeatView(i + 1, f"Player {i + 1}", 1000, cards=2,
                           shown=tuple(next(deck) for _ in range(2)) if i % 2 else ())
                  for i in range(max_seats))
    view = TableView("Hold'em", 1, max_seats, seats, board=parse_cards("AhKd2c"))
    cv = draw_table(view)
    spots = {s.seat: s for s in layout(view)}
    for seat in seats:
        if seat.shown:
            left, right = (p.extent for p in _tagged(cv.placed, f"shown:{seat.seat}"))
            assert left[2] < right[0] and inside(left, spots[seat.seat].front)
            assert inside(right, spots[seat.seat].front)
        else:
            first, second = (p.extent for p in _tagged(cv.placed, f"back:{seat.seat}"))
            assert second[0] - first[0] > MINI_STEP
    omaha = draw_table(TableView("Omaha", 1, 6, (SeatView(1, "Ann", 9, cards=4,
                                                          shown=parse_cards("AsKsQsJs")),
                                                 SeatView(2, "Bob", 9, cards=4))))
    fan = [p.extent for p in _tagged(omaha.placed, "shown:1")]
    assert fan[0][2] > fan[1][0]  # four cards overlap
    backs = [p.extent for p in _tagged(omaha.placed, "back:2")]
    assert backs[1][0] - backs[0][0] == MINI_STEP


def test_a_name_of_emoji_only_falls_back_to_the_seat_number() -> None:
    """A name the font cannot draw at all still labels the seat."""
    seats = (SeatView(1, "\U0001f525\U0001f525", 100), SeatView(2, "Jos\u00e9", 100))
    cv = draw_table(TableView("T", 1, 2, seats))
    names = {p.tag: p.text for p in _tagged(cv.placed, "name:")}
    assert names == {"name:1": "Seat 1", "name:2": "Jos\u00e9"}  # the accent is drawn


def test_a_second_board_of_six_cards_is_refused() -> None:
    view = TableView("T", 1, 2, (SeatView(1, "a", 1),), board=parse_cards("AcKd2h3s9c"),
                     second_board=parse_cards("QcJh5s4h8d7d"))
    with pytest.raises(ValueError, match="at most 5"):
        render_table(view)


@pytest.mark.parametrize("view", [
    full_table(), courchevel_table(), finished_table(), crowded_table(10),
    crowded_table(6, finished=True),
    replace(full_table(), table_name="A table with a very long name " * 3,
            game="Pot-Limit Omaha Hi-Lo 8 or better, a very long game line " * 2),
], ids=["full", "courchevel", "finished", "crowded", "crowded-6-over", "long-header"])
def test_the_height_is_known_without_drawing(view: TableView) -> None:
    """A replay sizes its animation from every frame's height before drawing any."""
    assert height(view) == draw_table(view).img.height
