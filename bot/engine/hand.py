"""The hand state machine (RULES.md sections 2 to 6).

Usage::

    hand = Hand(config, [SeatIn(1, 200), SeatIn(4, 150), SeatIn(7, 90)], button=4, deck=Deck())
    events = hand.start()                 # antes, blinds, hole cards (may run to the end)
    legal = hand.legal_actions()          # the query
    hand.check(hand.to_act, Action.raise_to(7))   # the check: IllegalAction(reason)
    events = hand.act(hand.to_act, Action.raise_to(7))  # the action: frozen events

Seats are table seat numbers, clockwise in ascending order (wrapping). The
players of a hand are kept in *positions* 0..n-1 clockwise from the first
seat after the button (the button is last), which is also PHH's player order.

A hand is fully defined by its config, seats, button, deck order and inputs
(actions and show requests): :meth:`Hand.replay` rebuilds it exactly.

Decisions where RULES.md is silent (also pinned by tests):

* The button must be one of the dealt-in seats (the runtime moves it to the
  next player dealt in).
* Heads-up the button is the small blind; with three or more players the
  small blind is the first seat after the button and the big blind the next.
* Antes are posted first (clockwise from the first seat after the button),
  then the small blind, the big blind, then newcomers' big blinds.
* A newcomer posting a big blind out of position (``SeatIn.posts_big_blind``)
  posts a live big blind and acts in normal turn order; when action reaches
  them with nothing to call they have the option, like the big blind. The
  flag is ignored on the big blind's own seat; on the small blind's seat the
  player posts the big blind instead of the small blind.
* A player all-in on the ante posts no blind.
* The straddle (RULES.md 10, :mod:`bot.engine.straddle`) is posted after the
  big blind, before newcomers' big blinds; preflop action then starts left of
  the straddler.
* Courchevel: the one burn before the flop is made before the face-up first
  flop card (dealt after the hole cards, before preflop betting); the other
  two flop cards follow the preflop betting without another burn, so the
  hand still burns 3 cards.
* "When one or no player can still bet and two or more are in the hand ...
  all live hands are shown": this holds whenever the betting ends that way,
  on the river too (river bet, all-in call: both hands are shown, no muck).
  They are shown in showdown order (the last river bettor first, else from
  the first seat after the button), before any remaining board cards. When
  two or more players bet on to the river past an all-in player, it is a
  normal showdown and the all-in player's beaten hand may be mucked.
* When everyone else folded, the winner takes every chip in one uncontested
  award (no pots are shown: there is nothing to split).
* :meth:`request_show` may be called any time before the showdown, on a seat
  still in the hand. A sole survivor wins without showing even if asked.
* Inputs are read kindly: ``Action.bet`` and ``Action.raise_to`` stand for
  one another (the event says which it was), ``Action.call`` with nothing to
  call is a check, ``Action.all_in`` becomes the call, bet or raise it is.
* When every other live player is all-in, the amount to call is capped at
  the largest of their bets (a short big blind heads-up: the button only
  matches it), since more could only come back as an uncalled bet.
* Fixed limit knows no "half a bet reopens" rule: only full bets and raises
  count, reopen and count toward the cap (RULES.md section 5 as written).
* Run it twice (when the config allows it): after the run-out's hands are
  shown the hand waits for :meth:`Hand.vote_run_twice` from every player in
  it (:attr:`run_twice_voters`); nobody is to act meanwhile. The dealing
  order and the split are in :mod:`bot.engine.run_twice`.
* A bomb pot (``Hand(..., bomb_pot=BombPot(ante, double_board))``, RULES.md 10):
  antes only, no blinds, no preflop betting, maybe two boards; its decisions are in
  :mod:`bot.engine.bomb_pot`.
* After the pots (RULES.md 10): the 7-2 bounty is paid before the hand ends,
  and :meth:`Hand.show_after` takes the cards a player shows once it is over;
  the decisions are in :mod:`bot.engine.after_hand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.after_hand import bounty_blinds, pay_bounties, show_refusal
from bot.engine.betting import (
    Action,
    ActionKind,
    BettingRound,
    IllegalAction,
    LegalActions,
    Player,
    post_antes,
)
from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Card, Deck
from bot.engine.dealing import deal_positions, deck_order_for, next_button
from bot.engine.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    CardsShown,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RunTwiceVoted,
    ShowRequested,
    Street,
)
from bot.engine.hand_state import HandState, SeatIn, SeatState
from bot.engine.pots import Pot
from bot.engine.results import HandResult, PotResult, ShownHand
from bot.engine.run_twice import second_run_cards, settle_two_boards, street_cards
from bot.engine.showdown import play_showdown, showdown_order
from bot.engine.straddle import STRADDLE
from bot.engine.variants import VARIANTS, GameConfig, Structure, Variant

__all__ = [
    "VARIANTS",
    "Action",
    "ActionKind",
    "BombPot",
    "GameConfig",
    "Hand",
    "HandResult",
    "IllegalAction",
    "LegalActions",
    "Pot",
    "PotResult",
    "SeatIn",
    "SeatState",
    "ShownHand",
    "Street",
    "Structure",
    "Variant",
    "deal_positions",
    "deck_order_for",
    "next_button",
]

_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


class Hand(HandState):
    """One hand (of any variant): the query / check / act state machine.

    ``Hand(config, seats, button, deck)`` (the constructor and every read-only
    view are in :class:`~bot.engine.hand_state.HandState`); :meth:`start`
    posts and deals, then :meth:`act` and :meth:`request_show` take the
    players' inputs until :attr:`is_over`.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return (f"<Hand {self.config.variant.key} {self.config.structure.value} "
                f"{self._n} players, {self._street.value}, to act: {self.to_act}>")

    # -- the three verbs -----------------------------------------------------------
    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, or ``None`` when nobody is to act."""
        if self._to_act is None:
            return None
        return self._round.legal(self._players, self._players[self._to_act], self._pot())

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``seat`` may not do ``action`` now."""
        self._resolve(seat, action)

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Do ``action`` for ``seat``; return the events it caused (the action and what follows)."""
        kind, to = self._resolve(seat, action)
        mark = len(self._events)
        pos = self._to_act
        assert pos is not None
        p = self._players[pos]
        rnd = self._round
        chips = rnd.apply(p, kind, to)
        self._events.append(PlayerActed(p.seat, self._street, kind, chips, p.bet, p.all_in))
        if self._street is Street.RIVER and (kind is ActionKind.BET or kind is ActionKind.RAISE):
            self._river_aggressor = pos
        self._advance(pos + 1)
        return tuple(self._events[mark:])

    def can_raise_to(self, seat: int, to: int) -> bool:
        """Whether ``seat`` may bet or raise to ``to`` now."""
        try:
            self._resolve(seat, Action.raise_to(to))
        except IllegalAction:
            return False
        return True

    def _resolve(self, seat: int, action: Action) -> tuple[ActionKind, int]:
        if not self._started:
            raise IllegalAction("the hand has not started")
        if self._over:
            raise IllegalAction("the hand is over")
        p = self._get(seat)
        if self._to_act is None or self._players[self._to_act] is not p:
            if p.folded:
                raise IllegalAction("you have folded")
            raise IllegalAction("it is not your turn")
        legal = self._round.legal(self._players, p, self._pot())
        return BettingRound.resolve(legal, p.bet, action)

    def request_show(self, seat: int) -> tuple[Event, ...]:
        """The owner of ``seat`` asks to show at showdown even a hand the bot would muck."""
        if not self._started:
            raise IllegalAction("the hand has not started")
        if self._over:
            raise IllegalAction("the hand is over")
        p = self._get(seat)
        if p.folded:
            raise IllegalAction("you have folded")
        if p.show_requested:
            return ()
        p.show_requested = True
        ev = ShowRequested(seat)
        self._events.append(ev)
        return (ev,)

    # -- start -------------------------------------------------------------------
    def start(self) -> tuple[Event, ...]:
        """Post antes and blinds, deal; may run the hand to its end when all are all-in."""
        if self._started:
            raise IllegalAction("the hand has already started")
        self._started = True
        cfg = self.config
        ps = self._players
        ev = self._events
        bomb = self.bomb_pot
        ev.append(HandStarted(
            cfg.variant.key, cfg.structure.value, cfg.small_blind, cfg.big_blind, cfg.ante,
            self.button, tuple((p.seat, p.start) for p in ps),
            tuple(p.seat for p in ps if p.newcomer), bounty_blinds(cfg),
            bomb_ante=bomb.ante if bomb else 0, double_board=self._double,
        ))
        ante = cfg.ante if bomb is None else bomb.ante  # a bomb pot's ante replaces the table's
        if ante:
            ev.extend(post_antes(ps, ante))
        opener = None if bomb is not None else self._post_blinds()
        h = cfg.variant.hole_cards
        n = self._n
        cards = self.deck.deal(n * h)
        for k, i in enumerate(self._deal_order):
            p = ps[i]
            p.hole = cards[k::n]
            ev.append(HoleCardsDealt(p.seat, p.hole))
        if cfg.variant.courchevel:  # the first flop card, face up before the preflop betting
            self._deal_boards(Street.PREFLOP)
        if opener is None:  # a bomb pot has no preflop betting: the flop at once
            self._end_round()
        else:
            self._advance(opener)
        return tuple(ev)

    def _post_blinds(self) -> int:
        """The small and big blinds, the straddle, then newcomers' big blinds out of
        position; the position where the preflop action starts."""
        cfg, ps = self.config, self._players
        sb, bb = ps[self._sb_pos], ps[self._bb_pos]
        if sb.newcomer:
            self._post(sb, cfg.big_blind, "newcomer")
        else:
            self._post(sb, cfg.small_blind, "small")
        self._post(bb, cfg.big_blind, "big")
        opener = self._bb_pos + 1  # preflop action starts left of the big blind...
        if self._straddle_pos is not None:  # ...or of the straddle, the bet (RULES.md 10)
            self._post(ps[self._straddle_pos], self._round.level, STRADDLE)
            opener = self._straddle_pos + 1
        for p in ps:
            if p.newcomer and p is not sb and p is not bb:
                self._post(p, cfg.big_blind, "newcomer")
        return opener

    def _post(self, p: Player, amount: int, blind: str) -> None:
        if p.stack == 0:
            return
        chips = amount if amount < p.stack else p.stack
        p.put_in(chips, live=True)
        self._events.append(BlindPosted(p.seat, chips, blind, p.all_in))

    # -- flow ----------------------------------------------------------------------
    def _advance(self, start: int) -> None:
        """Find the next player to act from position ``start``, or end the round."""
        ps = self._players
        n = self._n
        live = 0
        for p in ps:
            if not p.folded:
                live += 1
        if live > 1:
            rnd = self._round
            for k in range(n):
                i = (start + k) % n
                if rnd.needs_action(ps, ps[i]):
                    self._to_act = i
                    return
        self._to_act = None
        self._end_round()

    def _end_round(self) -> None:
        """The betting round is over: return an uncalled bet, then end the hand, run the
        board out, go to the showdown, or deal the next street and open its betting."""
        ps = self._players
        self._return_uncalled_bet()
        for p in ps:
            p.bet = 0
            p.acted = False
            p.acted_level = 0
        live = [p for p in ps if not p.folded]
        if len(live) == 1:
            self._finish_uncontested(live[0])
            return
        able = sum(1 for p in live if not p.all_in)
        if able <= 1:
            self._runout()
            return
        if self._street is Street.RIVER:
            self._showdown()
            return
        street = _NEXT_STREET[self._street]
        self._deal_boards(street)
        cfg = self.config
        unit = cfg.big_bet if (cfg.structure is Structure.FIXED_LIMIT
                               and street in (Street.TURN, Street.RIVER)) else cfg.big_blind
        self._round = BettingRound(cfg.structure, unit, 0, 0)
        self._advance(0)

    def _return_uncalled_bet(self) -> None:
        """The part of the top bet that nobody matched goes back to its owner."""
        top = second = 0
        top_p: Player | None = None
        for p in self._players:
            if p.bet > top:
                second, top, top_p = top, p.bet, p
            elif p.bet > second:
                second = p.bet
        if top_p is not None and top > second:
            back = top - second
            top_p.stack += back
            top_p.bet -= back
            top_p.committed -= back
            top_p.all_in = False
            self._returned[top_p.seat] = self._returned.get(top_p.seat, 0) + back
            self._events.append(BetReturned(top_p.seat, back))

    def _deal_boards(self, street: Street) -> None:
        """Deal ``street`` on the board, then (a double board) on the second board."""
        self._deal_street(street)
        if self._double:
            self._deal_street(street, 1)

    def _deal_street(self, street: Street, run: int = 0) -> None:
        """Burn and deal ``street`` onto the board of ``run`` (1: the second board)."""
        self._street = street
        deck = self.deck
        burns, n = street_cards(self.config.variant, street)
        if burns:
            self._events.append(CardBurned(street, run))
            deck.deal(burns)
        cards = deck.deal(n)
        (self._board2 if run else self._board).extend(cards)
        self._events.append(BoardDealt(street, cards, run))

    def _runout(self) -> None:
        """Betting is over with all but at most one player all-in: every live hand is
        shown face up (in showdown order), then the rest of the board is dealt (or,
        when the table runs it twice, the players in the hand are asked first)."""
        ps = self._players
        for i in self._showdown_order():
            p = ps[i]
            self._shown[i] = True
            self._events.append(HandShown(p.seat, p.hole, True))
        if self._may_run_twice():
            self._voters = [p.pos for p in ps if not p.folded]
            return
        self._deal_rest()
        self._showdown()

    def _may_run_twice(self) -> bool:
        """The table allows it, cards are to come, and the deck holds both runs."""
        cfg = self.config
        need = second_run_cards(cfg.variant, self._street)
        return (cfg.run_it_twice and not self._double and need > 0
                and self.deck.remaining >= 2 * need)

    def _deal_rest(self) -> None:
        while self._street is not Street.RIVER:
            self._deal_boards(_NEXT_STREET[self._street])

    # -- run it twice ----------------------------------------------------------------
    def vote_run_twice(self, seat: int, agree: bool) -> tuple[Event, ...]:
        """``seat`` answers whether to run the board twice (see :attr:`run_twice_voters`).

        The first "once" deals the board once; the last "twice" deals it twice."""
        p = self._get(seat)
        if self._over or p.pos not in self._voters:
            raise IllegalAction("there is no run-it-twice question for you now")
        mark = len(self._events)
        self._events.append(RunTwiceVoted(seat, agree))
        self._voters.remove(p.pos)
        if not agree:
            self._voters.clear()
            self._deal_rest()
            self._showdown()
        elif not self._voters:
            self._run_twice()
        return tuple(self._events[mark:])

    def _run_twice(self) -> None:
        """Deal the first run, then the second from the same deck, and split every pot."""
        start = self._street
        self._board2 = list(self._board)
        self._deal_rest()
        self._street = start
        while self._street is not Street.RIVER:
            self._deal_street(_NEXT_STREET[self._street], 1)
        self._street = Street.SHOWDOWN
        awards = settle_two_boards(self._players, (self._board, self._board2),
                                   self.config.variant)
        self._pot_results.extend(awards)
        self._paid += sum(a.amount for a in awards)
        self._events.extend(awards)
        self._finish()

    # -- showdown ------------------------------------------------------------------
    def _showdown_order(self) -> list[int]:
        return showdown_order(self._players, self._river_aggressor)

    def _showdown(self) -> None:
        """Show or muck each live hand in showdown order, then award every pot."""
        self._street = Street.SHOWDOWN
        done = play_showdown(self._players, self.boards, self._showdown_order(), self._shown,
                             self.config.variant)
        for i in done.shown:
            self._shown[i] = False
        self._mucked.extend(done.mucked)
        self._pot_results.extend(done.awards)
        self._paid += sum(a.amount for a in done.awards)
        self._events.extend(done.events)
        self._finish()

    def _finish_uncontested(self, winner: Player) -> None:
        total = self._pot()
        winner.stack += total
        self._paid += total
        award = PotAwarded(0, total, (winner.seat,), ((winner.seat, total),), (), True)
        self._pot_results.append(award)
        self._events.append(award)
        self._finish()

    def _finish(self) -> None:
        self._events.extend(pay_bounties(self._players, self._pot_results, self._shown,
                                         self.config))
        self._over = True
        self._to_act = None
        self._events.append(HandEnded(tuple((p.seat, p.stack) for p in self._players)))

    # -- after the hand ------------------------------------------------------------------
    def show_after(self, seat: int, cards: Sequence[Card]) -> tuple[Event, ...]:
        """Once the hand is over, ``seat`` shows ``cards`` of its hand to the table (RULES.md
        10 "showing"; who may: :func:`~bot.engine.after_hand.show_refusal`)."""
        why = show_refusal(self, seat, cards)
        if why is not None:
            raise IllegalAction(why)
        hole = self._get(seat).hole
        ev = CardsShown(seat, tuple(c for c in hole if c in cards))
        self._events.append(ev)
        return (ev,)

    # -- replay --------------------------------------------------------------------------
    @classmethod
    def replay(cls, config: GameConfig, seats: Sequence[SeatIn], button: int,
               deck: Deck | Sequence[Card], inputs: Iterable[Event],
               bomb_pot: BombPot | None = None) -> Hand:
        """Rebuild a hand from its deck order and inputs (``PlayerActed``,
        ``ShowRequested``, ``RunTwiceVoted`` and ``CardsShown`` events, the bot's own
        showing of a bounty's 7-2 aside; any other events are skipped, so a whole event
        list will do); ``bomb_pot`` as the hand was dealt."""
        if not isinstance(deck, Deck):
            deck = Deck(order=deck)
        hand = cls(config, seats, button, deck, bomb_pot)
        hand.start()
        for e in inputs:
            if isinstance(e, PlayerActed):
                hand.act(e.seat, e.action)
            elif isinstance(e, ShowRequested):
                hand.request_show(e.seat)
            elif isinstance(e, RunTwiceVoted):
                hand.vote_run_twice(e.seat, e.agree)
            elif isinstance(e, CardsShown) and not e.bounty:
                hand.show_after(e.seat, e.cards)
        return hand
