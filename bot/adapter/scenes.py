"""What the channel shows of a table: message texts and picture views, from snapshots.

Pure functions (no Discord request, no rendering): :mod:`bot.adapter.channel` sends
what they build and :mod:`bot.adapter.presenter` feeds them. Nothing here reads a
hidden card: the views come from :class:`~bot.runtime.table.views.TableSnapshot`
(shown hands only) or from a player's own :class:`PrivateCards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.adapter.limits import fit_message
from bot.engine.cards import Card
from bot.engine.equity import Equity
from bot.i18n import Command, escaped, listed, translate
from bot.render import (
    HoleCardsView,
    PotResult,
    PotView,
    PotWinner,
    ResultRow,
    ResultsView,
    SeatStatus,
    SeatView,
    ShowdownHand,
    ShowdownView,
    TableView,
)
from bot.runtime.hearing import STORAGE
from bot.runtime.mix import named
from bot.runtime.table import result_text, wording
from bot.runtime.table.events import RunTwiceAsked, TournamentOver
from bot.runtime.table.views import (
    HandResultView,
    PotResultView,
    PrivateCards,
    SeatSnapshot,
    TableSnapshot,
    TurnView,
)

#: How many recent actions the live message lists (the whole hand is in the result's log).
LIVE_LINES = 6


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def table_link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def language(snap: TableSnapshot) -> str:
    """The table's language: its public messages and pictures."""
    return snap.config.language


def game_line(snap: TableSnapshot, locale: str | None = None) -> str:
    """The table's game and stakes in ``locale`` (default the table's language); a bomb
    pot says so (``"Pot Limit Omaha 1/2 · bomb pot"``)."""
    return wording.hand_game(locale or language(snap), snap.config, snap.bomb_ante,
                             snap.double_board)


def results_view(event: TournamentOver, names: Sequence[str]) -> ResultsView:
    """A tournament's results picture in its tables' language, ``names`` in the order of
    ``event.places``. Its game line names the tournament's game and last stakes, or a
    rotation's list of games (RULES.md 11), not the game its last hand dealt."""
    lang = language(event.table)
    game = (listed(lang, map(named, event.games)) if len(event.games) > 1
            else game_line(event.table))
    rows = tuple(ResultRow(place, name, prize)
                 for (place, _, prize), name in zip(event.places, names, strict=True))
    subtitle = translate(
        lang, "results.subtitle", game=game,
        players=translate(lang, "players.count", count=len(rows)),
        pool=translate(lang, "chips.count", count=event.pool),
        how=translate(lang, "results.cancelled" if event.cancelled else "results.final"))
    return ResultsView(translate(lang, "results.title", number=str(event.tournament_id)),
                       subtitle, rows, locale=lang)


def game_now(snap: TableSnapshot) -> str:
    """The game dealt now and stakes; at a mixed table what comes next too (RULES.md 11):
    ``No Limit Texas Hold'em 1/2 · next: Pot Limit Omaha in 3 hands``."""
    line, mix = game_line(snap), snap.config.mix
    if mix is None:
        return line
    return f"{line} · {wording.next_game(language(snap), mix, snap.hand_no)}"


@dataclass
class Live:
    """What the live message of a hand should show now (the presenter keeps it current)."""

    snap: TableSnapshot
    log: list[str] = field(default_factory=list)
    turn: TurnView | None = None
    deadline: float | None = None  # epoch seconds when the decision clock runs out
    note: str = ""  # a transient line (time bank), dropped when the turn changes
    dm_closed: frozenset[int] = frozenset()
    board: tuple[Card, ...] = ()  # the board as last told (a run-out is shown street by street)
    second_board: tuple[Card, ...] = ()  # a hand run twice: the second board as last told
    run_out: bool = False  # an all-in run-out is being shown
    question: RunTwiceAsked | None = None  # the players are asked whether to run it twice
    version: int = 0

    @property
    def hand_no(self) -> int:
        return self.snap.hand_no


def header(snap: TableSnapshot, street: str = "") -> str:
    lang = language(snap)
    street = street or (translate(lang, f"street.{snap.street.value}") if snap.street else "")
    parts = [translate(lang, "table.hand", number=str(snap.hand_no)), game_now(snap)]
    if street:
        parts.append(street)
    if snap.pot:
        parts.append(translate(lang, "table.pot", amount=snap.pot))
    return " · ".join(parts)


def turn_line(live: Live) -> str:
    turn = live.turn
    if turn is None:
        return ""
    lang = language(live.snap)
    seat = live.snap.at(turn.seat)
    all_in = seat is not None and 0 < seat.stack <= turn.to_call
    if turn.can_check:
        need = translate(lang, "turn.check")
    else:
        need = translate(lang, "turn.call_all_in" if all_in else "turn.call", amount=turn.to_call)
    # Discord words <t:…:R> in each reader's own language
    when = ""
    if live.deadline:
        when = translate(lang, "turn.clock", when=f"<t:{int(live.deadline)}:R>")
    bank = (translate(lang, "turn.bank", seconds=int(turn.time_bank))
            if turn.time_bank >= 1 else "")
    text = translate(lang, "turn.line", player=mention(turn.user_id), need=need, clock=when,
                     bank=bank)
    if turn.user_id in live.dm_closed:
        text += translate(lang, "turn.dm_closed", button=translate(lang, "button.my_seat"),
                          cards=Command("cards"))
    return text


def in_time_bank(turn: TurnView, bank: float, now: float) -> dict[str, Any]:
    """The live message's changes once the time bank of ``turn`` (as shown) starts
    (RULES.md 8): the deadline moves to the bank's end (``now`` + ``bank``, epoch
    seconds), the turn line no longer adds the bank to come, the picture's clock keeps
    its length."""
    banking = replace(turn, clock=turn.clock + turn.time_bank, time_bank=0.0)
    return {"turn": banking, "deadline": now + bank}


def waited_note(snap: TableSnapshot, waited: str) -> str:
    """The line above a turn (or the run-it-twice question) told again once the bot hears
    Discord again, or can write again, its clock having waited (RULES.md 8: ``waited``
    says why, ``bot.runtime.hearing.STORAGE`` or ``GATEWAY``); "" otherwise."""
    if not waited:
        return ""
    return translate(language(snap), "turn.waited_storage" if waited == STORAGE
                     else "turn.waited")


def live_token(live: Live) -> str | None:
    """The token of what the live message's buttons answer: the turn, or the question."""
    if live.turn is not None:
        return live.turn.token
    return live.question.token if live.question is not None else None


def question_line(live: Live) -> str:
    """The run-it-twice question, mentioning the players asked."""
    asked = live.question
    if asked is None:
        return ""
    when = f"<t:{int(live.deadline)}:R>" if live.deadline else ""
    players = " ".join(mention(u) for u in asked.users.values())
    return translate(language(live.snap), "run_twice.ask", players=players, when=when)


def live_pings(live: Live) -> frozenset[int]:
    """Whom the live message notifies: the player to act, or the players asked a question."""
    if live.turn is not None:
        return frozenset({live.turn.user_id})
    return frozenset(live.question.users.values()) if live.question is not None else frozenset()


def live_content(live: Live) -> str:
    lines = [header(live.snap)]
    lines.extend(f"> {line}" for line in live.log[-LIVE_LINES:])
    for extra in (live.note, turn_line(live), question_line(live)):
        if extra:
            lines.append(extra)
    return fit_message(lines, locale=language(live.snap))


def _status(s: SeatSnapshot) -> SeatStatus:
    if not s.dealt_in:
        return SeatStatus.SITTING_OUT if s.sitting_out else SeatStatus.WAITING
    if s.folded:
        return SeatStatus.FOLDED
    return SeatStatus.ALL_IN if s.all_in else SeatStatus.ACTIVE


def _blind(snap: TableSnapshot, s: SeatSnapshot) -> str:
    if not s.dealt_in or snap.street is None or snap.street.value == "showdown":
        return ""
    if s.seat == snap.small_blind:
        return "SB"
    if s.seat == snap.straddle:
        return "STR"
    return "BB" if s.seat == snap.big_blind else ""


def _net(s: SeatSnapshot, result: HandResultView | None) -> int | None:
    """After the hand, the net of a seat that played it to the end or won a share (a
    folded seat keeps its "Folded")."""
    if result is None or not (result.payouts.get(s.seat) or (s.dealt_in and not s.folded)):
        return None
    return result.net.get(s.seat)


def _seats(snap: TableSnapshot, result: HandResultView | None) -> tuple[SeatView, ...]:
    hole_n, over = snap.config.variant.hole_cards, result is not None
    return tuple(
        SeatView(
            seat=s.seat,
            name=s.name,
            stack=s.stack,
            bet=0 if over else s.bet,
            status=_status(s),
            blind="" if over else _blind(snap, s),
            cards=hole_n if s.dealt_in and not s.folded else 0,
            shown=s.shown,
            net=_net(s, result),
        )
        for s in snap.seats
    )


def board_label(lang: str, pot: PotResultView, many: bool) -> str:
    """A pot's label; run twice, with its board: "Main pot, board 2", "Board 1"."""
    return wording.pot_title(lang, pot, many)


def _won_pots(pots: Sequence[PotResultView], lang: str = "en") -> tuple[PotView, ...]:
    many = len({p.label for p in pots}) > 1
    return tuple(
        PotView(
            p.amount,
            board_label(lang, p, many),
            winners=tuple(PotWinner(w.name, w.amount, w.half, seat=w.seat) for w in p.winners),
        )
        for p in pots
    )


def table_view(
    live: Live,
    *,
    board: tuple[Card, ...] | None = None,
    result: HandResultView | None = None,
    note: str = "",
    second_board: tuple[Card, ...] | None = None,
) -> TableView:
    """The table picture: the live hand, a run-out stage (``board``, and ``second_board``
    of a hand run twice), or the hand over."""
    snap, turn = live.snap, live.turn
    clock_total = turn.clock + turn.time_bank if turn else None
    if result is not None:
        pots = _won_pots(result.pots, language(snap))
    else:
        pots = tuple(PotView(p.amount) for p in snap.collected if p.amount > 0)
    return TableView(
        table_name=wording.table_name(language(snap), snap.table_id),
        hand_number=snap.hand_no,
        max_seats=snap.config.seats,
        seats=_seats(snap, result),
        board=snap.board if board is None else board,
        second_board=snap.second_board if second_board is None else second_board,
        pots=pots,
        button=snap.button,
        to_act=turn.seat if turn else None,
        clock=clock_total,
        clock_total=clock_total,
        game=" · ".join([game_now(snap), *wording.options(language(snap), snap.config)]),
        street=(snap.street.capitalize() if snap.street else ""),
        note=note,
        locale=language(snap),
    )


def result_content(snap: TableSnapshot, result: HandResultView) -> str:
    """The hand's result: its title (and, posted after a restart, a line saying so), then
    who won and what was shown (:func:`bot.runtime.table.result_text.message_lines`).
    Every hand shown is in the showdown picture; the whole log is behind the Hand log
    button."""
    lang = language(snap)
    lines = [translate(lang, "result.title", number=str(result.hand_no), game=game_line(snap))]
    if result.after_restart:
        lines.append(translate(lang, "result.after_restart"))
    lines.extend(result_text.message_lines(lang, result))
    return fit_message(lines, locale=lang)


def showdown_view(snap: TableSnapshot, result: HandResultView) -> ShowdownView:
    """The showdown picture's view: every hand shown with its best fives (on both boards of
    a double board), and each pot (each board's share of it) with who took it."""
    second = {s.seat: s for s in result.second_shown}
    shown_hands = tuple(
        ShowdownHand(
            name=shown.name,
            hole=shown.cards,
            high=shown.high,
            low=shown.low,
            won=result.payouts.get(shown.seat, 0),
            seat=shown.seat,
            second_high=second[shown.seat].high if shown.seat in second else None,
            second_low=second[shown.seat].low if shown.seat in second else None,
            net=result.net.get(shown.seat),
        )
        for shown in result.shown
    )
    lang, many = language(snap), len({p.label for p in result.pots}) > 1
    pots = tuple(
        PotResult(
            label=board_label(lang, p, many),
            amount=p.amount,
            winners=tuple(PotWinner(w.name, w.amount, w.half, seat=w.seat) for w in p.winners),
        )
        for p in result.pots
    )
    return ShowdownView(
        table_name=wording.table_name(lang, snap.table_id),
        hand_number=result.hand_no,
        board=result.board,
        second_board=result.second_board,
        hands=shown_hands,
        pots=pots,
        hi_lo=snap.config.variant.hi_lo,
        game=game_line(snap),
        locale=language(snap),
    )


def hole_cards_view(
    snap: TableSnapshot, cards: PrivateCards, locale: str | None = None
) -> HoleCardsView:
    """The private picture of a player's cards (by DM, or for them only in the channel),
    in the player's ``locale`` (default the table's language)."""
    lang = locale or language(snap)
    return HoleCardsView(
        table_name=wording.table_name(lang, snap.table_id),
        hand_number=snap.hand_no,
        cards=cards.cards,
        board=cards.board,
        label=cards.label,
        game=game_line(snap, lang),
        locale=lang,
        second_board=cards.second_board,
        second_label=cards.second_label,
    )


def equity_line(
    names: Sequence[str], result: Equity, hi_lo: bool, *, chances: bool = True,
    locale: str = "en",
) -> str:
    """``Equity: alice 62% · bob 38%``; in hi-lo each hand's expected share of the pot and,
    with ``chances``, how often it scoops and how often it takes part of the pot:
    ``Share of the pot: alice 55% (scoop 30%, split 40%) · …``. Names are escaped."""

    def pct(x: float) -> str:
        return f"{round(100 * x)}%"

    parts = []
    for i, name in enumerate(names):
        part = f"{escaped(name)} {pct(result.shares[i])}"
        if hi_lo and chances:
            part += " " + translate(locale, "equity.chances", scoop=pct(result.scoop[i]),
                                    split=pct(result.split[i]))
        parts.append(part)
    return translate(locale, "equity.share" if hi_lo else "equity.equity", list=" · ".join(parts))
