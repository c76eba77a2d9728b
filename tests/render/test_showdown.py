"""The showdown picture (bot.render.showdown)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine.cards import parse_cards
from bot.engine.variants import HandRule
from bot.render import render_showdown
from bot.render.canvas import inside, overlaps
from bot.render.samples import crowded_showdown, double_board_showdown, showdown
from bot.render.showdown import draw_showdown
from bot.render.theme import Theme, palette
from bot.render.views import BestHand, PotResult, PotWinner, ShowdownHand, ShowdownView
from tests.render.pixels import border_is_plain, count_cards, load


def _cards(cv: object, prefix: str) -> list[object]:
    return [p for p in cv.placed if p.kind == "card" and p.tag.startswith(prefix)]  # type: ignore[attr-defined]


def test_every_shown_hand_has_its_hole_cards_and_best_fives() -> None:
    """Board, each hole, each high five and each low five are drawn, and nothing overlaps."""
    view = showdown()
    cv = draw_showdown(view)
    assert [p.card for p in _cards(cv, "board")] == list(view.board)
    for i, hand in enumerate(view.hands):
        assert [p.card for p in _cards(cv, f"hole:{i}")] == list(hand.hole)
        assert [p.card for p in _cards(cv, f"high:{i}")] == list(hand.high.cards)
        low = [p.card for p in _cards(cv, f"low:{i}")]
        assert low == (list(hand.low.cards) if hand.low else [])
    cards = [p for p in cv.placed if p.kind == "card"]
    assert len(cards) == 5 + 12 + 15 + 10
    for a, b in itertools.combinations(cards, 2):
        assert not overlaps(a.extent, b.extent)


def test_hole_cards_the_hand_does_not_use_are_faded() -> None:
    """Only hole cards outside both the high and the low five are faded, and look it."""
    view = showdown()
    cv = draw_showdown(view)
    faded = {str(p.card) for p in cv.placed if p.kind == "card" and p.faded}
    assert faded == {"As", "Kh", "Qh", "Jc", "Th", "9c"}
    img = load(cv.png())
    panel = palette(Theme.DARK).panel
    for p in _cards(cv, "hole:0"):
        x0, y0, x1, _ = p.extent
        pixel = img.getpixel(((x0 + x1) // 2, y0 + 4))
        # a faded face is a mix of the face colour and the panel behind it
        assert (pixel[0] < 200) == p.faded, p.card
        assert pixel != panel


def test_winners_are_outlined_and_their_winnings_shown() -> None:
    """Winners' panels have the accent border and a 'wins' line; losers 'no win'."""
    view = showdown()
    cv = draw_showdown(view)
    won = {p.tag: p.text for p in cv.placed if p.tag.startswith("won:")}
    assert won == {"won:0": "wins 900", "won:2": "wins 900"}
    texts = [p.text for p in cv.placed if p.kind == "text"]
    assert "no win" in texts
    assert texts.count("No low") == 1
    assert [p.text for p in cv.placed if p.tag == "pot:0"] == [
        "Charlotte", "900 high", "Alice", "900 low"]
    assert [p.text for p in cv.placed if p.tag == "pot-pill:0"] == ["1,800", "Main pot"]


def test_each_winner_panel_says_which_pot_and_half_it_took() -> None:
    """Under the name: the pots and halves won ("Side pot 1 scoop" for both halves),
    matched by seat when the view has seats, by name otherwise."""
    view = _side_pots_view()
    cv = draw_showdown(view)
    where = {p.tag: p.text for p in cv.placed if p.tag.startswith("where:")}
    assert where == {"where:0": "Main pot low, Side pot 1 scoop",
                     "where:1": "Main pot high", "where:2": "Side pot 2"}
    unnamed = replace(view, hands=tuple(replace(h, seat=0) for h in view.hands),
                      pots=tuple(replace(p, winners=tuple(replace(w, seat=0)
                                                          for w in p.winners))
                                 for p in view.pots))
    assert {p.tag: p.text for p in draw_showdown(unnamed).placed
            if p.tag.startswith("where:")} == where
    only = replace(view, pots=(PotResult("Pot", 60, (PotWinner("Cy", 60, "", 3),)),))
    assert not [p for p in draw_showdown(only).placed if p.tag.startswith("where:")]
    split = replace(only, pots=(PotResult("Pot", 60, (PotWinner("Cy", 30, "high", 3),
                                                      PotWinner("Ann", 30, "low", 1))),))
    assert {p.tag: p.text for p in draw_showdown(split).placed
            if p.tag.startswith("where:")} == {"where:0": "Pot low", "where:2": "Pot high"}


def _side_pots_view() -> ShowdownView:
    """Ann takes the main pot's low half and scoops side pot 1, Ben the main pot's high,
    Cy side pot 2 whole."""
    p = parse_cards
    board = p("Ah7d2c5s9h")
    hands = tuple(ShowdownHand(name, p(hole), BestHand(board, "x"), None, won=won, seat=seat)
                  for name, hole, won, seat in (("Ann", "3d4cKsKh", 90, 1),
                                                ("Ben", "Th9c8s6d", 30, 2),
                                                ("Cy", "QdQcJhJs", 20, 3)))
    pots = (PotResult("Main pot", 60, (PotWinner("Ben", 30, "high", 2),
                                       PotWinner("Ann", 30, "low", 1))),
            PotResult("Side pot 1", 60, (PotWinner("Ann", 30, "high", 1),
                                         PotWinner("Ann", 30, "low", 1))),
            PotResult("Side pot 2", 20, (PotWinner("Cy", 20, "", 3),)))
    return ShowdownView("T", 1, board, hands, pots, hi_lo=True)


def test_pot_labels_never_run_into_their_amounts() -> None:
    """ "Side pot 1" and "60" are apart (the old picture wrote "Side pot 1 60:"); a scoop
    is one share; every pot's winners start at the same x, right of every pill."""
    cv = draw_showdown(_side_pots_view())
    for i in range(3):
        amount, label = [p for p in cv.placed if p.tag == f"pot-pill:{i}"]
        assert label.extent[2] + 6 <= amount.extent[0], (label.text, amount.text)
    assert [p.text for p in cv.placed if p.tag == "pot:1"] == ["Ann", "60 scoop"]
    starts = {min(p.extent[0] for p in cv.placed if p.tag == f"pot:{i}") for i in range(3)}
    pills = max(p.extent[2] for p in cv.placed if p.tag.startswith("pot-pill:"))
    assert len(starts) == 1 and min(starts) > pills


def test_ten_hands_in_hi_lo_with_long_names_and_nine_side_pots() -> None:
    """The crowded case: nothing leaves its box or the picture, no text touches another
    text or a card, no two cards touch, names are whole (on more lines when they need them)."""
    view = crowded_showdown()
    cv = draw_showdown(view)
    texts = [p for p in cv.placed if p.kind == "text"]
    cards = [p for p in cv.placed if p.kind == "card"]
    for t in texts:
        assert inside(t.extent, t.limit), t
        assert inside(t.extent, cv.bounds), t
    for a, b in itertools.combinations(texts, 2):
        assert not overlaps(a.extent, b.extent), (a.text, b.text)
    for t in texts:
        assert not any(overlaps(t.extent, c.extent) for c in cards), t.text
    for a, b in itertools.combinations(cards, 2):
        assert not overlaps(a.extent, b.extent), (a.tag, b.tag)
    assert len([p for p in texts if p.tag.startswith("pot-pill:")]) == 2 * 10
    names = [p for p in texts if p.tag.startswith("name:")]
    for i, hand in enumerate(view.hands):
        lines = [p.text for p in names if p.tag == f"name:{i}"]
        assert " ".join(lines).replace(" ", "") == hand.name.replace(" ", "")
    assert not any(p.cut for p in names)
    assert len({p.extent[0] for p in names}) == 2  # two columns of panels


def test_names_are_wrapped_by_their_width_not_by_a_count_of_letters() -> None:
    """Thirty-two narrow letters stay on one line beside the winnings; thirty-two wide ones
    take the panel's width on more lines; no letter is left out."""
    p = parse_cards
    board = p("Ah7d2c5s9h")
    hands = tuple(ShowdownHand(name, p("KsKdQhJc"), BestHand(board, "x"), won=1)
                  for name in ("i" * 32, "W" * 32, "Wi" * 16))
    cv = draw_showdown(ShowdownView("T", 1, board, hands))
    lines = [[q.text for q in cv.placed if q.tag == f"name:{i}"] for i in range(3)]
    assert len(lines[0]) == 1 and len(lines[1]) > 1
    assert ["".join(x) for x in lines] == [h.name for h in hands]
    won = {q.tag: q.extent for q in cv.placed if q.tag.startswith("won:")}
    first = next(q for q in cv.placed if q.tag == "name:0")
    assert first.extent[1] == pytest.approx(won["won:0"][1], abs=4)  # beside the winnings


def test_a_name_too_wide_beside_the_winnings_takes_the_panels_width_whole() -> None:
    """A name that fits the panel but not beside "nessuna vincita" goes on its own line,
    the winnings under it, drawn whole (it was cut to the room beside the winnings)."""
    view = replace(showdown(), locale="it")
    bob = replace(view, hands=(replace(view.hands[1], name="Bob the Builder"),))
    cv = draw_showdown(bob)
    [name] = [q for q in cv.placed if q.tag == "name:0"]
    [nowin] = [q for q in cv.placed if q.tag == "nowin:0"]
    assert name.text == "Bob the Builder" and not name.cut
    assert nowin.extent[1] > name.extent[3]  # under the name, not beside it


@pytest.mark.parametrize("theme", list(Theme))
def test_text_stays_inside_boxes_with_six_cards_and_long_names(theme: Theme) -> None:
    """Long names, descriptions, titles and games are whole, wrapped inside their boxes;
    the frame stays empty."""
    p = parse_cards
    long = "x" * 120
    view = ShowdownView(long, 1, p("2c3c4c5c6c"), tuple(
        ShowdownHand(f"{long}{i}", p("AsKsQsJsTs9s"), BestHand(p("AsKs4c5c6c"), long),
                  BestHand(p("As2c3c4c5c"), long), won=10**9) for i in range(3)),
        (PotResult("Main pot", 3 * 10**9, tuple(PotWinner(long, 10**9, "high")
                                                 for _ in range(3))),), hi_lo=True,
        game=long)
    cv = draw_showdown(view, theme)
    for t in (q for q in cv.placed if q.kind == "text"):
        assert inside(t.extent, t.limit), t
        assert inside(t.extent, cv.bounds), t
    for tag in ("title", "game", "name:0", "high:0", "low:2"):
        lines = [q for q in cv.placed if q.tag == tag and q.kind == "text"]
        assert len(lines) > 1 and not any(q.cut for q in lines), tag
        assert long in "".join(q.text for q in lines)
    img = load(cv.png())
    assert border_is_plain(img, 10, palette(theme).background)
    board_y = next(q for q in cv.placed if q.tag == "board").extent[1]
    assert count_cards(img, board_y + 3) == 5


def test_high_only_showdown_has_one_row_per_hand() -> None:
    """Without hi-lo there is no low row and the panels are shorter."""
    hi_lo = load(render_showdown(showdown()))
    view = replace(showdown(), hi_lo=False)
    cv = draw_showdown(view)
    assert not _cards(cv, "low:")
    assert cv.img.height < hi_lo.height


def test_showdown_without_hands_is_refused() -> None:
    """A showdown needs somebody to show."""
    with pytest.raises(ValueError):
        render_showdown(ShowdownView("T", 1, parse_cards("2c3c4c5c6c"), ()))


def test_cards_from_the_hand_are_underlined_in_each_five() -> None:
    """Under each best five, exactly the cards that come from the hole are underlined."""
    view = showdown()
    cv = draw_showdown(view)
    img = load(cv.png())
    accent = palette(Theme.DARK).accent
    for i, hand in enumerate(view.hands):
        for p in _cards(cv, f"high:{i}") + _cards(cv, f"low:{i}"):
            x0, _, x1, y1 = p.extent
            under = img.getpixel(((x0 + x1) // 2, y1 + 4))
            assert (under == accent) == (p.card in hand.hole), (i, p.card)


def test_real_made_hands_render() -> None:
    """The engine's MadeHand fits the view; the sample hands are what the evaluator finds."""
    from bot.engine.evaluate import best_high, best_low

    view = showdown()
    for hand in view.hands:
        high = best_high(hand.hole, view.board, HandRule.OMAHA)
        low = best_low(hand.hole, view.board)
        assert (hand.high.cards, hand.high.description) == (high.cards, high.description)
        assert (hand.low is None) == (low is None)
        if hand.low and low:
            assert (hand.low.cards, hand.low.description) == (low.cards, low.description)
    real = replace(view, hands=tuple(
        replace(h, high=best_high(h.hole, view.board, HandRule.OMAHA),
                low=best_low(h.hole, view.board))
        for h in view.hands))
    assert render_showdown(real) == render_showdown(view)


def test_a_double_board_draws_both_boards_and_each_hand_on_each() -> None:
    """Two boards, "Board 1" over "Board 2"; each panel's best fives on board 1, then on
    board 2 under the board's name; each pot row is a board's share; nothing overlaps."""
    view = double_board_showdown()
    cv = draw_showdown(view)
    assert [p.card for p in _cards(cv, "board:2")] == list(view.second_board)
    assert [p.card for p in cv.placed if p.kind == "card" and p.tag == "board"] == list(
        view.board)
    assert [p.text for p in cv.placed if p.tag.startswith("board-label")] == [
        "Board 1", "Board 2"]
    for i, hand in enumerate(view.hands):
        for tag, made in (("high", hand.high), ("low", hand.low), ("high2", hand.second_high),
                          ("low2", hand.second_low)):
            assert [p.card for p in _cards(cv, f"{tag}:{i}")] == (
                list(made.cards) if made else []), (tag, i)
        names = [p.text for p in cv.placed if p.tag.startswith("board-name:")
                 and p.tag.endswith(f":{i}")]
        assert names == ["Board 1", "Board 2"]
    texts = {p.tag: p.text for p in cv.placed if p.tag.startswith("where:")}
    assert texts == {"where:0": "Main pot, board 1 scoop", "where:1": "Main pot, board 2 high",
                     "where:2": "Main pot, board 2 low"}
    cards = [p for p in cv.placed if p.kind == "card"]
    assert len(cards) == 10 + 12 + 3 * 4 * 5 - 5 * 3  # three empty LOW slots (no low)
    for a, b in itertools.combinations(cards, 2):
        assert not overlaps(a.extent, b.extent), (a.tag, b.tag)
    for t in (q for q in cv.placed if q.kind == "text"):
        assert inside(t.extent, t.limit) and not t.cut, t
    assert cv.img.height > draw_showdown(replace(view, second_board=())).img.height
