"""Example views: a busy 10-seat table during and after a hand, hole cards, a hi-lo
showdown, a leaderboard; Texas Hold'em's two-card table, hole cards and showdown.

Used by the benchmark, the golden-image tests and for previewing the art
(``python -m bot.render.samples OUT_DIR`` writes every picture in both themes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.engine.cards import DECK, parse_cards
from bot.render.views import (
    BestHand,
    HoleCardsView,
    LeaderboardRow,
    LeaderboardView,
    PotResult,
    PotView,
    PotWinner,
    SeatStatus,
    SeatView,
    ShowdownHand,
    ShowdownView,
    TableView,
)

S = SeatStatus
GAME = "Pot-limit Omaha Hi-Lo \u00b7 50/100"
HOLDEM = "No Limit Texas Hold'em \u00b7 50/100"


def full_table() -> TableView:
    """Ten seats with every marker: bets, blinds, button, fold, all-in, sitting out, clock."""
    rows = [
        ("Alice", 1_500, 0, S.ACTIVE, ""),
        ("Bob the Builder", 98_765_432, 200, S.ACTIVE, ""),
        ("Charlotte-Amelie von Habsburg", 0, 0, S.FOLDED, ""),
        ("Dmitri", 0, 1_234_567, S.ALL_IN, ""),
        ("Eve", 2_200, 200, S.ACTIVE, ""),
        ("Farah", 1_000, 0, S.SITTING_OUT, ""),
        ("Gus", 450, 0, S.ACTIVE, ""),
        ("Hannah", 12_000, 50, S.ACTIVE, "SB"),
        ("Ivan", 800, 100, S.FOLDED, "BB"),
        ("Juliette", 3_000, 100, S.ACTIVE, ""),
    ]
    seats = tuple(
        SeatView(i + 1, name, stack, bet, status, blind,
                 cards=4 if status in (S.ACTIVE, S.ALL_IN) else 0)
        for i, (name, stack, bet, status, blind) in enumerate(rows))
    return TableView(
        table_name="High Rollers #general", hand_number=1234, max_seats=10, seats=seats,
        board=parse_cards("Ah7d2c"), pots=(PotView(12_340), PotView(4_400), PotView(800)),
        button=7, to_act=1, clock=17, clock_total=30, game=GAME, street="Flop")


def courchevel_table() -> TableView:
    """Six-max Courchevel preflop: one board card out, blinds posted, the button to act."""
    seats = (
        SeatView(1, "Mia", 995, 5, blind="SB", cards=5),
        SeatView(2, "Noah", 990, 10, blind="BB", cards=5),
        SeatView(4, "Olivia", 1_000, 0, S.WAITING),
        SeatView(5, "Pete", 1_000, 30, cards=5),
        SeatView(6, "Quinn", 1_000, 0, cards=5),
    )
    return TableView("Courchevel corner", 7, 6, seats, board=parse_cards("Kd"),
                     pots=(PotView(0),), button=6, to_act=6, clock=4, clock_total=30,
                     game="Pot-limit Courchevel \u00b7 5/10", street="Preflop")


def finished_table() -> TableView:
    """Ten seats after a hi-lo showdown on Ah7d2c5s9h: Dmitri's nine-high straight takes
    the main pot's high half and Alice's wheel its low half; Alice scoops side pot 1;
    Bob's kings and Juliette's 6-5-3-2-A split side pot 2."""
    p = parse_cards
    shown = {1: p("AsKh3d4c"), 2: p("KsKdQhJc"), 4: p("Th9c8s6d"), 10: p("JdJs6h3s")}
    rows = [("Alice", 10_570, S.ALL_IN), ("Bob the Builder", 98_762_832, S.ACTIVE),
            ("Charlotte-Amelie von Habsburg", 0, S.FOLDED), ("Dmitri", 6_170, S.ALL_IN),
            ("Eve", 2_000, S.FOLDED), ("Farah", 1_000, S.SITTING_OUT), ("Gus", 450, S.FOLDED),
            ("Hannah", 11_950, S.FOLDED), ("Ivan", 700, S.FOLDED),
            ("Juliette", 600, S.ACTIVE)]
    seats = tuple(
        SeatView(i + 1, name, stack, status=status, cards=4 if i + 1 in shown else 0,
                 shown=shown.get(i + 1, ()))
        for i, (name, stack, status) in enumerate(rows))
    pots = (
        PotView(12_340, "Main pot", (PotWinner("Dmitri", 6_170, "high", 4),
                                     PotWinner("Alice", 6_170, "low", 1))),
        PotView(4_400, "Side pot 1", (PotWinner("Alice", 2_200, "high", 1),
                                      PotWinner("Alice", 2_200, "low", 1))),
        PotView(800, "Side pot 2", (PotWinner("Bob the Builder", 400, "high", 2),
                                    PotWinner("Juliette", 400, "low", 10))),
    )
    return TableView(
        table_name="High Rollers #general", hand_number=1234, max_seats=10, seats=seats,
        board=p("Ah7d2c5s9h"), pots=pots, button=7, game=GAME, street="River")


def holdem_table(finished: bool = False) -> TableView:
    """Six-max no-limit Texas Hold'em: on the flop, two cards behind every seat in the hand;
    ``finished``: after the river, three hands shown on Ah Kh 7h 2h 9d, where Alice's one
    heart makes a flush (Hold'em's best five of seven) and takes the pot."""
    p = parse_cards
    shown = {1: p("QhJd"), 2: p("AsAd"), 5: p("9s9c")} if finished else {}
    rows = [("Alice", 2_400, 300, S.ACTIVE, ""), ("Bob the Builder", 0, 1_150, S.ALL_IN, ""),
            ("Charlotte", 980, 0, S.FOLDED, "SB"), ("Dmitri", 3_050, 0, S.FOLDED, "BB"),
            ("Eve", 1_720, 300, S.ACTIVE, ""), ("Farah", 1_000, 0, S.SITTING_OUT, "")]
    seats = tuple(
        SeatView(i + 1, name, stack, 0 if finished else bet, status,
                 "" if finished else blind, cards=2 if status in (S.ACTIVE, S.ALL_IN) else 0,
                 shown=shown.get(i + 1, ()))
        for i, (name, stack, bet, status, blind) in enumerate(rows))
    if finished:
        pots = (PotView(3_600, "Main pot", (PotWinner("Alice", 3_600, "", 1),)),)
        return TableView("Hold'em night", 42, 6, seats, board=p("AhKh7h2h9d"), pots=pots,
                         button=2, game=HOLDEM, street="River")
    return TableView("Hold'em night", 42, 6, seats, board=p("AhKh7h"), pots=(PotView(1_850),),
                     button=2, to_act=1, clock=21, clock_total=30, game=HOLDEM, street="Flop")


def holdem_hole_cards() -> HoleCardsView:
    """Alice's two cards on the turn: one heart with four on the board is a flush."""
    return HoleCardsView("Hold'em night", 42, parse_cards("QhJd"), board=parse_cards("AhKh7h2h"),
                         label="Flush, ace high", game=HOLDEM)


def holdem_showdown() -> ShowdownView:
    """The Hold'em hand of :func:`holdem_table` shown down: Alice's flush (her jack unused,
    faded) beats two sets."""
    p = parse_cards
    board = p("AhKh7h2h9d")
    return ShowdownView(
        "Hold'em night", 42, board,
        (ShowdownHand("Alice", p("QhJd"), BestHand(p("AhKhQh7h2h"), "Flush, ace high"),
                      None, won=3_600, seat=1),
         ShowdownHand("Bob the Builder", p("AsAd"),
                      BestHand(p("AsAhAdKh9d"), "Three of a kind, aces"), None, seat=2),
         ShowdownHand("Eve", p("9s9c"), BestHand(p("9s9d9cAhKh"), "Three of a kind, nines"),
                      None, seat=5)),
        (PotResult("Main pot", 3_600, (PotWinner("Alice", 3_600, "", 1),)),), game=HOLDEM)


def hole_cards() -> HoleCardsView:
    return HoleCardsView("High Rollers #general", 1234, parse_cards("7hAhKsQs"),
                         board=parse_cards("Kh9h2s"), label="Pair of kings; no low",
                         game=GAME)


def hole_cards_six() -> HoleCardsView:
    return HoleCardsView("Six-card night", 88, parse_cards("5d6cAhKs7hQs"),
                         game="Pot-limit six-card Omaha \u00b7 5/10")


def showdown() -> ShowdownView:
    """A hi-lo showdown: Charlotte's straight takes the high, Alice's wheel the low."""
    p = parse_cards
    return ShowdownView(
        "High Rollers #general", 1234, p("Ah7d2c5s9h"),
        (
            ShowdownHand("Alice", p("AsKh3d4c"),
                         BestHand(p("5s4c3d2cAh"), "Straight, five high"),
                         BestHand(p("5s4c3d2cAh"), "Low 5-4-3-2-A"), won=900, seat=1),
            ShowdownHand("Bob the Builder with a long name", p("KsKdQhJc"),
                         BestHand(p("KsKdAh9h7d"), "Pair of kings"), None, seat=2),
            ShowdownHand("Charlotte", p("Th9c8s6d"),
                         BestHand(p("9h8s7d6d5s"), "Straight, nine high"),
                         BestHand(p("8s6d5s2cAh"), "Low 8-6-5-2-A"), won=900, seat=3),
        ),
        (PotResult("Main pot", 1_800, (PotWinner("Charlotte", 900, "high", 3),
                                       PotWinner("Alice", 900, "low", 1))),),
        hi_lo=True, game=GAME)


def double_board_showdown() -> ShowdownView:
    """A double-board hi-lo bomb pot shown down: Alice scoops board 1 (a five-high straight
    and the wheel), on board 2 Bob's four queens take the high and Cy's 7-5-4-3-2 the low."""
    from bot.engine.evaluate import best_high, best_low
    from bot.engine.variants import HandRule

    p = parse_cards
    board, board2 = p("AhKh8s3c2d"), p("QhQs4d5h7h")
    holes = (("Alice", p("AsAd4s5s"), 1), ("Bob", p("QcQd7c6c"), 2), ("Cy", p("2h3h8d9d"), 3))
    won = {1: 9, 2: 4, 3: 4}
    shown = tuple(ShowdownHand(
        name, hole, best_high(hole, board, HandRule.OMAHA), best_low(hole, board), won=won[seat],
        seat=seat, second_high=best_high(hole, board2, HandRule.OMAHA),
        second_low=best_low(hole, board2)) for name, hole, seat in holes)
    pots = (PotResult("Main pot, board 1", 9, (PotWinner("Alice", 5, "high", 1),
                                              PotWinner("Alice", 4, "low", 1))),
            PotResult("Main pot, board 2", 8, (PotWinner("Bob", 4, "high", 2),
                                              PotWinner("Cy", 4, "low", 3))))
    return ShowdownView("Home game #poker", 42, board, shown, pots, hi_lo=True,
                        game="Pot Limit Omaha Hi-Lo 1/2 \u00b7 double-board bomb pot",
                        second_board=board2)


LONG_NAMES = tuple(f"{first} {'W' * 32}"[:32] for first in (
    "Maximilian", "Wilhelmina", "Bartholomew", "Gwendolyn", "Montgomery", "Anastasia",
    "Christopher", "Evangeline", "Sebastian", "Margherita"))


def crowded_table(max_seats: int = 10, finished: bool = False, hole: int = 4) -> TableView:
    """Every seat taken by a 32-letter name, huge stacks and bets, both blinds, the button,
    the clock, all-ins, folds and a main pot with side pots, ``hole`` cards each;
    ``finished``: after the hand, shown cards and every pot split high and low."""
    n = max_seats
    deck = iter(DECK)
    seats = tuple(
        SeatView(i + 1, LONG_NAMES[i], 987_654_321 if i % 3 else 0,
                 0 if finished else 123_456_789,
                 (S.ALL_IN, S.ACTIVE, S.FOLDED)[i % 3], ("SB", "BB", "")[min(i, 2)],
                 cards=hole,
                 shown=tuple(next(deck) for _ in range(hole)) if finished and i % 3 != 2
                 else ())
        for i in range(n))
    pots = tuple(
        PotView(98_765_432 + i, winners=(PotWinner(LONG_NAMES[i], 49_382_716, "high", i + 1),
                                         PotWinner(LONG_NAMES[n - 1 - i], 49_382_716, "low",
                                                   n - i)) if finished else ())
        for i in range(n))
    return TableView("High Rollers " + "W" * 60, 987_654_321, n, seats,
                     board=tuple(next(deck) for _ in range(5)), pots=pots, button=n,
                     to_act=None if finished else 2, clock=9.5, clock_total=30.0,
                     game="Pot-limit Omaha Hi-Lo 8 or better \u00b7 1,000,000/2,000,000",
                     street="River")


def crowded_showdown(hands: int = 10, hole: int = 4, hi_lo: bool = True,
                     side_pots: int = 9) -> ShowdownView:
    """``hands`` real hands of ``hole`` cards shown on one board, 32-letter names, a main
    pot and ``side_pots`` side pots, each split high and low (or won whole)."""
    from bot.engine.evaluate import best_high, best_low
    from bot.engine.variants import HandRule

    rule = HandRule.HOLDEM if hole == 2 else HandRule.OMAHA
    deck = list(DECK)
    board = tuple(deck[-5:])
    holes = [tuple(deck[i * hole:(i + 1) * hole]) for i in range(hands)]
    shown = tuple(
        ShowdownHand(LONG_NAMES[i], h, best_high(h, board, rule),
                     best_low(h, board) if hi_lo else None, won=7_654_321 if i < 6 else 0,
                     seat=i + 1)
        for i, h in enumerate(holes))
    pots = []
    for k in range(side_pots + 1):
        a, b = k % min(6, hands), (k + 1) % min(6, hands)
        split = hi_lo and k % 2 == 0
        winners = ((PotWinner(LONG_NAMES[a], 4_938_271, "high", a + 1),
                    PotWinner(LONG_NAMES[b], 4_938_272, "low", b + 1)) if split
                   else (PotWinner(LONG_NAMES[a], 9_876_543, "", a + 1),))
        pots.append(PotResult("Main pot" if k == 0 else f"Side pot {k}", 9_876_543, winners))
    return ShowdownView("High Rollers " + "W" * 60, 987_654_321, board, shown, tuple(pots),
                        hi_lo=hi_lo, game="Pot-limit Omaha Hi-Lo \u00b7 50/100")


def leaderboard() -> LeaderboardView:
    rows: list[tuple[str, int | str]] = [
        ("Alice", 1_234_567), ("Bob", 98_000), ("Charlotte-Amelie von Habsburg-Lothringen", 5_000),
        ("Dmitri", 4_999), ("Eve", 120), ("Frank", "12 wins")]
    return LeaderboardView("Richest players", tuple(
        LeaderboardRow(i + 1, n, v) for i, (n, v) in enumerate(rows)),
        subtitle="Poker Night", value_label="Chips", highlight="Dmitri")


def main(argv: list[str] | None = None) -> int:
    from bot.render import (
        render_hole_cards,
        render_leaderboard,
        render_showdown,
        render_table,
    )

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "render-samples")
    out.mkdir(parents=True, exist_ok=True)
    for theme in ("dark", "light"):
        (out / f"table_{theme}.png").write_bytes(render_table(full_table(), theme))
        (out / f"finished_{theme}.png").write_bytes(render_table(finished_table(), theme))
        (out / f"courchevel_{theme}.png").write_bytes(
            render_table(courchevel_table(), theme, "two_colour"))
        (out / f"hole_{theme}.png").write_bytes(render_hole_cards(hole_cards(), theme))
        (out / f"hole6_{theme}.png").write_bytes(render_hole_cards(hole_cards_six(), theme))
        (out / f"showdown_{theme}.png").write_bytes(render_showdown(showdown(), theme))
        (out / f"holdem_{theme}.png").write_bytes(render_table(holdem_table(), theme))
        (out / f"holdem_finished_{theme}.png").write_bytes(
            render_table(holdem_table(finished=True), theme))
        (out / f"holdem_hole_{theme}.png").write_bytes(
            render_hole_cards(holdem_hole_cards(), theme))
        (out / f"holdem_showdown_{theme}.png").write_bytes(
            render_showdown(holdem_showdown(), theme))
        (out / f"showdown_double_{theme}.png").write_bytes(
            render_showdown(double_board_showdown(), theme))
        (out / f"leaderboard_{theme}.png").write_bytes(render_leaderboard(leaderboard(), theme))
    print(f"wrote sample pictures to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
