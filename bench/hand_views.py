"""A real hand as the pictures follow it: one table view per turn, the result, hole cards.

Used by ``bench_render.py`` so that it renders a changing table (new boards,
pots, stacks, bets and a new player to act at every picture) rather than one
picture many times. The hand is played by the engine (``bot.engine.hand``):
10-seat Pot-Limit Omaha Hi-Lo, 50/100, random legal actions from a seeded
generator; the first seed from ``seed`` on whose hand is played on every street
and shown down by at least three players is used, so the run is repeatable.
The views are filled the way the presenter fills them (``bot/adapter/scenes.py``):
bets of this round in front of the seats, the earlier rounds' pots in the
middle, blind markers until the showdown, the clock of the player to act.
"""

from __future__ import annotations

import random

from bot.engine.cards import Deck
from bot.engine.evaluate import hand_label
from bot.engine.hand import Action, Hand, LegalActions, SeatIn
from bot.engine.pots import build_pots
from bot.engine.variants import VARIANTS, GameConfig, Structure
from bot.render.views import (
    HoleCardsView,
    PotView,
    PotWinner,
    SeatStatus,
    SeatView,
    TableView,
)

NAMES = ("Alice", "Bob the Builder", "Charlotte-Amelie von Habsburg", "Dmitri", "Eve",
         "Farah", "Gus", "Hannah", "Ivan", "Juliette")
CONFIG = GameConfig(VARIANTS["omaha_hilo"], Structure.POT_LIMIT, 50, 100)
GAME = "Pot-limit Omaha Hi-Lo \u00b7 50/100"
CLOCK = 30.0
STREETS = {"Preflop", "Flop", "Turn", "River"}


def _action(rng: random.Random, legal: LegalActions) -> Action:
    roll = rng.random()
    if roll < 0.25 and legal.to_call > 0:
        return Action.fold()
    if roll < 0.35 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        return Action.raise_to(rng.choice([lo, lo, rng.randint(lo, hi)]))
    return Action.call()


def _live_view(hand: Hand, rng: random.Random) -> TableView:
    """The picture while the hand runs, ``hand.to_act`` to act with some clock left."""
    players = hand.players
    street = hand.street
    seats = tuple(
        SeatView(
            seat=p.seat, name=NAMES[p.seat - 1], stack=p.stack, bet=p.bet,
            status=(SeatStatus.FOLDED if p.folded else
                    SeatStatus.ALL_IN if p.all_in else SeatStatus.ACTIVE),
            blind=("SB" if p.seat == hand.small_blind_seat else
                   "BB" if p.seat == hand.big_blind_seat else ""),
            cards=0 if p.folded else CONFIG.variant.hole_cards)
        for p in players)
    pots = build_pots([p.committed - p.bet for p in players], [not p.folded for p in players],
                      [p.all_in and p.bet == 0 for p in players])
    return TableView(
        table_name="Table 7", hand_number=42, max_seats=10, seats=seats, board=hand.board,
        pots=tuple(PotView(p.amount) for p in pots if p.amount > 0), button=hand.button,
        to_act=hand.to_act, clock=round(rng.uniform(1, CLOCK)), clock_total=CLOCK, game=GAME,
        street=street.value.capitalize())


def _result_view(hand: Hand) -> TableView:
    """The picture once the pots are paid: shown hands, each pot's winners."""
    result = hand.result
    seats = tuple(
        SeatView(seat=p.seat, name=NAMES[p.seat - 1], stack=p.stack,
                 status=SeatStatus.FOLDED if p.folded else SeatStatus.ACTIVE,
                 cards=CONFIG.variant.hole_cards if p.seat in result.shown else 0,
                 shown=result.shown[p.seat].cards if p.seat in result.shown else ())
        for p in hand.players)
    pots = tuple(
        PotView(pot.amount, winners=tuple(
            PotWinner(NAMES[seat - 1], chips, half, seat)
            for half, shares in (("high" if pot.low else "", pot.high), ("low", pot.low))
            for seat, chips in shares))
        for pot in result.pots)
    return TableView(
        table_name="Table 7", hand_number=42, max_seats=10, seats=seats, board=hand.board,
        pots=pots, button=hand.button, game=GAME, street="River")


def _play(seed: int) -> tuple[Hand, list[TableView]]:
    rng = random.Random(seed)
    seats = [SeatIn(n, rng.randrange(2_000, 20_000, 25)) for n in range(1, 11)]
    hand = Hand(CONFIG, seats, rng.randint(1, 10), Deck(rng=rng))
    hand.start()
    views = []
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        views.append(_live_view(hand, rng))
        hand.act(legal.seat, _action(rng, legal))
    return hand, views


def _hole_views(hand: Hand) -> list[HoleCardsView]:
    """Each player's private picture at the deal, then, for those still in, with the river."""
    views = [HoleCardsView("Table 7", 42, hand.hole(p.seat), game=GAME) for p in hand.players]
    views += [HoleCardsView("Table 7", 42, hand.hole(p.seat), board=hand.board, game=GAME,
                            label=hand_label(hand.hole(p.seat), hand.board, CONFIG.variant))
              for p in hand.players if not p.folded]
    return views


def hand_views(seed: int) -> tuple[list[TableView], list[HoleCardsView]]:
    """The table pictures and the hole-card pictures of the first hand from ``seed`` on
    played on every street and shown down by three players or more."""
    for s in range(seed, seed + 10_000):
        hand, views = _play(s)
        streets = {v.street for v in views}
        if streets == STREETS and len(hand.result.shown) >= 3:
            return [*views, _result_view(hand)], _hole_views(hand)
    raise RuntimeError("no hand reached a showdown")
