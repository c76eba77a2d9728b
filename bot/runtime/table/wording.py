"""A table's public words in its language: title, actions and results.

The runtime words what happens in English (``ActionView.text``,
``HandResultView.lines``) for logs and tests; the channel words it again here,
in the table's language, from the same structured views (kind, amount, pots,
winners and shown hands). In English both wordings are the same text
(``tests/runtime/table/test_wording.py`` checks it). No discord.py here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from bot.engine.events import ActionKind
from bot.engine.variants import structure_name
from bot.i18n import CHOICE, Name, escaped, hands, listed, number, translate, translate_text
from bot.i18n.cards import written
from bot.runtime import bomb_pots
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableError
from bot.runtime.mix import Mix, Mode, named, upcoming
from bot.runtime.table.views import (
    ActionView,
    BountyView,
    HandResultView,
    PotResultView,
    ShownHandView,
)

_ACTIONS = {
    ActionKind.FOLD: "action.fold",
    ActionKind.CHECK: "action.check",
    ActionKind.CALL: "action.call",
    ActionKind.BET: "action.bet",
    ActionKind.RAISE: "action.raise",
}


def _choice(locale: object, english: str) -> str:
    return translate_text(locale, CHOICE, english) or english


def title(locale: object, config: TableConfig) -> str:
    """``"Pot Limit Omaha 1/2"``; ``"Omaha Pot Limit 1/2"`` in Portuguese."""
    if config.ante:
        stakes = translate(locale, "table.stakes_ante", small=config.small_blind,
                           big=config.big_blind, ante=config.ante)
    else:
        stakes = f"{config.small_blind}/{config.big_blind}"
    return translate(locale, "table.title", game=_choice(locale, config.variant.name),
                     structure=_choice(locale, structure_name(config.structure)),
                     stakes=stakes)


def options(locale: object, config: TableConfig) -> list[str]:
    """The home-game options the table plays (RULES.md 10), in ``locale``: ``"straddle
    allowed"``, ``"7-2 bounty: 5 big blinds"``, ``"rabbit hunt"``, ``"showing cards"`` (none:
    an empty list; bomb pots: ``"a bomb pot every 10 hands (ante 4)"``), for a settings
    line or the picture's game line."""
    out = [translate(locale, "table.option_straddle")] if config.straddle else []
    if config.seven_deuce:
        out.append(translate(locale, "option.seven_deuce", count=config.seven_deuce))
    if config.rabbit_hunt:
        out.append(translate(locale, "option.rabbit_hunt"))
    if config.showing:
        out.append(translate(locale, "option.showing"))
    if bomb_pots.on(config):
        out.append(_bomb_pots(locale, config))
    return out


def _bomb_pots(locale: object, config: TableConfig) -> str:
    """``"a bomb pot every 10 hands (ante 4, two boards)"``, ``"bomb pots when all agree
    (ante 4)"`` (:mod:`bot.runtime.bomb_pots`)."""
    bomb = bomb_pots.bomb_of(config)
    boards = translate(locale, "table.bomb_pot.two_boards") if bomb.double_board else ""
    if config.bomb_pot_every:
        return translate(locale, "table.settings_bomb_pots", count=config.bomb_pot_every,
                         ante=bomb.ante, boards=boards)
    return translate(locale, "table.settings_bomb_proposed", ante=bomb.ante, boards=boards)


def games(locale: object, mix: Mix) -> str:
    """A mixed table's list and mode: ``Games: No Limit Texas Hold'em, Pot Limit Omaha and
    Fixed Limit Omaha Hi-Lo · rotation, 6 hands each`` (RULES.md 11)."""
    how = (translate(locale, "table.mix.rotation", count=mix.every)
           if mix.mode is Mode.ROTATION else translate(locale, "table.mix.choice"))
    return translate(locale, "table.mix", games=listed(locale, map(named, mix.games)), how=how)


def next_game(locale: object, mix: Mix, hand_no: int) -> str:
    """What a mixed table deals after hand ``hand_no``: ``next: Pot Limit Omaha in 3
    hands``, ``next hand: Pot Limit Omaha``, ``next: dealer's choice``."""
    coming = upcoming(mix, hand_no)
    if coming is None:
        return translate(locale, "mix.next_choice")
    game, count = coming
    if count == 1:
        return translate(locale, "mix.next_hand", game=named(game))
    return translate(locale, "mix.next_in", game=named(game), count=count)
def hand_game(locale: object, config: TableConfig, bomb_ante: int, double_board: bool) -> str:
    """The game of a hand: :func:`title`, and for a bomb pot ``"... · bomb pot"``
    (``"... · double-board bomb pot"``)."""
    game = title(locale, config)
    if not bomb_ante:
        return game
    key = "table.game_bomb_pot_double" if double_board else "table.game_bomb_pot"
    return translate(locale, key, game=game)


def stored_title(locale: object, settings: Mapping[str, object], variant: str) -> str:
    """:func:`title` of a stored hand's table, from its settings when the hand was played
    (their stored ``variant_key``, else ``variant``, when they no longer make a table)."""
    try:
        return title(locale, TableConfig.from_dict(dict(settings)))
    except (TableError, TypeError, KeyError):
        return str(settings.get("variant_key", variant))


def table_name(locale: object, table_id: int) -> str:
    return translate(locale, "table.name", number=str(table_id))


def _who(name: str, drawn: bool) -> str | Name:
    """A player's name for a message (escaped, :class:`Name`) or a picture (as written)."""
    return name if drawn else Name(name)


def acted(locale: object, name: str, kind: ActionKind, amount: int | None,
          all_in: bool = False, *, drawn: bool = False) -> str:
    """``"alice raises to 12"``, ``"bob iguala 1.000 e está all-in"`` (no note); ``drawn``:
    for a picture (the name as written, not escaped for Discord's markdown)."""
    key = _ACTIONS[kind] + ("_all_in" if all_in and kind in (
        ActionKind.CALL, ActionKind.BET, ActionKind.RAISE) else "")
    return translate(locale, key, name=_who(name, drawn), amount=amount or 0)


def action(locale: object, act: ActionView) -> str:
    """``"alice raises to 12"`` with who decided (``" (time ran out)"``)."""
    text = acted(locale, act.name, act.kind, act.amount, act.all_in)
    note = act.source.note
    if note:
        text += translate(locale, "source." + act.source.value.replace("-", "_"))
    return text


def _made(locale: object, shown: ShownHandView | None, low: bool) -> str:
    if shown is None:
        return ""
    if low:  # the line says "low" already: the cards alone
        return hands.low_cards(shown.low.description) if shown.low else ""
    if shown.high is None:
        return ""
    return hands.in_sentence(locale, shown.high.description)


def pot_where(locale: object, pot: PotResultView, many: bool) -> str:
    """``"main pot"``, ``"side pot 2"`` (lower case), or "" for a hand's only pot."""
    if not many:
        return ""
    label = pot.label.lower()
    if label.startswith("side pot "):
        text = translate(locale, "pot.side", number=label.removeprefix("side pot "))
    else:
        text = translate(locale, "pot.main")
    return text.lower()


def board_where(locale: object, pot: PotResultView, where: str) -> str:
    """A hand run twice: ``"main pot, board 2"`` or ``"board 1"``; else ``where``."""
    if not pot.board:
        return where
    board = translate(locale, "pot.board", number=str(pot.board))
    return f"{where}, {board}" if where else board


def pot_title(locale: object, pot: PotResultView, many: bool) -> str:
    """A pot's label for a picture; run twice, with its board: "Main pot, board 2"."""
    if not pot.board:
        return pot.label
    text = board_where(locale, pot, pot_where(locale, pot, many))
    return text[:1].upper() + text[1:]


def _pots(
    locale: object, result: HandResultView
) -> Iterator[tuple[PotResultView, str, Mapping[int, ShownHandView]]]:
    """Each pot with where it is said to be (``"main pot, board 2"``) and the hands shown
    on its board, by seat."""
    boards = ({s.seat: s for s in result.shown}, {s.seat: s for s in result.second_shown})
    many = len({pot.label for pot in result.pots}) > 1
    for pot in result.pots:
        where = board_where(locale, pot, pot_where(locale, pot, many))
        yield pot, where, boards[1] if pot.board == 2 else boards[0]


def result_lines(locale: object, result: HandResultView, *, drawn: bool = False) -> list[str]:
    """``"alice wins 40 high with a flush, ace high (main pot)"``, one line a share
    (run twice: ``"... (main pot, board 2)"``, the hand as it plays on that board);
    ``drawn``: for a picture (names as written)."""
    lines = []
    for pot, where, shown in _pots(locale, result):
        split = any(w.half for w in pot.winners)
        for w in pot.winners:
            bits = [translate(locale, "result.wins", name=_who(w.name, drawn),
                              amount=w.amount)]
            if split:
                bits.append(translate(locale, f"half.{w.half or 'high'}"))
            what = "" if pot.uncontested else _made(locale, shown.get(w.seat), w.half == "low")
            if what:
                bits.append(translate(locale, "result.with", hand=what))
            if where:
                bits.append(f"({where})")
            lines.append(" ".join(bits))
    return lines + bounty_lines(locale, result, drawn=drawn)


def bounty_lines(locale: object, result: HandResultView, *, drawn: bool = False) -> list[str]:
    """``"alice collects the 7-2 bounty: 20 (bob 10, cy 10)"``, one line a bounty (``"alice
    shows 7c 2d and collects ..."`` when the bot showed the 7-2)."""
    return [_bounty_line(locale, b, drawn) for b in result.bounties]


def _bounty_line(locale: object, b: BountyView, drawn: bool) -> str:
    key = "result.bounty" + ("" if b.payers else "_none") + ("_shows" if b.shown else "")
    payers = ", ".join(f"{name if drawn else escaped(name)} {number(locale, chips)}"
                       for name, chips in b.payers)
    return translate(locale, key, name=_who(b.name, drawn), amount=b.amount, payers=payers,
                     cards=written(b.shown))


__all__ = ["acted", "action", "board_where", "bounty_lines", "games", "hand_game", "next_game",
           "options", "pot_title", "pot_where", "result_lines", "stored_title", "table_name",
           "title"]
