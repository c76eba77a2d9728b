"""What RULES.md 10 lets happen once a hand's pots are awarded: the 7-2 bounty, showing
cards, and the rabbit hunt. Nothing here changes a pot.

Decisions where RULES.md is silent (pinned by ``tests/engine/test_after_hand.py``):

* **"Wins a whole pot alone"** is read literally: one pot (the main pot or any side
  pot) every chip of which goes to that one player, nobody tying them for any of it;
  one such pot is enough, and the bounty is collected once a hand however many pots
  they win. A pot run twice is whole when both boards' shares go to them alone. A
  split pot pays no bounty (its player may still collect for another pot won alone).
* **Holding a 7 and a 2 of different suits**: Texas Hold'em's two hole cards are a
  seven and a deuce, not suited. The bounty is paid in Hold'em hands only
  (``GameConfig.seven_deuce`` is ignored in any other game, so a table dealing several
  games pays it in its Hold'em hands).
* **Who pays**: every other player dealt in, folded or not, ``seven_deuce`` big blinds
  from the stack they have once the pots are awarded; a player with less pays what
  they have, one with nothing pays nothing. Should two players each win a pot alone
  with a 7-2 (side pots make it possible), they collect in pot order, main pot first.
* **The winning 7-2 is shown**: at a showdown it was shown already (a hand that wins is
  always shown); a hand won without a showdown is shown by the bot
  (:class:`~bot.engine.events.CardsShown` with ``bounty``) before the bounty is paid, as
  the bot shows two cards for a hand that plays the board (RULES.md 9): the bounty
  needs no request and a 7-2 that wins alone cannot stay hidden.
* **Showing** (:func:`show_refusal`): once the hand is over, a player who folded (on any
  street) or who won without a showdown (everyone else folded) may show their whole
  hand or any of its cards, and more later, each card once; a hand shown down, or
  mucked at the showdown (RULES.md 6: never revealed), may not. The table's
  "until the next deal" is the runtime's business.
* **Rabbit hunt** (:func:`rabbit_cards`): a hand that ended before the river because
  everyone else folded: the board cards it would have dealt, read from the deck at
  the places it deals board cards (:func:`~bot.engine.dealing.deal_positions`: the
  burns are skipped), never dealt to the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.betting import Player
from bot.engine.cards import Card
from bot.engine.dealing import deal_positions
from bot.engine.events import BountyPaid, CardsShown, Event, PotAwarded
from bot.engine.hand_state import HandState
from bot.engine.variants import GameConfig, HandRule

__all__ = [
    "bounty_blinds", "is_seven_deuce", "may_show", "pay_bounties", "rabbit_cards",
    "rabbit_refusal", "show_refusal", "showable", "whole_pots",
]


def bounty_blinds(config: GameConfig) -> int:
    """The 7-2 bounty in big blinds a hand of ``config`` pays (0: none, also in any game
    but Texas Hold'em)."""
    return config.seven_deuce if config.variant.rule is HandRule.HOLDEM else 0


def is_seven_deuce(hole: Sequence[Card]) -> bool:
    """Two hole cards, a 7 and a 2 of different suits."""
    return (len(hole) == 2 and {c.rank for c in hole} == {7, 2}
            and hole[0].suit != hole[1].suit)


def whole_pots(awards: Sequence[PotAwarded]) -> list[tuple[int, int]]:
    """``(pot index, seat)`` of every pot one seat won alone (every share of it, on every
    board, and nobody tied), main pot first."""
    winners: dict[int, set[int]] = {}
    for a in awards:
        winners.setdefault(a.index, set()).update(seat for seat, _ in a.high + a.low)
    return [(index, next(iter(seats))) for index, seats in sorted(winners.items())
            if len(seats) == 1]


def pay_bounties(
    players: Sequence[Player], awards: Sequence[PotAwarded], shown: Mapping[int, bool],
    config: GameConfig,
) -> list[Event]:
    """Pay the 7-2 bounty of a Hold'em hand whose pots are awarded (moving the chips
    between the players' stacks): each winner's 7-2 shown when it was not
    (``shown``: positions shown down), then their :class:`BountyPaid`."""
    chips = bounty_blinds(config) * config.big_blind
    if not chips:
        return []
    by_seat = {p.seat: p for p in players}
    events: list[Event] = []
    paid_to: set[int] = set()
    for _, seat in whole_pots(awards):
        winner = by_seat[seat]
        if seat in paid_to or not is_seven_deuce(winner.hole):
            continue
        paid_to.add(seat)
        if winner.pos not in shown:
            events.append(CardsShown(seat, winner.hole, bounty=True))
        payers = []
        for p in players:
            if p is not winner:
                pays = min(chips, p.stack)
                p.stack -= pays
                payers.append((p.seat, pays))
        amount = sum(c for _, c in payers)
        winner.stack += amount
        events.append(BountyPaid(seat, amount, tuple(payers)))
    return events


def may_show(state: HandState, seat: int) -> bool:
    """``seat`` folded, or won without a showdown (everyone else folded)."""
    return state.player(seat).folded or all(p.uncontested for p in state.result.pots)


def showable(state: HandState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` may still show after the hand (empty: none, or not its to show):
    those of a player who folded or won without a showdown, not shown yet."""
    if not state.is_over or not may_show(state, seat):
        return ()
    done = set(state.shown_after.get(seat, ()))
    return tuple(c for c in state.hole(seat) if c not in done)


def show_refusal(state: HandState, seat: int, cards: Sequence[Card]) -> str | None:
    """Why ``seat`` may not show ``cards`` now (``None``: it may); ``IllegalAction`` when
    ``seat`` is not in the hand."""
    if not state.is_over:
        return "the hand is not over"
    if not may_show(state, seat):
        return "only a player who folded or won without a showdown may show"
    if not cards or len(set(cards)) != len(cards) or not set(cards) <= set(state.hole(seat)):
        return "show cards of your own hand"
    if not set(cards) <= set(showable(state, seat)):
        return "those cards are shown already"
    return None


def rabbit_refusal(state: HandState) -> str | None:
    """Why the hand has no rabbit to hunt (``None``: it has): it must have ended before
    the river because everyone else folded."""
    if not state.is_over:
        return "the hand is not over"
    if not all(p.uncontested for p in state.result.pots) or len(state.board) >= 5:
        return "only a hand that everyone folded before the river has a rabbit hunt"
    return None


def rabbit_cards(state: HandState) -> tuple[Card, ...]:
    """The board cards a hand that ended early would have dealt, from its deck at their
    places (burns skipped). ``ValueError`` when :func:`rabbit_refusal` refuses."""
    why = rabbit_refusal(state)
    if why is not None:
        raise ValueError(why)
    places = deal_positions(len(state.seat_order), state.config.variant)["board"]
    order = state.deck.order
    return tuple(order[i] for i in places[len(state.board):])
