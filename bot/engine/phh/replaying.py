"""Replaying a PHH record on our :class:`~bot.engine.hand.Hand`: :func:`replay`.

The phases, in order: read every action (:func:`parse_actions`), gather
the cards they deal and rebuild the deck (:mod:`bot.engine.phh.deck`), start
a Hand dealt from that deck (:func:`_start_hand`), play the actions on it
(:class:`_ActionPlayer`), then check that the record reached the end of the
hand (:func:`_check_finished`) and that no unknown hand could have won
(:func:`_check_unknown_hands_lost`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine.cards import DECK, Deck
from bot.engine.events import ActionKind, HandEnded, PlayerActed, PotAwarded
from bot.engine.hand import Action, Hand, IllegalAction
from bot.engine.phh.actions import (
    BoardDeal,
    HoleDeal,
    PHHAction,
    PlayerAction,
    Show,
    action_error,
    label,
    parse_action,
)
from bot.engine.phh.after_hand import blank_slots, check_bounties, keep_off_seven_deuce
from bot.engine.phh.bomb_pot import double_board_of
from bot.engine.phh.deck import DealtCards, collect_cards, deck_order, fill_unknown_holes
from bot.engine.phh.game_setup import Setup, setup_of
from bot.engine.phh.records import HandError, HandHistory
from bot.engine.phh.second_run import second_run_of, shared_cards
from bot.engine.variants import Variant

__all__ = ["Replay", "parse_actions", "replay"]


@dataclass(frozen=True)
class Replay:
    """A replayed hand: the record, the finished :class:`Hand` and the final stacks (PHH order)."""

    history: HandHistory
    hand: Hand
    finishing_stacks: tuple[int, ...]


#: Fillings tried for unknown hole cards: the weakest found first, then searches from other
#: orders of the unused cards, while a filled hand still wins (a search can stop at a hand
#: weak on one board that wins on the other, or in hi-lo at a low that wins).
FILL_TRIES = 12


def replay(hh: HandHistory) -> Replay:
    """Play the recorded actions on a :class:`Hand` dealt from the recorded cards.

    Raises :class:`HandError` naming the action number and the reason when
    the hand breaks the rules, deals a card twice, or stops before its end.
    Hole cards written ``??`` are filled with the weakest unused cards; the
    hand is an error only when such a hand would then still win or tie part
    of a pot at showdown, whatever filling of :data:`FILL_TRIES` is tried (see the
    :mod:`bot.engine.phh` docstring).
    """
    setup = setup_of(hh)
    variant = setup.config.variant
    parsed = parse_actions(hh.actions)
    recorded = collect_cards(hh.actions, parsed, variant, hh.player_count)
    take_second_run(hh, recorded, variant)
    blanks = blank_slots(recorded, variant.hole_cards)
    seat_of = [s.seat for s in setup.seats]
    player_of = {seat: p for p, seat in enumerate(seat_of)}
    pots: list[frozenset[int]] = []
    for attempt in range(FILL_TRIES):
        dealt = copy.deepcopy(recorded)
        unknown = fill_unknown_holes(dealt, parsed, variant, attempt, pots)
        if setup.config.seven_deuce:
            keep_off_seven_deuce(dealt, blanks)
        hand = _play(hh, setup, dealt, parsed, seat_of, player_of)
        pots = pots or _contested(hand, player_of)
        try:
            _check_unknown_hands_lost(hand, unknown, player_of)
        except HandError:
            if unknown and attempt + 1 < FILL_TRIES:
                continue
            raise
        break
    check_bounties(hh, hand.events, seat_of)
    ended = next(e for e in reversed(hand.events) if isinstance(e, HandEnded))
    final = dict(ended.stacks)
    return Replay(hh, hand, tuple(final[s] for s in seat_of))


def _play(hh: HandHistory, setup: Setup, dealt: DealtCards, parsed: Sequence[PHHAction | None],
          seat_of: Sequence[int], player_of: dict[int, int]) -> Hand:
    """The recorded actions played on a Hand dealt from ``dealt``, checked to its end."""
    hand = _start_hand(setup, dealt, player_of)
    for p in dealt.shown:
        try:
            hand.request_show(seat_of[p])
        except (IllegalAction, ValueError):
            pass  # showing is then the bot's own decision
    player = _ActionPlayer(hand, seat_of, player_of)
    for number, (text, action) in enumerate(zip(hh.actions, parsed, strict=True), 1):
        reason = player.play(action)
        if reason:
            raise action_error(number, text, action, reason)
    player.answer_run_twice()
    _check_finished(hand, player.board_seen, player_of)
    _check_second_board(hand, dealt)
    return hand


def take_second_run(hh: HandHistory, dealt: DealtCards, variant: Variant) -> None:
    """Add the second run of a hand run twice (``_run_twice``), or board 2 of a double
    board (``_double_board``), to the dealt cards."""
    second = second_run_of(hh)
    if second is not None:
        dealt.add_second_run(second, shared_cards(variant, second))
    board2 = double_board_of(hh)
    if board2 is not None:
        if second is not None:
            raise HandError("a double board is not run twice")
        dealt.add_second_run(board2, None)


def _check_second_board(hand: Hand, dealt: DealtCards) -> None:
    """A record run twice was run twice, on the recorded second board; a double board
    was dealt on the recorded board 2."""
    if dealt.double:
        if not hand.double_board or hand.second_board != dealt.board2:
            raise HandError("_double_board: the hand's board 2 is not the recorded one")
        return
    if dealt.shared is None:
        return
    if not hand.second_board:
        raise HandError("_run_twice: the hand has no all-in run-out to run twice there")
    if hand.second_board[dealt.shared:] != dealt.board2:
        raise HandError("_run_twice: the second board is not run after the cards it shares")


def parse_actions(actions: Sequence[str]) -> list[PHHAction | None]:
    """Every action read; :class:`HandError` naming the first one that cannot be read."""
    parsed: list[PHHAction | None] = []
    for number, text in enumerate(actions, 1):
        try:
            parsed.append(parse_action(text))
        except HandError as exc:
            words = text.split("#", 1)[0].split()
            if words[:2] == ["d", "dh"]:  # never echo hole cards
                raise HandError(
                    f"action {number} ({' '.join(words[:3])}): the hole cards cannot be read"
                ) from None
            raise HandError(f"action {number} ({text.strip()}): {exc}") from None
    return parsed


def _start_hand(setup: Setup, dealt: DealtCards, player_of: Mapping[int, int]) -> Hand:
    """A started :class:`Hand` whose deck deals the recorded cards."""
    try:
        # The Hand's own deal order (from the small blind; heads-up the button).
        probe = Hand(setup.config, setup.seats, setup.button, Deck(order=DECK), setup.bomb_pot)
        deal_order = [player_of[seat] for seat in probe.deal_order]
        order = deck_order(
            setup.config.variant, deal_order, dealt.holes, dealt.board, dealt.seen,
            dealt.board2, dealt.shared, dealt.double,
        )
        hand = Hand(setup.config, setup.seats, setup.button, Deck(order=order), setup.bomb_pot)
        hand.start()
    except (IllegalAction, ValueError) as exc:
        raise HandError(f"the hand cannot start: {exc}") from None
    return hand


def _idle(hand: Hand, seat: int) -> bool:
    """``seat`` is in the hand with chips, and nobody else could answer a bet.

    The Hand does not ask such a player to act; PokerKit sometimes does, and
    its histories then hold a check (``cc``) that :func:`replay` accepts as a
    no-op.
    """
    me = next((p for p in hand.players if p.seat == seat), None)
    if me is None or me.folded or me.all_in:
        return False
    return all(p.folded or p.all_in for p in hand.players if p.seat != seat)


def _turn(hand: Hand, player_of: Mapping[int, int]) -> str:
    who = hand.to_act
    if who is None or who not in player_of:
        return ""
    return f" ({label(player_of[who])} to act)"


class _ActionPlayer:
    """Plays a record's actions on the Hand, one at a time.

    Deals and shows are checked against what the Hand did on its own (it
    deals and shows by itself); betting actions are played. :meth:`play`
    returns why an action is refused, or ``None``.
    """

    def __init__(
        self, hand: Hand, seat_of: Sequence[int], player_of: dict[int, int]
    ) -> None:
        self.hand = hand
        self.seat_of = seat_of
        self.player_of = player_of
        #: How many board cards the record has dealt so far.
        self.board_seen = 0
        self.betting_started = False

    def answer_run_twice(self) -> None:
        """A record run twice (the only kind whose table asks) says everyone agreed."""
        for seat in self.hand.run_twice_voters:
            if not self.hand.is_over:
                self.hand.vote_run_twice(seat, True)

    def play(self, action: PHHAction | None) -> str | None:
        if action is None:
            return None
        if not isinstance(action, Show):
            self.answer_run_twice()
        if isinstance(action, HoleDeal):
            if self.betting_started:
                return "hole cards are dealt only before the betting"
            return None
        if isinstance(action, BoardDeal):
            return self._board_deal(action)
        if isinstance(action, Show):
            if not self.hand.is_over and self.hand.to_act is not None:
                return "hands are shown only when the betting is over"
            return None
        self.betting_started = True
        return self._bet(action)

    def _board_deal(self, action: BoardDeal) -> str | None:
        hand = self.hand
        self.board_seen += len(action.cards)
        if len(hand.board) >= self.board_seen:
            return None
        if hand.is_over:
            return "the hand is over, no more board cards"
        return "the board is dealt while the betting is open" + _turn(hand, self.player_of)

    def _bet(self, action: PlayerAction) -> str | None:
        hand = self.hand
        seat = self.seat_of[action.player] if action.player < len(self.seat_of) else -1
        if action.kind == "cc" and hand.to_act != seat and _idle(hand, seat):
            return None  # a check whose decision cannot matter (PokerKit asks for one)
        if hand.is_over:
            return "the hand is already over"
        if len(hand.board) != self.board_seen:
            return "the history skips board cards the hand has dealt"
        if hand.to_act != seat:
            who = hand.to_act
            if who in self.player_of:
                return f"it is {label(self.player_of[who])}'s turn"
            return "nobody may act now"
        if action.kind == "f":
            move = Action.fold()
        elif action.kind == "cc":
            move = Action.call()
        else:
            move = Action.raise_to(action.amount)
        try:
            hand.act(seat, move)
        except IllegalAction as exc:
            return str(exc)
        return None


def _contested(hand: Hand, player_of: Mapping[int, int]) -> list[frozenset[int]]:
    """The players eligible for each pot that went to a showdown (the betting decides them,
    whatever the hole cards)."""
    return [frozenset(player_of[s] for s in e.eligible) for e in hand.events
            if isinstance(e, PotAwarded) and not e.uncontested]


def _check_finished(hand: Hand, board_seen: int, player_of: Mapping[int, int]) -> None:
    """The actions reach the end of the hand and deal the whole board it dealt."""
    if not hand.is_over:
        raise HandError("the actions stop before the end of the hand" + _turn(hand, player_of))
    if board_seen != len(hand.board):
        raise HandError("the actions stop before the end of the hand (board cards are missing)")


def _check_unknown_hands_lost(
    hand: Hand, unknown: set[int], player_of: Mapping[int, int]
) -> None:
    """No player whose hole cards were unknown (and filled) won chips at a showdown."""
    folded = {
        player_of[e.seat]
        for e in hand.events
        if isinstance(e, PlayerActed) and e.kind is ActionKind.FOLD
    }
    if len(player_of) - len(folded) < 2 or not unknown - folded:
        return
    winners = {
        player_of[seat]
        for e in hand.events
        if isinstance(e, PotAwarded)
        for seat, chips in e.high + e.low
        if chips
    }
    for p in sorted((unknown - folded) & winners):
        raise HandError(
            f"{label(p)}'s hole cards are unknown (??) and could win at the showdown"
        )
