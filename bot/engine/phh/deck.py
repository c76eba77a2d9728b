"""Rebuilding the deck a recorded hand was dealt from.

PHH stores the cards dealt, not the deck. :func:`collect_cards` gathers
every card a history deals or shows (and refuses a card dealt twice),
:func:`fill_unknown_holes` gives hole cards written ``??`` the weakest
unused cards (:func:`weak_filler`), and :func:`deck_order` puts the cards
where the :class:`~bot.engine.hand.Hand` deals them, filling burns and
anything never dealt with cards that appear nowhere in the history.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine.cards import DECK, Card
from bot.engine.evaluate import high_value, low_value
from bot.engine.hand import deal_positions
from bot.engine.phh.actions import (
    BoardDeal,
    HoleDeal,
    PHHAction,
    PlayerAction,
    Show,
    action_error,
    label,
)
from bot.engine.phh.records import HandError
from bot.engine.variants import Variant

__all__ = [
    "DealtCards",
    "collect_cards",
    "deck_order",
    "fill_unknown_holes",
    "weak_filler",
]


@dataclass
class DealtCards:
    """The cards a history deals, by player (PHH order), on the board, and shown."""

    holes: list[list[Card | None]]
    board: list[Card] = field(default_factory=list)
    #: The cards each player shows (``pN sm CARDS``), in the order first shown.
    shown: dict[int, tuple[Card | None, ...]] = field(default_factory=dict)
    #: Every known card dealt or taken from a show, to keep the fillers apart.
    seen: set[Card] = field(default_factory=set)
    #: The second run's own cards (a board run twice), and the cards both boards share;
    #: or board 2 of a double board (``double``).
    board2: tuple[Card, ...] = ()
    shared: int | None = None
    double: bool = False

    def add_second_run(self, cards: tuple[Card, ...], shared: int | None) -> None:
        """Take the second run's cards (``shared`` None: a double board's board 2);
        :class:`HandError` on a card dealt before."""
        if any(c in self.seen for c in cards) or len(set(cards)) != len(cards):
            raise HandError("a card of the second board was already dealt")
        self.board2, self.shared, self.double = cards, shared, shared is None
        self.seen.update(cards)


def collect_cards(
    actions: Sequence[str], parsed: Sequence[PHHAction | None], variant: Variant, players: int
) -> DealtCards:
    """Every card the history deals or shows; :class:`HandError` on a card dealt twice,
    a player who is not there, or too many hole or board cards."""
    dealt = DealtCards([[] for _ in range(players)])
    for number, (text, action) in enumerate(zip(actions, parsed, strict=True), 1):
        reason = _take_cards(dealt, action, variant, players)
        if reason:
            raise action_error(number, text, action, reason)
    _take_shown_hands(dealt, variant)
    return dealt


def _take_cards(
    dealt: DealtCards, action: PHHAction | None, variant: Variant, players: int
) -> str | None:
    """Record the cards of one action; the reason it is refused, or ``None``."""
    cards: tuple[Card | None, ...] = ()
    if isinstance(action, HoleDeal | Show) and action.player >= players:
        return f"there is no player {label(action.player)}"
    if isinstance(action, HoleDeal):
        dealt.holes[action.player].extend(action.cards)
        if len(dealt.holes[action.player]) > variant.hole_cards:
            return f"{variant.name} deals {variant.hole_cards} hole cards per player"
        cards = action.cards
    elif isinstance(action, BoardDeal):
        dealt.board.extend(action.cards)
        if len(dealt.board) > 5:
            return "the board has only 5 cards"
        cards = action.cards
    elif isinstance(action, Show) and action.cards is not None:
        dealt.shown[action.player] = action.cards
    for c in cards:
        if c is not None and c in dealt.seen:
            return "a card is dealt that was already dealt"
        if c is not None:
            dealt.seen.add(c)
    return None


def _take_shown_hands(dealt: DealtCards, variant: Variant) -> None:
    """Check each shown hand against the hole cards dealt; a whole hand shown by a player
    whose hole cards were (partly) unknown becomes their hole cards."""
    for p, cards_shown in dealt.shown.items():
        if len(cards_shown) != variant.hole_cards:
            raise HandError(f"{label(p)} shows {len(cards_shown)} cards, not their whole hand")
        dealt_known = {c for c in dealt.holes[p] if c is not None}
        shown_known = {c for c in cards_shown if c is not None}
        complete = len(dealt_known) == variant.hole_cards
        fully_shown = len(shown_known) == variant.hole_cards
        if (complete and not shown_known <= dealt_known) or (
            fully_shown and not dealt_known <= shown_known
        ):
            raise HandError(f"{label(p)} shows cards they were not dealt")
        if not complete and fully_shown:
            if (shown_known - dealt_known) & dealt.seen:
                raise HandError(f"{label(p)} shows a card that was dealt elsewhere")
            dealt.seen.update(shown_known)
            dealt.holes[p] = list(cards_shown)


def fill_unknown_holes(
    dealt: DealtCards, parsed: Sequence[PHHAction | None], variant: Variant, attempt: int = 0,
    pots: Sequence[frozenset[int]] = (),
) -> set[int]:
    """Give every player with unknown hole cards the weakest unused ones; return those players.

    The players who never fold are filled first, so the weakest cards go to the showdowns.
    ``attempt`` > 0 searches from another order of the unused cards (:func:`weak_filler`),
    the players who reach the showdown taking their turn from another one. ``pots``: the
    players eligible for each pot (betting alone decides them), when known: an unknown hand
    must then lose every pot it is in, so it is measured against the best known hand of
    each of them (a side pot's winner can be weaker than the main pot's); without them,
    against the best known hand of all.
    """
    holes = dealt.holes
    unknown = {
        p for p in range(len(holes)) if len(holes[p]) < variant.hole_cards or None in holes[p]
    }
    folds = {a.player for a in parsed if isinstance(a, PlayerAction) and a.kind == "f"}
    boards = [b for b in (dealt.board, dealt.board2 if dealt.double else ()) if b]
    contenders = [p for p in range(len(holes)) if p not in unknown | folds]
    everyone = _bars([holes[p] for p in contenders], boards, variant)
    order = sorted(unknown, key=lambda p: (p in folds, p))  # the weakest to showdowns
    shown = [p for p in order if p not in folds]
    if attempt and shown:  # another attempt: another showdown hand chooses first
        k = attempt % len(shown)
        order = shown[k:] + shown[:k] + order[len(shown):]
    for p in order:
        rivals = [[holes[q] for q in contenders if q in pot] for pot in pots if p in pot]
        bars = _weakest([_bars(r, boards, variant) for r in rivals if r]) or everyone
        holes[p] = weak_filler(holes[p], variant, boards, dealt.seen, bars, attempt)
        dealt.seen.update(c for c in holes[p] if c is not None)
    return unknown


def deck_order(
    variant: Variant,
    deal_order: Sequence[int],
    holes: Sequence[Sequence[Card | None]],
    board: Sequence[Card],
    known: Iterable[Card],
    board2: Sequence[Card] = (),
    shared: int | None = None,
    double: bool = False,
) -> list[Card]:
    """The deck order that makes :class:`~bot.engine.hand.Hand` deal these cards.

    ``holes`` are in PHH player order; ``deal_order`` lists the players in
    the order the Hand deals to them. The places come from
    :func:`~bot.engine.hand.deal_positions` (the Hand's own dealing plan);
    burns, unknown hole cards and board cards never dealt are filled with
    cards that appear nowhere in the history, so they cannot collide. ``board2``:
    the second run's own cards of a board run twice after ``shared`` cards, or board 2
    of a ``double`` board.
    """
    used = set(known)
    filler = iter([c for c in DECK if c not in used])
    plan = deal_positions(len(deal_order), variant, shared, double=double)
    slots: dict[int, Card] = {}
    for k, p in enumerate(deal_order):
        for idx, c in zip(plan[f"hole:{k}"], holes[p], strict=False):
            if c is not None:
                slots[idx] = c
    for idx, c in zip(plan["board"], board, strict=False):
        slots[idx] = c
    for idx, c in zip(plan.get("board2", ()), board2, strict=False):
        slots[idx] = c
    return [slots[i] if i in slots else next(filler) for i in range(len(DECK))]


# ---------------------------------------------------------------------------
# The weakest hand for unknown hole cards

_Hole = list[Card | None]


#: The best known hand on each board: its high value and its low (None: no low known).
Bar = tuple[int | None, int | None]


def _bars(known: Sequence[Sequence[Card | None]], boards: Sequence[Sequence[Card]],
          variant: Variant) -> list[Bar]:
    """On each board the best high and low among the hands known to reach the end."""
    hands = [[c for c in h if c is not None] for h in known]
    bars: list[Bar] = []
    for board in boards:
        if len(board) < 3:
            bars.append((None, None))
            continue
        highs = [high_value(h, board, variant.rule) for h in hands]
        lows = [v for h in hands if (v := low_value(h, board)) is not None] if variant.hi_lo \
            else []
        bars.append((max(highs, default=None), max(lows, default=None)))
    return bars


def _weakest(per_pot: Sequence[Sequence[Bar]]) -> list[Bar]:
    """On each board the lowest of the pots' bars: a hand under it loses every one of those
    pots (a pot where nobody known has a low: no low at all)."""
    if not per_pot:
        return []
    bars: list[Bar] = []
    for board in zip(*per_pot, strict=True):
        highs = [h for h, _ in board if h is not None]
        lows = [low for _, low in board]
        bars.append((min(highs, default=None),
                     None if None in lows else min(v for v in lows if v is not None)))
    return bars


def weak_filler(
    dealt: Sequence[Card | None], variant: Variant, boards: Sequence[Sequence[Card]],
    used: set[Card], bars: Sequence[Bar] = (), attempt: int = 0,
) -> _Hole:
    """Fill a hand's unknown cards with unused cards that make as weak a hand as possible.

    A player whose cards are unknown and who reaches a showdown has mucked
    (or lost): they won nothing. If the weakest cards we can give them still
    win nothing on the recorded board, the replay settles exactly as the real
    hand did; :func:`~bot.engine.phh.replay` checks that afterwards. The search
    starts from low ranks (and, in hi-lo, also from nines to kings, which make
    no low), then swaps single cards while the hand gets weaker, and keeps the weakest
    result. Weaker means, in order: beating or tying the best known hand (``bars``) on
    fewer boards, high or low; no low, else the worst lows; the lowest highs, the stronger
    board's first. ``boards``: the board, and a double board's board 2. ``attempt`` > 0:
    the unused cards in another order (a seeded shuffle), so the search may end at another
    weak hand; from :data:`SAMPLED_FROM` on, a random filling that loses is taken first.
    """
    hole = list(dealt) + [None] * (variant.hole_cards - len(dealt))
    slots = [i for i, c in enumerate(hole) if c is None]
    spare = [c for c in DECK if c not in used]
    if attempt:
        random.Random(attempt).shuffle(spare)
    board_ranks = {c.rank for b in boards for c in b}
    ascending = sorted(spare, key=lambda c: (c.rank in board_ranks, c.rank == 14, c.rank))
    starts = [_first_guess(hole, slots, ascending)]
    if variant.hi_lo:
        no_low = sorted(spare, key=lambda c: (c.rank in board_ranks, c.rank < 9))
        starts.append(_first_guess(hole, slots, no_low))
    if not boards or len(boards[0]) < 3:
        return starts[0]

    def strength(cards: _Hole) -> _Strength:
        known = [c for c in cards if c is not None]
        made = [_strength(known, b, variant) for b in boards]
        beats = sum(_beats(low, high, bar) for (low, high), bar in zip(made, bars, strict=False))
        return (beats, tuple(sorted((low for low, _ in made), reverse=True)),
                tuple(sorted((high for _, high in made), reverse=True)))

    if attempt >= SAMPLED_FROM:  # the weakest cards may be what a later hand needs
        rng = random.Random(f"{attempt}/{len(used)}")
        for _ in range(SAMPLES):
            trial = hole.copy()
            for i, c in zip(slots, rng.sample(spare, len(slots)), strict=True):
                trial[i] = c
            if strength(trial)[0] == 0:
                return trial
    results = [_weaken(start, slots, spare, strength) for start in starts]
    return min(results, key=lambda r: r[0])[1]


#: From this attempt on, :func:`weak_filler` first draws fillings at random until one loses
#: everywhere (at most :data:`SAMPLES`): taking the weakest cards for the first hands can
#: leave only winning ones (pairs that fill up on the board) for the last, while the real,
#: losing hands show that random ones usually lose.
SAMPLED_FROM = 6
SAMPLES = 200


#: How strong a filled hand is: on how many boards (high, low) it beats or ties the best
#: known hand, its lows (-1 for none) and its highs, each board's, the strongest first; a
#: weaker hand compares lower.
_Strength = tuple[int, tuple[int, ...], tuple[int, ...]]


def _beats(low: int, high: int, bar: Bar) -> int:
    """How many halves (high, low) a hand making ``high`` and ``low`` (-1: none) could win
    or tie against the best known hand ``bar`` on that board."""
    best_high, best_low = bar
    wins = best_high is not None and high >= best_high
    return int(wins) + int(low != -1 and (best_low is None or low >= best_low))


def _strength(hole: Sequence[Card], board: Sequence[Card], variant: Variant) -> tuple[int, int]:
    """How strong ``hole`` is on ``board``: its low (hi-lo; -1 for none, so no low is the
    weakest), then its high."""
    low = low_value(hole, board) if variant.hi_lo else None
    return (-1 if low is None else low), high_value(hole, board, variant.rule)


def _first_guess(hole: _Hole, slots: Sequence[int], order: Sequence[Card]) -> _Hole:
    """``hole`` with its empty ``slots`` filled from ``order``, distinct ranks first."""
    picked: list[Card] = []
    for c in order:
        if len(picked) < len(slots) and all(c.rank != q.rank for q in picked):
            picked.append(c)
    for c in order:  # not enough distinct ranks: allow pairs
        if len(picked) < len(slots) and c not in picked:
            picked.append(c)
    out = hole.copy()
    for i, c in zip(slots, picked, strict=True):
        out[i] = c
    return out


def _weaken(
    hole: _Hole,
    slots: Sequence[int],
    spare: Sequence[Card],
    strength: Callable[[_Hole], _Strength],
) -> tuple[_Strength, _Hole]:
    """Swap single cards into ``slots`` while the hand gets weaker; the weakest found."""
    best = strength(hole)
    improved = True
    while improved:
        improved = False
        for i in slots:
            for c in spare:
                if c in hole:
                    continue
                trial = hole.copy()
                trial[i] = c
                score = strength(trial)
                if score < best:
                    hole, best, improved = trial, score, True
    return best, hole
