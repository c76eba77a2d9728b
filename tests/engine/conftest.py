"""Helpers for the engine's rule tests: build a hand with chosen cards and play it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from bot.engine.cards import Deck, parse_cards
from bot.engine.events import Event
from bot.engine.hand import (
    VARIANTS,
    Action,
    GameConfig,
    Hand,
    SeatIn,
    Structure,
    deck_order_for,
)

NL = Structure.NO_LIMIT
PL = Structure.POT_LIMIT
FL = Structure.FIXED_LIMIT


def config(variant: str = "omaha", structure: Structure = NL, blinds: tuple[int, int] = (1, 2),
           ante: int = 0) -> GameConfig:
    return GameConfig(VARIANTS[variant], structure, blinds[0], blinds[1], ante)


def new_hand(
    stacks: Sequence[int],
    *,
    variant: str = "omaha",
    structure: Structure = NL,
    blinds: tuple[int, int] = (1, 2),
    ante: int = 0,
    seats: Sequence[int] | None = None,
    button: int | None = None,
    holes: Mapping[int, str] | None = None,
    board: str = "",
    newcomers: Sequence[int] = (),
    straddlers: Sequence[int] = (),
    seed: int = 0,
    start: bool = True,
) -> Hand:
    """A started hand. Seats default to 1..n with the button on the last one, so
    seat 1 is the small blind and seat 2 the big blind (heads-up: seat 2, the
    button, is the small blind). ``holes`` and ``board`` fix cards (others are random)."""
    seat_numbers = list(seats) if seats is not None else list(range(1, len(stacks) + 1))
    if button is None:
        button = seat_numbers[-1]
    cfg = config(variant, structure, blinds, ante)
    ins = [SeatIn(s, st, s in newcomers, s in straddlers)
           for s, st in zip(seat_numbers, stacks, strict=True)]
    if holes or board:
        probe = Hand(cfg, ins, button, Deck(rng=random.Random(seed)))
        deal = probe.deal_order
        hole_cards = [parse_cards((holes or {}).get(s, "")) for s in deal]
        order = deck_order_for(cfg.variant, hole_cards, parse_cards(board))
        deck = Deck(order=order)
    else:
        deck = Deck(rng=random.Random(seed))
    hand = Hand(cfg, ins, button, deck)
    if start:
        hand.start()
        assert not hand.invariant_violations()
    return hand


def step(hand: Hand, action: Action | str | tuple[str, int], seat: int | None = None
         ) -> tuple[Event, ...]:
    """Apply one action for ``seat`` (default: the player to act), checking invariants."""
    if isinstance(action, str):
        action = {
            "fold": Action.fold(), "check": Action.check(), "call": Action.call(),
            "allin": Action.all_in(),
        }[action]
    elif isinstance(action, tuple):
        kind, amount = action
        action = Action.bet(amount) if kind == "bet" else Action.raise_to(amount)
    who = hand.to_act if seat is None else seat
    assert who is not None, "nobody is to act"
    events = hand.act(who, action)
    assert hand.invariant_violations() == []
    return events


def play(hand: Hand, *actions: Action | str | tuple[str, int]) -> list[Event]:
    """Apply actions in turn order; return all events they caused."""
    out: list[Event] = []
    for a in actions:
        out.extend(step(hand, a))
    return out


def check_down(hand: Hand) -> list[Event]:
    """Check (or call) until the hand is over."""
    out: list[Event] = []
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        out.extend(step(hand, "check" if legal.can_check else "call"))
    return out
