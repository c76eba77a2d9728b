"""Differential test: random hands played by our Hand and by PokerKit 0.7.7 side by side,
every Omaha variant and Texas Hold'em (no limit, pot limit, fixed limit).

Each hand is dealt once (our seeded deck) and the same cards are fed to a
``pokerkit.State`` built for the same game. Random legal actions are chosen
on our Hand and applied to both. Before every action both engines must agree
on who acts, what a call costs and the bet/raise range; at the end our final
stacks must equal

* an independent settlement by RULES.md section 6 (pots cut at the all-in
  amounts, each pot on its own, hi-lo halves with the odd chip to the high,
  odd chips clockwise from the first seat after the button), computed here
  from PokerKit's contributions and PokerKit's hand evaluators, for every
  hand; and
* PokerKit's own final stacks, for every hand whose settlement does not
  touch one of PokerKit's settlement deviations (below).

How each game is built in PokerKit (``State`` directly, never the built-in
``FO/8`` which is really pot limit with no cap): four streets, the first
dealing ``hole_cards`` down cards (2, 4, 5 or 6) and, for Courchevel, one board
card before the preflop betting (PokerKit accepts hole and board dealing on
the same street); the flop deals 3 cards (Courchevel 2), turn and river 1.
Burns are fed as unknown cards. Fixed limit: small bet preflop and on the
flop, big bet on the turn and river, and a cap of 3 ``cbr`` preflop (our
cap of 4 bets counts the big blind, PokerKit's does not) and 4 after.
Antes are uniform with ``ante_trimming_status = True`` (antes count as
contributions when pots are cut). Hands are ranked by PokerKit's
``OmahaHoldemHand`` (and its 8-or-better low) or, for Texas Hold'em, its
``StandardHighHand`` (the best five of hole and board cards).

PokerKit's deviations from RULES.md (DEVELOPERS.md) and what this test does:

* Betting situations it gets wrong are not generated: stacks always cover
  ante + big blind + 1 (it lowers the bet to a short big blind's post); no
  all-in raise that increases the bet by less than a big blind is chosen (it
  treats one as a full raise, reopening the betting), and in fixed limit no
  all-in raise for less than a full bet (it counts it toward the cap); no
  newcomer posts a big blind out of position (PHH/PokerKit would read it as a
  straddle). Generated: short all-in calls, full all-in raises, and in no
  limit and pot limit incomplete all-in raises of at least a big blind
  (``short_all_in_raises``), which do not reopen the betting in both engines.
* It asks some players to act whose decision cannot matter (nothing to call,
  nobody left who could answer a bet): such a PokerKit-only turn is answered
  with a check, and only in exactly that situation.
* Settlement: PokerKit splits every pot high/low when anyone in the *hand*
  has a low (we: when someone among that pot's players has one); it gives a
  split's whole odd-chip remainder to one player; and it merges a main and a
  side pot when the all-in player who separated them loses, which moves odd
  chips between hi-lo halves. Hands where a pot or half does not split evenly
  among tied winners, a hi-lo pot has no low among its players while someone
  else has one, or a hi-lo hand has several pots and an odd one, are compared
  with the independent settlement only; all others with PokerKit's stacks too.
  The test counts both kinds and insists on enough direct comparisons.

Run time: 4,700 hands (2,500 Omaha in about 25 s, 2,200 Hold'em in about 7 s; +150 in
the PHH test) on one core. ``tests/engine/test_pokerkit_holdem.py`` plays scripted Hold'em cases.
``POKERKIT_DIFF_HANDS=20000`` (hands per game) runs a deeper check.
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from bot.engine.cards import Card, Deck
from bot.engine.events import BoardDealt, HandEnded, HoleCardsDealt
from bot.engine.hand import Action, Hand, LegalActions, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, HandRule, Structure, Variant

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    Automation,
    BettingStructure,
    ChipsPushing,
    Folding,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    StandardHighHand,
    State,
)
from pokerkit import Card as PKCard  # noqa: E402
from pokerkit import Deck as PKDeck  # noqa: E402
from pokerkit import Street as PKStreet  # noqa: E402

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK_STRUCTURES = {
    Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
    Structure.FIXED_LIMIT: BettingStructure.FIXED_LIMIT,
}

#: (variant, structure, hands): the games of the issue (2,100 hands), plus Big O,
#: fixed-limit Courchevel Hi-Lo, no-limit Omaha Hi-Lo and Texas Hold'em in every structure.
GAMES = [
    ("omaha", Structure.POT_LIMIT, 450),
    ("omaha_hilo", Structure.POT_LIMIT, 300),
    ("omaha_hilo", Structure.FIXED_LIMIT, 300),
    ("omaha", Structure.NO_LIMIT, 300),
    ("omaha5", Structure.POT_LIMIT, 250),
    ("omaha6", Structure.POT_LIMIT, 250),
    ("courchevel", Structure.POT_LIMIT, 250),
    ("big_o", Structure.POT_LIMIT, 150),
    ("courchevel_hilo", Structure.FIXED_LIMIT, 150),
    ("omaha_hilo", Structure.NO_LIMIT, 100),
    ("holdem", Structure.NO_LIMIT, 1000),
    ("holdem", Structure.POT_LIMIT, 600),
    ("holdem", Structure.FIXED_LIMIT, 600),
]
DEEP = int(os.environ.get("POKERKIT_DIFF_HANDS", "0"))


class _Memo:
    """PokerKit's Omaha evaluators, memoised (it re-ranks the same hands many times).

    Only speed changes: the ranking is PokerKit's own ``from_game``; a hand
    that cannot be formed (no qualifying low) still raises ``ValueError``.
    """

    cache: ClassVar[dict[tuple[str, str], Any]]

    @classmethod
    def from_game(cls, hole_cards: Any, board_cards: Any = ()) -> Any:
        hole = tuple(hole_cards)
        board = tuple(board_cards)
        key = ("".join(map(repr, hole)), "".join(map(repr, board)))
        try:
            found = cls.cache[key]
        except KeyError:
            try:
                found = super().from_game(hole, board)  # type: ignore[misc]
            except ValueError as exc:
                found = exc
            if len(cls.cache) > 200_000:
                cls.cache.clear()
            cls.cache[key] = found
        if isinstance(found, ValueError):
            raise found
        return found


class MemoHigh(_Memo, OmahaHoldemHand):  # type: ignore[misc]
    cache: ClassVar[dict[tuple[str, str], Any]] = {}


class MemoLow(_Memo, OmahaEightOrBetterLowHand):  # type: ignore[misc]
    cache: ClassVar[dict[tuple[str, str], Any]] = {}


class MemoBestFive(_Memo, StandardHighHand):  # type: ignore[misc]
    """Texas Hold'em: PokerKit's best five of the hole and board cards."""

    cache: ClassVar[dict[tuple[str, str], Any]] = {}


def high_type(variant: Variant) -> Any:
    """PokerKit's high hand for ``variant``'s rule."""
    return MemoBestFive if variant.rule is HandRule.HOLDEM else MemoHigh


def pokerkit_state(config: GameConfig, stacks: Sequence[int], straddle: bool = False) -> State:
    """The same game as ``config`` as a ``pokerkit.State`` (players in PHH order).

    ``straddle``: p3 straddles twice the big blind (RULES.md 10), which counts as the
    big blind for the preflop minimum raise (PokerKit's own straddles keep the big
    blind as the minimum raise: its preflop street is given the straddle instead)."""
    variant = config.variant
    bb = config.big_blind
    fixed = config.structure is Structure.FIXED_LIMIT
    caps: tuple[int | None, ...] = (3, 4, 4, 4) if fixed else (None,) * 4
    sizes = (bb, bb, 2 * bb, 2 * bb) if fixed else ((2 if straddle else 1) * bb,) + (bb,) * 3
    flop = 2 if variant.courchevel else 3
    streets = (
        PKStreet(False, (False,) * variant.hole_cards, int(variant.courchevel), False,
                 Opening.POSITION, sizes[0], caps[0]),
        PKStreet(True, (), flop, False, Opening.POSITION, sizes[1], caps[1]),
        PKStreet(True, (), 1, False, Opening.POSITION, sizes[2], caps[2]),
        PKStreet(True, (), 1, False, Opening.POSITION, sizes[3], caps[3]),
    )
    hand_types = (MemoHigh, MemoLow) if variant.hi_lo else (high_type(variant),)
    n = len(stacks)
    return State(
        AUTOMATIONS,
        PKDeck.STANDARD,
        hand_types,
        streets,
        PK_STRUCTURES[config.structure],
        True,
        (config.ante,) * n,
        (config.small_blind, bb, 2 * bb) if straddle else (config.small_blind, bb),
        0,
        tuple(stacks),
        n,
        mode=Mode.CASH_GAME,
    )


def pk_cards(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards)


def Card_(text: str) -> tuple[Any, ...]:
    """PokerKit cards from our notation."""
    return tuple(PKCard.parse(text))


# --- the independent settlement (RULES.md section 6) --------------------------


@dataclass
class Settlement:
    awards: list[int]
    #: The settlement touches one of PokerKit's settlement deviations, so its
    #: own numbers may differ from the rules (see the module docstring).
    pokerkit_differs: bool = False
    notes: list[str] = field(default_factory=list)


def split(amount: int, winners: list[int], awards: list[int]) -> bool:
    """Split evenly; odd chips one at a time clockwise from the first seat after the button."""
    share, odd = divmod(amount, len(winners))
    for k, i in enumerate(sorted(winners)):
        awards[i] += share + (1 if k < odd else 0)
    return odd != 0


def settle_by_rules(
    contributions: Sequence[int],
    live: Sequence[bool],
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    variant: Variant,
) -> Settlement:
    """Award every pot by RULES.md, ranking hands with PokerKit's evaluators."""
    n = len(contributions)
    result = Settlement([0] * n)
    alive = [i for i in range(n) if live[i]]
    if len(alive) == 1:
        result.awards[alive[0]] = sum(contributions)
        return result
    text_board = pk_cards(board)
    ranking = high_type(variant)
    high = {i: ranking.from_game(Card_(pk_cards(holes[i])), Card_(text_board)) for i in alive}
    low = {}
    if variant.hi_lo:
        for i in alive:
            try:
                low[i] = MemoLow.from_game(Card_(pk_cards(holes[i])), Card_(text_board))
            except ValueError:
                pass  # no qualifying low
    levels = sorted({contributions[i] for i in alive})
    odd_pots = 0
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = [i for i in alive if contributions[i] >= level]
        previous = level
        if level == levels[-1]:  # chips above every live player's (cannot happen; kept safe)
            amount += sum(max(0, c - level) for c in contributions)
        best = max(high[i] for i in eligible)
        high_winners = [i for i in eligible if high[i] == best]
        lows = [i for i in eligible if i in low]
        if lows:
            best_low = max(low[i] for i in lows)
            low_winners = [i for i in lows if low[i] == best_low]
            half = amount // 2
            odd_pots += amount % 2
            uneven = split(amount - half, high_winners, result.awards)
            if split(half, low_winners, result.awards) or uneven:
                result.pokerkit_differs = True
                result.notes.append("a half does not split evenly among tied winners")
        else:
            if low:  # PokerKit splits by whether anyone in the hand has a low
                result.pokerkit_differs = True
                result.notes.append("hi-lo pot without a low among its players")
            if split(amount, high_winners, result.awards):
                result.pokerkit_differs = True
                result.notes.append("a pot does not split evenly among tied winners")
    if odd_pots and len(levels) > 1:  # PokerKit may merge pots, moving odd chips
        result.pokerkit_differs = True
        result.notes.append("several hi-lo pots with odd chips")
    return result


# --- driving both engines -------------------------------------------------------


@dataclass
class Tally:
    hands: int = 0
    direct: int = 0
    pokerkit_only_turns: int = 0
    avoided_short_raises: int = 0
    all_in_hands: int = 0
    multiway_pots: int = 0
    short_all_in_raises: int = 0


def random_seats(rng: random.Random, config: GameConfig, players: int) -> tuple[list[SeatIn], int]:
    """Seats with stacks from just above ante + big blind to 200 big blinds."""
    numbers = sorted(rng.sample(range(1, 11), players))
    bb = config.big_blind
    floor = config.ante + bb + 1
    seats = []
    for seat in numbers:
        kind = rng.random()
        if kind < 0.3:
            stack = floor + rng.randrange(5 * bb)
        elif kind < 0.7:
            stack = rng.randint(10 * bb, 40 * bb)
        else:
            stack = rng.randint(50 * bb, 200 * bb)
        seats.append(SeatIn(seat, stack))
    return seats, rng.choice(numbers)


def full_raise_to(pk: State) -> int:
    """The smallest full raise now, as PokerKit's state holds it (same as ours here)."""
    street = pk.street
    assert street is not None
    increment = max(pk.completion_betting_or_raising_amount,
                    street.min_completion_betting_or_raising_amount)
    return max(pk.bets) + increment


def choose(rng: random.Random, legal: LegalActions, pk: State, tally: Tally) -> Action:
    """A random legal action, avoiding the short all-in raises PokerKit gets wrong."""
    roll = rng.random()
    if roll < 0.15 and legal.to_call > 0:
        return Action.fold()
    if roll < 0.4 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        short = lo < full_raise_to(pk)
        fixed = pk.betting_structure is BettingStructure.FIXED_LIMIT
        big_blind = pk.streets[0].min_completion_betting_or_raising_amount
        if short and not fixed and lo - legal.current_bet >= big_blind and rng.random() < 0.7:
            tally.short_all_in_raises += 1
            return Action.raise_to(lo)
        if short:
            tally.avoided_short_raises += 1
        else:
            to = rng.choice([lo, lo, hi, rng.randint(lo, hi)])
            return Action.raise_to(to)
    if roll < 0.03:
        return Action.fold()  # folding when a check is possible is allowed too
    return Action.call()


def pokerkit_only_turns(pk: State, hand: Hand, index: dict[int, int], tally: Tally) -> None:
    """Answer PokerKit's turns that our Hand does not give, where no decision can matter."""
    while pk.status and pk.actor_index is not None:
        ours = hand.to_act
        if ours is not None and index[ours] == pk.actor_index:
            return
        i = pk.actor_index
        others_able = [
            j for j in range(len(pk.stacks)) if j != i and pk.statuses[j] and pk.stacks[j] > 0
        ]
        assert pk.checking_or_calling_amount == 0 and not others_able, (
            f"PokerKit asks player {i + 1} to act, our Hand asks seat {ours}"
        )
        pk.check_or_call()
        tally.pokerkit_only_turns += 1


def feed_board(pk: State, hand: Hand, index: dict[int, int], events: Sequence[object],
               tally: Tally) -> None:
    for e in events:
        if isinstance(e, BoardDealt):
            pokerkit_only_turns(pk, hand, index, tally)
            if pk.can_burn_card("??"):
                pk.burn_card("??")
            pk.deal_board(pk_cards(e.cards))


def compare_legal(legal: LegalActions, pk: State) -> None:
    """Both engines offer the same call and the same bet/raise range."""
    assert legal.to_call == pk.checking_or_calling_amount
    can = legal.min_raise_to is not None
    assert can == pk.can_complete_bet_or_raise_to(), (legal, "PokerKit disagrees on raising")
    if can:
        assert legal.min_raise_to == pk.min_completion_betting_or_raising_to_amount
        assert legal.max_raise_to == pk.max_completion_betting_or_raising_to_amount


def play_both(
    rng: random.Random, config: GameConfig, players: int, tally: Tally
) -> tuple[Hand, Settlement, State]:
    """A random hand: random seats, deck and legal actions."""
    seats, button = random_seats(rng, config, players)
    hand = Hand(config, seats, button, Deck(rng=rng))
    return play_hand_both(hand, tally, lambda legal, pk: choose(rng, legal, pk, tally))


Chooser = Callable[[LegalActions, State], Action]


def play_hand_both(hand: Hand, tally: Tally, pick: Chooser) -> tuple[Hand, Settlement, State]:
    """Start ``hand`` and play it in both engines with the actions ``pick`` chooses; check
    the stacks against the rules (always) and PokerKit (where it follows them)."""
    config = hand.config
    events = hand.start()
    order = hand.seat_order
    index = {seat: i for i, seat in enumerate(order)}
    starting = [hand.starting_stacks[s] for s in order]
    pk = pokerkit_state(config, starting, straddle=hand.straddle_seat is not None)
    holes: list[tuple[Card, ...]] = [() for _ in order]
    for e in events:
        if isinstance(e, HoleCardsDealt):
            holes[index[e.seat]] = e.cards
            pk.deal_hole(pk_cards(e.cards), index[e.seat])
    feed_board(pk, hand, index, events, tally)
    while not hand.is_over:
        pokerkit_only_turns(pk, hand, index, tally)
        legal = hand.legal_actions()
        assert legal is not None
        assert pk.actor_index == index[legal.seat]
        compare_legal(legal, pk)
        action = pick(legal, pk)
        events = hand.act(legal.seat, action)
        act_on_pokerkit(pk, action)
        feed_board(pk, hand, index, events, tally)
    pokerkit_only_turns(pk, hand, index, tally)
    assert not pk.status, "PokerKit's hand is not over when ours is"

    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    ours = [dict(ended.stacks)[s] for s in order]
    contributions, live = contributions_and_live(pk, starting)
    board = tuple(hand.board)
    rules = settle_by_rules(contributions, live, holes, board, config.variant)
    expected = [starting[i] - contributions[i] + rules.awards[i] for i in range(len(order))]
    assert ours == expected, ("our settlement differs from RULES.md", ours, expected, rules)
    tally.hands += 1
    if any(p.all_in for p in hand.players):
        tally.all_in_hands += 1
    if len({contributions[i] for i in range(len(order)) if live[i]}) > 1 and sum(live) > 2:
        tally.multiway_pots += 1
    if not rules.pokerkit_differs:
        assert ours == list(pk.stacks), ("PokerKit differs", ours, list(pk.stacks))
        tally.direct += 1
    return hand, rules, pk


@pytest.mark.parametrize(
    ("variant_key", "structure", "hands"),
    GAMES,
    ids=[f"{v}-{s.letter}" for v, s, _ in GAMES],
)
def test_random_hands_match_pokerkit(variant_key: str, structure: Structure, hands: int) -> None:
    """Random hands end with the same stacks in our Hand, the rules and (mostly) PokerKit."""
    rng = random.Random(f"diff-{variant_key}-{structure.letter}")
    variant = VARIANTS[variant_key]
    tally = Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns on a fold when a check is possible
        for _ in range(DEEP or hands):
            big = rng.choice([2, 4, 10])
            ante = rng.choice([0, 0, 1])
            if structure is Structure.FIXED_LIMIT:
                config = GameConfig.fixed_limit(variant, big, ante)
            else:
                config = GameConfig(variant, structure, big // 2, big, ante)
            play_both(rng, config, rng.randint(2, variant.max_seats), tally)
    print(variant_key, structure.letter, tally)  # shown with pytest -s
    assert tally.hands == (DEEP or hands)
    assert tally.direct >= tally.hands // 2, tally
    if structure is not Structure.FIXED_LIMIT:
        assert tally.short_all_in_raises >= tally.hands // 50, tally
    assert tally.all_in_hands >= tally.hands // 10, tally


def test_phh_both_ways_with_pokerkit() -> None:
    """Random PLO hands: PokerKit's loader replays our PHH, and ours replays PokerKit's PHH."""
    from pokerkit import PotLimitOmahaHoldem

    rng = random.Random("loader")
    tally = Tally()
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(150):
            config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2)
            hand, rules, pk = play_both(rng, config, rng.randint(2, 9), tally)
            # PokerKit's writer, on the state it just played (the same game as PO).
            game = PotLimitOmahaHoldem(AUTOMATIONS, True, 0, (1, 2), 2, mode=Mode.CASH_GAME)
            compared += phh_both_ways(hand, rules, game, pk)
    assert compared >= 120


def act_on_pokerkit(pk: Any, action: Action) -> None:
    """Our action, played on PokerKit's state."""
    if action.kind.value == "fold":
        pk.fold()
    elif action.kind.value == "call":
        pk.check_or_call()
    else:
        assert action.amount is not None
        pk.complete_bet_or_raise_to(action.amount)


def contributions_and_live(pk: Any, starting: Sequence[int]) -> tuple[list[int], list[bool]]:
    """What each player put in PokerKit's finished hand (its stacks, plus what it pushed
    back), and who did not fold."""
    pushed = [0] * len(starting)
    for op in pk.operations:
        if isinstance(op, ChipsPushing):
            for i, amount in enumerate(op.amounts):
                pushed[i] += amount
    contributions = [starting[i] - pk.stacks[i] + pushed[i] for i in range(len(starting))]
    folded = {op.player_index for op in pk.operations if isinstance(op, Folding)}
    return contributions, [i not in folded for i in range(len(starting))]


def phh_both_ways(hand: Hand, rules: Settlement, game: Any, pk: Any) -> bool:
    """Our replay of PokerKit's PHH of ``pk`` (played as ``game``) ends on our stacks, and
    PokerKit's loader plays our PHH of ``hand`` to its end; True when the stacks were also
    compared (not where PokerKit's deviations, ``rules``, make them differ)."""
    from collections import deque

    from pokerkit import HandHistory

    from bot.engine import phh

    ours = phh.history_of(hand.events)
    theirs = HandHistory.from_game_state(game, pk).dumps()
    assert phh.replay(phh.loads(theirs)).finishing_stacks == ours.finishing_stacks
    state = deque(HandHistory.loads(phh.dumps(ours)), maxlen=1)[0]
    assert not state.status
    if rules.pokerkit_differs:
        return False
    assert tuple(state.stacks) == ours.finishing_stacks
    return True


def test_no_raise_when_nobody_could_call_it() -> None:
    """RULES.md 5, betting needs an answer: PokerKit and the rules refuse this raise."""
    config = GameConfig(VARIANTS["omaha"], Structure.NO_LIMIT, 1, 2)
    # Seat 3 (button) goes all-in for 50; the big blind has 20 in all: nobody could call a raise.
    seats = [SeatIn(1, 200), SeatIn(2, 20), SeatIn(3, 50)]
    hand = Hand(config, seats, 3, Deck(rng=random.Random(1)))
    hand.start()
    hand.act(3, Action.all_in())
    pk = pokerkit_state(config, [200, 20, 50])
    pk.deal_hole("AsKsQsJs", 0)
    pk.deal_hole("2c3c4c5c", 1)
    pk.deal_hole("AhKhQhJh", 2)
    pk.complete_bet_or_raise_to(50)
    assert not pk.can_complete_bet_or_raise_to()
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert legal.min_raise_to is None
