"""A finished hand as the frames of its replay: the plan, as data, that the render draws.

:func:`replay_view` walks the rebuilt hand's own events (the engine's record,
:func:`bot.runtime.hand_history.rebuild`) once and keeps, frame by frame, what the
table showed: a frame after the deal (blinds and antes in front of the seats),
one per action (with its amount), one per board card dealt (each board of a hand
run twice), one per hand turned up and per run-it-twice answer, then one per pot
and half awarded, its winning cards lit (each winner's five: in Omaha two from the
hand and three from the board, in Texas Hold'em any five of seven) and the others
faded, and the table as it ended (:func:`final_table`, the picture of ``/hand show``).
Uncalled bets go back before the next frame. A long hand is squeezed to at most
:data:`~bot.runtime.replay_squeeze.MAX_FRAMES` frames (:mod:`bot.runtime.replay_squeeze`:
a betting war drawn as fewer frames that say how many actions and raises they hold).

What a frame shows of the hole cards: the reader's own from the deal on, beside the
caption (``ReplayFrame.own``; their seat keeps its cards face down like the others,
so its bets stay in sight; a seat of the hand, ``None`` for a railbird or a public
replay), another player's only from the moment the hand history shows it
(``HandShown``): a folded or mucked hand never. The last frame is ``/hand show``'s
picture (the reader's own cards at their seat). The pots are the engine's own rule
(:func:`bot.engine.pots.build_pots`, as the live table's
:mod:`~bot.runtime.table.snapshot`): the chips of past rounds in the pots, this
round's bets in front of the seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.events import (
    ActionKind,
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandShown,
    PlayerActed,
    RunTwiceVoted,
    Street,
)
from bot.engine.pots import build_pots
from bot.i18n import listed, resolve, translate
from bot.render import PotView, PotWinner, ReplayFrame, ReplayView, SeatStatus, SeatView, TableView
from bot.runtime.hand_history import PastHand, game_of, result_of, shared_cards, visible_holes
from bot.runtime.replay_squeeze import MAX_FRAMES, bounded
from bot.runtime.table import wording
from bot.runtime.table.hand_views import action_text
from bot.runtime.table.views import HandResultView, PotResultView

__all__ = ["HOLDS", "final_table", "replay_view"]

#: How long each kind of frame stays on screen (milliseconds): long enough to read its
#: caption and find the seat on a phone; a pot awarded and the end longer.
HOLDS = {"deal": 1800, "action": 1500, "board": 1700, "show": 1700, "vote": 1200,
         "award": 3200, "end": 5000}


@dataclass
class _Table:
    """The table as the events have left it so far (seat numbers as keys)."""

    past: PastHand
    names: Mapping[int, str]
    own: tuple[int, tuple[Card, ...]] | None  # the reader's seat and cards (None: a railbird)
    lang: str
    stacks: dict[int, int] = field(default_factory=dict)
    bets: dict[int, int] = field(default_factory=dict)
    committed: dict[int, int] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    blinds: dict[int, str] = field(default_factory=dict)
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    boards: tuple[list[Card], list[Card]] = field(default_factory=lambda: ([], []))
    twice: bool = False  # the second board is on the table (run it twice, agreed)
    street: Street = Street.PREFLOP

    def __post_init__(self) -> None:
        for seat, stack in self.past.hand.starting_stacks.items():
            self.stacks[seat], self.bets[seat], self.committed[seat] = stack, 0, 0

    def put_in(self, seat: int, amount: int, bet: bool = True) -> None:
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if bet:
            self.bets[seat] += amount

    def collect(self) -> None:
        """The round's bets go into the pots (a new street is dealt)."""
        for seat in self.bets:
            self.bets[seat] = 0
        self.blinds.clear()

    def pots(self) -> tuple[PotView, ...]:
        """The pots in the middle without this round's bets (the live table's rule)."""
        order = self.past.hand.seat_order
        raw = build_pots([self.committed[s] - self.bets[s] for s in order],
                         [s not in self.folded for s in order],
                         [s in self.all_in and self.bets[s] == 0 for s in order])
        return tuple(PotView(p.amount) for p in raw if p.amount > 0)

    def seats(self, won: Mapping[int, int] | None = None) -> tuple[SeatView, ...]:
        over = won is not None
        return tuple(
            SeatView(seat=p.seat, name=self.names[p.seat],
                     stack=self.stacks[p.seat] + (won or {}).get(p.seat, 0),
                     bet=0 if over else self.bets[p.seat], status=self._status(p.seat),
                     blind="" if over else self.blinds.get(p.seat, ""),
                     cards=0 if p.seat in self.folded else len(p.hole),
                     shown=self.face_up(p.seat))
            for p in self.past.hand.players
        )

    def _status(self, seat: int) -> SeatStatus:
        if seat in self.folded:
            return SeatStatus.FOLDED
        return SeatStatus.ALL_IN if seat in self.all_in else SeatStatus.ACTIVE

    def face_up(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards face up: once shown (the reader's own are beside the caption)."""
        return self.shown.get(seat, ())

    def view(self, pots: tuple[PotView, ...] | None = None, won: Mapping[int, int] | None = None,
             lit: tuple[Card, ...] = ()) -> TableView:
        past, lang = self.past, self.lang
        return TableView(
            table_name=wording.table_name(lang, past.table_id), hand_number=past.number,
            max_seats=past.config.seats, seats=self.seats(won), board=tuple(self.boards[0]),
            second_board=tuple(self.boards[1]) if self.twice else (),
            pots=self.pots() if pots is None else pots, button=past.hand.button,
            game=game_of(past, lang), street=self.street.value, locale=lang,
            lit=lit)

    def frame(self, kind: str, caption: str, actor: int = 0) -> ReplayFrame:
        return ReplayFrame(self.view(), caption, HOLDS[kind], kind, actor, self.hole())

    def hole(self) -> tuple[Card, ...]:
        """The reader's own cards (none for a railbird)."""
        return self.own[1] if self.own is not None else ()


def _board_caption(table: _Table, e: BoardDealt) -> str:
    """"Flop: Ah Kd 2c"; run twice, "Turn (board 2): ..."."""
    lang = table.lang
    title = translate(lang, "render.board" if e.street is Street.PREFLOP
                      else f"street.{e.street.value}")
    if table.twice:
        title += f" ({translate(lang, 'pot.board', number=str(e.run + 1))})"
    return translate(lang, "replay.dealt", street=title,
                     cards=" ".join(map(str, table.boards[e.run])))


def _twice_from(events: tuple[Event, ...], second: tuple[Card, ...]) -> int | None:
    """The index of the first board dealt after the players agreed to run it twice."""
    if not second:
        return None
    votes = [i for i, e in enumerate(events) if isinstance(e, RunTwiceVoted)]
    start = votes[-1] if votes else 0
    return next(i for i, e in enumerate(events) if i > start and isinstance(e, BoardDealt))


def _posted(table: _Table, e: AntePosted | BlindPosted) -> None:
    if isinstance(e, AntePosted):
        table.put_in(e.seat, e.amount, bet=False)
    else:
        table.put_in(e.seat, e.amount)
        table.blinds[e.seat] = {"small": "SB", "straddle": "STR"}.get(e.blind, "BB")
    if e.all_in:
        table.all_in.add(e.seat)


def _acted(table: _Table, e: PlayerActed) -> ReplayFrame:
    table.put_in(e.seat, e.amount)
    if e.kind is ActionKind.FOLD:
        table.folded.add(e.seat)
    if e.all_in:
        table.all_in.add(e.seat)
    name = table.names[e.seat]
    _, kind, amount = action_text(name, e)
    return table.frame("action", wording.acted(table.lang, name, kind, amount, e.all_in,
                                               drawn=True), e.seat)


def _dealt(table: _Table, e: BoardDealt, twice: bool) -> ReplayFrame:
    hand = table.past.hand
    if twice:
        table.twice = True
        table.boards[1][:] = hand.second_board[:shared_cards(hand)]
    if e.street is not Street.PREFLOP:  # Courchevel's first card comes before the betting
        table.collect()
    table.street = e.street
    table.boards[e.run].extend(e.cards)
    return table.frame("board", _board_caption(table, e))


def _play(table: _Table) -> list[ReplayFrame]:
    """Every frame before the pots are awarded."""
    hand, lang, names = table.past.hand, table.lang, table.names
    events = hand.events
    twice_at = _twice_from(events, hand.second_board)
    frames: list[ReplayFrame] = []
    votes: list[RunTwiceVoted] = []
    for i, e in enumerate(events):
        if not frames and isinstance(e, PlayerActed | BoardDealt | RunTwiceVoted | HandShown):
            frames.append(table.frame("deal", translate(lang, "replay.deal",
                                                        name=names[hand.button])))
        if isinstance(e, AntePosted | BlindPosted):
            _posted(table, e)
        elif isinstance(e, PlayerActed):
            frames.append(_acted(table, e))
        elif isinstance(e, BetReturned):
            table.put_in(e.seat, -e.amount)
            table.all_in.discard(e.seat)
        elif isinstance(e, BoardDealt):
            frames.append(_dealt(table, e, i == twice_at))
        elif isinstance(e, HandShown):
            table.shown[e.seat] = e.cards
            frames.append(table.frame("show", translate(
                lang, "history.shows", name=names[e.seat], cards=" ".join(map(str, e.cards))),
                e.seat))
        elif isinstance(e, RunTwiceVoted):
            votes = [*(votes if frames[-1].kind == "vote" else []), e]
            if frames[-1].kind == "vote":
                frames.pop()
            frames.append(table.frame("vote", _votes_caption(table, votes)))
    return frames


def _votes_caption(table: _Table, votes: list[RunTwiceVoted]) -> str:
    """The answers to the run-it-twice question so far, in one caption."""
    once = next((v for v in votes if not v.agree), None)
    if once is not None:
        return translate(table.lang, "history.run_once", name=table.names[once.seat])
    return translate(table.lang, "replay.run_twice",
                     names=listed(table.lang, [table.names[v.seat] for v in votes]))


@dataclass(frozen=True)
class _Share:
    """One pot's high or low half (or the whole pot): its winners and its lines."""

    pot: int  # index in the result's pots
    winners: tuple[int, ...]  # indexes in the pot's winners
    lines: tuple[str, ...]


def _shares(result: HandResultView, lines: list[str]) -> list[_Share]:
    """The result's pots cut into the halves awarded one after the other, with their
    lines (``wording.result_lines`` gives one line per winner, in the same order)."""
    shares: list[_Share] = []
    k = 0
    for i, pot in enumerate(result.pots):
        for half in dict.fromkeys(w.half or "high" for w in pot.winners):
            idx = tuple(j for j, w in enumerate(pot.winners) if (w.half or "high") == half)
            shares.append(_Share(i, idx, tuple(lines[k:k + len(idx)])))
            k += len(idx)
    return shares


def _lit(result: HandResultView, pot: PotResultView, share: _Share) -> tuple[Card, ...]:
    """The cards that win ``share``: each winner's five (as the game makes a hand) on the
    pot's board; none for a pot nobody contested."""
    if pot.uncontested:
        return ()
    shown = {s.seat: s for s in (result.second_shown if pot.board == 2 else result.shown)}
    cards: list[Card] = []
    for j in share.winners:
        w = pot.winners[j]
        hand = shown.get(w.seat)
        made = None if hand is None else (hand.low if w.half == "low" else hand.high)
        cards.extend(c for c in (made.cards if made else ()) if c not in cards)
    return tuple(cards)


def _steps(result: HandResultView, lines: list[str]) -> list[tuple[list[_Share], tuple[Card, ...]]]:
    """The awards one frame each, board by board, the high halves (or whole pots) before
    the low ones: neighbouring shares taken by the same players with the same cards (the
    side pots after the main pot) share a frame."""
    steps: list[tuple[list[_Share], tuple[Card, ...]]] = []
    key: object = None

    def order(share: _Share) -> tuple[int, bool]:
        pot = result.pots[share.pot]
        return pot.board, pot.winners[share.winners[0]].half == "low"

    for share in sorted(_shares(result, lines), key=order):
        pot = result.pots[share.pot]
        lit = _lit(result, pot, share)
        seats = tuple(pot.winners[j].seat for j in share.winners)
        if steps and (seats, lit, pot.board) == key:
            steps[-1][0].append(share)
        else:
            steps.append(([share], lit))
        key = (seats, lit, pot.board)
    return steps


def _awards(table: _Table) -> list[ReplayFrame]:
    """A frame per pot and half as it is awarded (see :func:`_steps`), its winning cards
    lit."""
    result = result_of(table.past, table.names)
    many = len({p.label for p in result.pots}) > 1
    given: dict[int, list[PotWinner]] = {}
    won: dict[int, int] = {}
    frames = []
    for shares, lit in _steps(result, wording.result_lines(table.lang, result, drawn=True)):
        for share in shares:
            pot = result.pots[share.pot]
            for j in share.winners:
                w = pot.winners[j]
                given.setdefault(share.pot, []).append(PotWinner(w.name, w.amount, w.half,
                                                                 w.seat))
                won[w.seat] = won.get(w.seat, 0) + w.amount
        pots = tuple(PotView(p.amount, wording.pot_title(table.lang, p, many),
                             winners=tuple(given.get(i, ())))
                     for i, p in enumerate(result.pots))
        lines = [line for share in shares for line in share.lines]
        caption = lines[0]  # a split (a board that plays) or more pots: the first winner's line
        if len(lines) > 1:  # the seats say the whole of it, the table lists pots and winners
            caption += " " + translate(table.lang, "pot.more", count=len(lines) - 1)
        frames.append(ReplayFrame(table.view(pots, dict(won), lit), caption, HOLDS["award"],
                                  "award", own=table.hole()))
    return frames


def _end_caption(past: PastHand, names: Mapping[int, str], lang: str) -> str:
    """The last frame's caption: how the hand ended and who won what, every pot and half
    a winner took added up (``"Showdown · alice wins 120 and bob wins 40"``), so the
    picture the animation stops on still names the winners."""
    won: dict[int, tuple[str, int]] = {}
    for pot in result_of(past, names).pots:
        for w in pot.winners:
            won[w.seat] = (w.name, won.get(w.seat, ("", 0))[1] + w.amount)
    end = translate(lang, "street.showdown" if past.hand.result.shown else "street.hand_ended")
    if not won:
        return end
    return f"{end} · " + listed(lang, [translate(lang, "result.wins", name=name, amount=amount)
                                       for name, amount in won.values()])


def final_table(
    past: PastHand, names: Mapping[int, str], viewer: int | None, locale: object = "en"
) -> TableView:
    """The table as the hand ended, with only the hole cards ``viewer`` may see, its words
    in ``locale`` (the reader's): ``/hand show``'s picture and a replay's last frame."""
    lang = resolve(locale)
    hand, holes = past.hand, visible_holes(past, viewer)
    seats = tuple(
        SeatView(
            seat=p.seat, name=names[p.seat], stack=p.stack,
            status=SeatStatus.FOLDED if p.folded else SeatStatus.ACTIVE,
            cards=0 if p.folded else len(p.hole), shown=holes.get(p.seat, ()),
        )
        for p in hand.players
    )
    result = result_of(past, names)
    many = len({p.label for p in result.pots}) > 1
    pots = tuple(
        PotView(p.amount, wording.pot_title(lang, p, many),
                winners=tuple(PotWinner(w.name, w.amount, w.half, seat=w.seat)
                              for w in p.winners))
        for p in result.pots
    )
    return TableView(
        table_name=wording.table_name(lang, past.table_id), hand_number=past.number,
        max_seats=past.config.seats, seats=seats, board=hand.board,
        second_board=hand.second_board, pots=pots,
        button=hand.button, game=game_of(past, lang), street="Showdown",
        locale=lang,
    )


def replay_view(
    past: PastHand, names: Mapping[int, str], viewer: int | None, locale: object = "en",
    limit: int = MAX_FRAMES,
) -> ReplayView:
    """The hand's replay as ``viewer`` (a seat, or ``None``: only the hands shown down) may
    see it, its words in ``locale``, in at most ``limit`` frames."""
    lang = resolve(locale)
    own = (viewer, past.hand.hole(viewer)) if viewer is not None and viewer in past.users \
        else None
    table = _Table(past, names, own, lang)
    frames = _play(table) + _awards(table)
    frames.append(ReplayFrame(final_table(past, names, viewer, lang),
                              _end_caption(past, names, lang), HOLDS["end"], "end"))
    raises = iter([e.kind is ActionKind.RAISE for e in past.hand.events
                   if isinstance(e, PlayerActed)])
    raised = [f.kind == "action" and next(raises) for f in frames]
    return ReplayView(bounded(frames, raised, lang, limit))
