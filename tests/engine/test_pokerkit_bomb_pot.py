"""Bomb pots against PokerKit 0.7.7 (RULES.md 10), on one board and on two.

PokerKit can express a bomb pot: antes for everyone, blinds of zero, and a game whose
first street deals the hole cards *and* the flop before its betting opens, so there is
no preflop round (then the turn and the river, each with a burn); ``starting_board_count
= 2`` deals each street on two boards and halves every pot between them (odd chip to
board 1). Random bomb pots are played by our Hand and by such a ``pokerkit.State`` side
by side, as ``tests/engine/test_pokerkit_diff.py`` plays ordinary hands: before every
action both agree on who acts, what a call costs and the bet range (pot limit: the antes
are the pot), and at the end our stacks equal an independent settlement by RULES.md 6
and 10 (each pot halved between the boards, each half by section 6) always, and
PokerKit's own stacks wherever its known settlement deviations (DEVELOPERS.md) cannot
touch the hand. The generated hands avoid the betting situations PokerKit gets wrong,
with the same chooser as the ordinary differential test.

PHH: our record of a bomb pot (``antes``, zero blinds, ``_bomb_pot``, ``_double_board``)
replays in ours to the recorded stacks; PokerKit's loader reads it too (it answers the
preflop round it expects with checks) and reaches the same stacks on one board (when
nobody is all-in on the ante: its loader trims no ante), and on two boards settles on
board 1 only (it has no field for a second board), as with a hand run twice.
"""

from __future__ import annotations

import random
import warnings
from collections import deque
from collections.abc import Sequence

import pytest

from bot.engine import phh
from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Card, Deck
from bot.engine.events import AntePosted, BoardDealt, HandEnded, HoleCardsDealt, Street
from bot.engine.hand import VARIANTS, GameConfig, Hand, SeatIn, Structure, Variant
from tests.engine.test_pokerkit_diff import (
    AUTOMATIONS,
    PK_STRUCTURES,
    Card_,
    MemoLow,
    Tally,
    act_on_pokerkit,
    choose,
    compare_legal,
    contributions_and_live,
    high_type,
    pk_cards,
    pokerkit_only_turns,
    split,
)

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import HandHistory, Mode, Opening, State  # noqa: E402
from pokerkit import Street as PKStreet  # noqa: E402

GAMES = [
    ("omaha", Structure.POT_LIMIT),
    ("omaha_hilo", Structure.POT_LIMIT),
    ("omaha_hilo", Structure.FIXED_LIMIT),
    ("omaha", Structure.NO_LIMIT),
    ("big_o", Structure.POT_LIMIT),
    ("courchevel", Structure.POT_LIMIT),
    ("holdem", Structure.NO_LIMIT),
]
HANDS = 80  # per game and board count (1,120 in all, about 20 s on one core)


def bomb_state(config: GameConfig, ante: int, stacks: Sequence[int], boards: int) -> State:
    """A bomb pot as a ``pokerkit.State``: antes, no blinds, the flop dealt with the hole
    cards before the first betting round; ``boards`` boards."""
    variant = config.variant
    bb = config.big_blind
    fixed = config.structure is Structure.FIXED_LIMIT
    caps = 4 if fixed else None
    streets = (
        PKStreet(False, (False,) * variant.hole_cards, 3, False, Opening.POSITION, bb, caps),
        PKStreet(True, (), 1, False, Opening.POSITION, 2 * bb if fixed else bb, caps),
        PKStreet(True, (), 1, False, Opening.POSITION, 2 * bb if fixed else bb, caps),
    )
    hand_types = (high_type(variant), MemoLow) if variant.hi_lo else (high_type(variant),)
    n = len(stacks)
    return State(AUTOMATIONS, pokerkit.Deck.STANDARD, hand_types, streets,
                 PK_STRUCTURES[config.structure], True, (ante,) * n, (0,) * n, 0,
                 tuple(stacks), n, mode=Mode.CASH_GAME, starting_board_count=boards)


def settle(contributions: Sequence[int], live: Sequence[bool], holes: Sequence[Sequence[Card]],
           boards: Sequence[Sequence[Card]], variant: Variant) -> tuple[list[int], bool]:
    """Award every pot by RULES.md 6 and 10, halved between ``boards`` (odd chip to board 1),
    ranking hands with PokerKit's evaluators; and whether PokerKit's own settlement may
    differ (a split with odd chips, a hi-lo pot without a low among its players while
    someone has one, several pots with odd chips)."""
    n = len(contributions)
    awards = [0] * n
    alive = [i for i in range(n) if live[i]]
    if len(alive) == 1:
        awards[alive[0]] = sum(contributions)
        return awards, False
    ranked = []
    for board in boards:
        text = Card_(pk_cards(board))
        high = {i: high_type(variant).from_game(Card_(pk_cards(holes[i])), text) for i in alive}
        low = {}
        for i in alive if variant.hi_lo else ():
            try:
                low[i] = MemoLow.from_game(Card_(pk_cards(holes[i])), text)
            except ValueError:
                pass  # no qualifying low
        ranked.append((high, low))
    differs = False
    levels = sorted({contributions[i] for i in alive})
    previous = odd = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = [i for i in alive if contributions[i] >= level]
        previous = level
        odd += amount % (2 * len(boards))
        for k, (high, low) in enumerate(ranked):
            share = amount - amount // 2 if len(boards) == 2 and k == 0 else (
                amount // 2 if len(boards) == 2 else amount)
            best = max(high[i] for i in eligible)
            winners = [i for i in eligible if high[i] == best]
            lows = [i for i in eligible if i in low]
            if lows:
                best_low = max(low[i] for i in lows)
                uneven = split(share - share // 2, winners, awards)
                differs |= split(share // 2, [i for i in lows if low[i] == best_low], awards)
                differs |= uneven
            else:
                differs |= bool(low)  # PokerKit splits by whether anyone has a low
                differs |= split(share, winners, awards)
    differs |= bool(odd) and len(levels) > 1
    return awards, differs


def play_both(rng: random.Random, config: GameConfig, bomb: BombPot, players: int,
              tally: Tally) -> tuple[Hand, bool]:
    """A random bomb pot played by both engines; the stacks checked at the end. Returns the
    hand and whether PokerKit's settlement may differ from the rules' in it."""
    numbers = sorted(rng.sample(range(1, 11), players))
    short = (bomb.ante - 1, bomb.ante + 1)  # all-in on the ante, or just after it
    deep = (10 * config.big_blind, 40 * config.big_blind, 200 * config.big_blind)
    stacks = [rng.choice(short if rng.random() < 0.2 else deep) for _ in numbers]
    seats = [SeatIn(s, max(1, st)) for s, st in zip(numbers, stacks, strict=True)]
    hand = Hand(config, seats, rng.choice(numbers), Deck(rng=rng), bomb)
    events = hand.start()
    order = hand.seat_order
    index = {seat: i for i, seat in enumerate(order)}
    starting = [hand.starting_stacks[s] for s in order]
    boards = len(hand.boards) if hand.double_board else 1
    pk = bomb_state(config, bomb.ante, starting, 2 if hand.double_board else 1)
    holes: list[tuple[Card, ...]] = [() for _ in order]
    for e in events:
        if isinstance(e, HoleCardsDealt):
            holes[index[e.seat]] = e.cards
            pk.deal_hole(pk_cards(e.cards), index[e.seat])
    feed(pk, hand, index, events, tally)
    while not hand.is_over:
        pokerkit_only_turns(pk, hand, index, tally)
        legal = hand.legal_actions()
        assert legal is not None
        assert pk.actor_index == index[legal.seat]
        compare_legal(legal, pk)
        action = choose(rng, legal, pk, tally)
        events = hand.act(legal.seat, action)
        act_on_pokerkit(pk, action)
        feed(pk, hand, index, events, tally)
    pokerkit_only_turns(pk, hand, index, tally)
    assert not pk.status, "PokerKit's hand is not over when ours is"
    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    ours = [dict(ended.stacks)[s] for s in order]
    contributions, live = contributions_and_live(pk, starting)
    played = hand.boards if boards == 2 else (hand.board,)
    awards, differs = settle(contributions, live, holes, played, config.variant)
    expected = [starting[i] - contributions[i] + awards[i] for i in range(len(order))]
    assert ours == expected, ("our settlement differs from RULES.md", ours, expected)
    tally.hands += 1
    tally.all_in_hands += any(p.all_in for p in hand.players)
    if not differs:
        assert ours == list(pk.stacks), ("PokerKit differs", ours, list(pk.stacks))
        tally.direct += 1
    return hand, differs


def feed(pk: State, hand: Hand, index: dict[int, int], events: Sequence[object],
         tally: Tally) -> None:
    """Our board cards into PokerKit, board 1 then board 2 on each street (its burns are
    unknown cards). Courchevel's face-up first card goes in with the rest of its flop:
    PokerKit deals the whole flop on its first street."""
    first: dict[int, tuple[Card, ...]] = {}
    for e in events:
        if isinstance(e, BoardDealt):
            if e.street is Street.PREFLOP:
                first[e.run] = e.cards
                continue
            pokerkit_only_turns(pk, hand, index, tally)
            if pk.can_burn_card("??"):
                pk.burn_card("??")
            pk.deal_board(pk_cards(first.pop(e.run, ()) + e.cards))


@pytest.mark.parametrize("double", [False, True], ids=["one-board", "double-board"])
@pytest.mark.parametrize(("variant_key", "structure"), GAMES,
                         ids=[f"{v}-{s.letter}" for v, s in GAMES])
def test_bomb_pots_match_pokerkit(variant_key: str, structure: Structure, double: bool) -> None:
    """Random bomb pots: the same turns, calls and bet ranges in both engines, and the same
    stacks as the rules (always) and PokerKit (where it follows them)."""
    rng = random.Random(f"bomb-{variant_key}-{structure.letter}-{double}")
    variant = VARIANTS[variant_key]
    tally = Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns on a fold when a check is possible
        for _ in range(HANDS):
            big = rng.choice([2, 4, 10])
            if structure is Structure.FIXED_LIMIT:
                config = GameConfig.fixed_limit(variant, big)
            else:
                config = GameConfig(variant, structure, big // 2, big)
            bomb = BombPot(big * rng.choice([1, 2, 5]), double)
            play_both(rng, config, bomb, rng.randint(2, variant.max_seats), tally)
    print(variant_key, structure.letter, double, tally)  # shown with pytest -s
    assert tally.hands == HANDS
    assert tally.direct >= tally.hands // 4, tally
    assert tally.all_in_hands >= tally.hands // 10, tally


@pytest.mark.parametrize("double", [False, True])
def test_phh_of_a_bomb_pot(double: bool) -> None:
    """Our PHH of random bomb pots replays to the recorded stacks in ours; PokerKit's loader
    reads it, to the same stacks on one board (where its settlement follows the rules and
    nobody is all-in on the ante: the record says nothing of PokerKit's "ante trimming"),
    and on two boards to board 1's settlement alone."""
    rng = random.Random(f"bomb-phh-{double}")
    tally = Tally()
    compared = lost = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(60):
            config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2)
            hand, differs = play_both(rng, config, BombPot(rng.choice([2, 4]), double),
                                      rng.randint(2, 9), tally)
            record = phh.history_of(hand.events)
            text = phh.dumps(record)
            assert "_bomb_pot = true" in text and "blinds_or_straddles = [0, 0" in text
            assert ("_double_board" in text) == hand.double_board
            assert phh.replay(phh.loads(text)).finishing_stacks == record.finishing_stacks
            state = deque(HandHistory.loads(text), maxlen=1)[0]
            assert not state.status
            short = any(isinstance(e, AntePosted) and e.all_in for e in hand.events)
            if not double and not differs and not short:  # its loader trims no ante
                assert tuple(state.stacks) == record.finishing_stacks
                compared += 1
            lost += tuple(state.stacks) != record.finishing_stacks
    assert compared >= 20 if not double else lost >= 20
