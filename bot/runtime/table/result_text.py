"""The result message of a hand, in the table's language: who won, what they showed.

A hand with one pot won whole names its winner with their cards, or calls a split a
split; the hands shown that won nothing follow::

    bob (3c 3d Ah Kd) wins 4 with three of a kind, threes
    alice (Ah Kh 2c 3d) and bob (As Ks 4c 5d) split 40 with flush, ace high
    carol shows Kc 9h 7s 5c: two pair, nines and fives

A hand of several pots, of halves (hi-lo) or of two boards (run twice) has instead one
line per player at its end, winners first, with their net for the hand (what they
collected minus what they put in) and what they showed: a line per pot share told
nobody what they made, and "wins 190" read as a win to a player who had put in 200::

    carol +140 · 7c 6d 2s 4h: flush, nine high; low 7-6-5-4-2
    bob −100 · 8h 7c Td Jc: two pair, eights and sevens; no low

Hand names read inside the sentence (:func:`bot.i18n.hands.in_sentence`). No discord.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Name, hands, listed, number, translate
from bot.i18n.cards import written
from bot.runtime.table.views import HandResultView, PotResultView, ShownHandView
from bot.runtime.table.wording import bounty_lines

MINUS = "\u2212"


def signed(locale: object, amount: int) -> str:
    """A net for the hand: ``+1,234``, ``−10`` (a minus sign), ``±0``."""
    if amount > 0:
        return "+" + number(locale, amount)
    return MINUS + number(locale, -amount) if amount < 0 else "±0"


def by_player(result: HandResultView) -> bool:
    """Whether ``result`` is told one line per player (several pots, halves or boards)."""
    return len(result.pots) > 1 or any(w.half for pot in result.pots for w in pot.winners)


def message_lines(locale: object, result: HandResultView) -> list[str]:
    """The result message's lines under its title, the 7-2 bounties last."""
    lines = _player_lines(locale, result) if by_player(result) else _pot_lines(locale, result)
    return lines + bounty_lines(locale, result)


def cards_text(shown: ShownHandView) -> str:
    """A shown hand's cards as players read them: ``K♠ 10♥ 7♦ 2♣``."""
    return written(shown.cards)


def shown_label(locale: object, first: ShownHandView, second: ShownHandView | None) -> str:
    """What a shown hand makes, as it reads in the sentence; run twice, on each board:
    "flush, king high (board 1); two pair, sixes and fives (board 2)"."""
    if second is None:
        return hands.in_sentence(locale, first.label)
    return on_boards(locale, (first.label, second.label))


def on_boards(locale: object, labels: Sequence[str]) -> str:
    """What a hand makes on each board: "flush, king high (board 1); two pair, sixes and
    fives (board 2)" (a board it makes nothing on yet is left out)."""
    return "; ".join(
        f"{hands.in_sentence(locale, label)} ({translate(locale, 'pot.board', number=str(k))})"
        for k, label in enumerate(labels, 1) if label)


def _pot_lines(locale: object, result: HandResultView) -> list[str]:
    """One pot won whole: the winner (or the players who split it) with their cards and
    the hand that won, then each hand shown that won nothing."""
    shown = {s.seat: s for s in result.shown}
    lines = [_pot_line(locale, pot, shown) for pot in result.pots if pot.winners]
    lines.extend(
        translate(locale, "result.shows", name=Name(s.name), cards=cards_text(s),
                  hand=shown_label(locale, s, None))
        for s in result.shown if s.label and not result.payouts.get(s.seat))
    return lines


def _pot_line(locale: object, pot: PotResultView, shown: dict[int, ShownHandView]) -> str:
    hands_of = {} if pot.uncontested else {w.seat: shown[w.seat] for w in pot.winners
                                           if w.seat in shown}
    who = [translate(locale, "result.holding", name=Name(w.name),
                     cards=cards_text(hands_of[w.seat])) if w.seat in hands_of else Name(w.name)
           for w in pot.winners]
    if len(who) == 1:
        line = translate(locale, "result.wins", name=who[0], amount=pot.amount)
    else:
        line = translate(locale, "result.split", names=listed(locale, who), amount=pot.amount)
    best = next((s.high for s in hands_of.values() if s.high is not None), None)
    if best is None:
        return line
    made = translate(locale, "result.with", hand=hands.in_sentence(locale, best.description))
    return f"{line} {made}"


def _player_lines(locale: object, result: HandResultView) -> list[str]:
    """A line per player who took a share or showed, the biggest net first."""
    first = {s.seat: s for s in result.shown}
    second = {s.seat: s for s in result.second_shown}
    names = {w.seat: w.name for pot in result.pots for w in pot.winners}
    names.update((s.seat, s.name) for s in result.shown)
    lines = []
    for seat in sorted(names, key=lambda s: (-result.net.get(s, 0), s)):
        net = signed(locale, result.net.get(seat, 0))
        hand = first.get(seat)
        if hand is None or not hand.label:
            lines.append(translate(locale, "result.net", name=Name(names[seat]), net=net))
            continue
        lines.append(translate(locale, "result.net_shows", name=Name(names[seat]), net=net,
                               cards=cards_text(hand),
                               hand=shown_label(locale, hand, second.get(seat))))
    return lines


__all__ = ["MINUS", "by_player", "cards_text", "message_lines", "on_boards", "shown_label",
           "signed"]
