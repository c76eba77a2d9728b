"""Example views: a busy 10-seat table, hole cards, a hi-lo showdown, a leaderboard.

Used by the benchmark, the golden-image tests and for previewing the art
(``python -m bot.render.samples OUT_DIR`` writes every picture in both themes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.engine.cards import parse_cards
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
                      BestHand(p("5s4c3d2cAh"), "Low 5-4-3-2-A"), won=900),
            ShowdownHand("Bob the Builder with a long name", p("KsKdQhJc"),
                      BestHand(p("KsKdAh9h7d"), "Pair of kings"), None),
            ShowdownHand("Charlotte", p("Th9c8s6d"),
                      BestHand(p("9h8s7d6d5s"), "Straight, nine high"),
                      BestHand(p("8s6d5s2cAh"), "Low 8-6-5-2-A"), won=900),
        ),
        (PotResult("Main pot", 1_800, (PotWinner("Charlotte", 900, "high"),
                                       PotWinner("Alice", 900, "low"))),),
        hi_lo=True, game=GAME)


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
        (out / f"courchevel_{theme}.png").write_bytes(
            render_table(courchevel_table(), theme, "two_colour"))
        (out / f"hole_{theme}.png").write_bytes(render_hole_cards(hole_cards(), theme))
        (out / f"hole6_{theme}.png").write_bytes(render_hole_cards(hole_cards_six(), theme))
        (out / f"showdown_{theme}.png").write_bytes(render_showdown(showdown(), theme))
        (out / f"leaderboard_{theme}.png").write_bytes(render_leaderboard(leaderboard(), theme))
    print(f"wrote sample pictures to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
