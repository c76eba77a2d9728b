"""Hand histories in PHH, the open Poker Hand History format (TOML).

Reading uses :mod:`tomllib` (the plain subset our own writer produces goes
through a small exact fast path first); writing is done by hand so that the
output is deterministic (same hand, same bytes) and readable by PokerKit's
loader too. API: :func:`loads`, :func:`loads_all`, :func:`load_path`,
:func:`dumps`, :func:`dumps_all`, :func:`history_of` (a finished hand's
events to a record), :func:`replay` (a record to a finished :class:`Hand`),
:func:`setup_of` and :func:`parse_action`.
A ``.phh`` file holds one hand; a ``.phhs`` file holds several, each in a
table named ``[1]``, ``[2]``, ... (:func:`load_path` tells them apart by
content, not by the file name).

Conventions (``../shared/DESIGN.md``, as PokerKit writes them):

- ``variant`` is the structure letter (``P`` pot limit, ``N`` no limit,
  ``F`` fixed limit), ``O`` for Omaha and ``/8`` for hi-lo: ``PO``, ``NO``,
  ``FO``, ``PO/8``, ``NO/8``, ``FO/8``. Five- and six-card Omaha and
  Courchevel are the user fields ``_hole_cards = 5`` and ``_courchevel = true``.
  Texas Hold'em is ``T``: ``NT`` and ``FT`` are the PHH specification's codes
  (PokerKit loads them), ``PT`` is ours by the same pattern (PokerKit 0.7.7
  knows no pot-limit Hold'em code, as it knows no ``NO``).
  Fixed limit carries ``small_bet`` and ``big_bet`` (= 2 x small bet), the
  others ``min_bet`` (= the big blind).
- Player 1 is the seat after the button (the small blind; heads-up the big
  blind), the last player is the button. ``antes``, ``blinds_or_straddles``,
  ``starting_stacks`` and ``finishing_stacks`` are listed in that order.
  Heads-up ``blinds_or_straddles = [small, big]`` still means that p1 (the big
  blind) posts the big one and p2 (the button) the small one. A big blind
  entry for a player after p2 is a live big blind posted out of position by a
  newcomer (our reading; PokerKit would take it for a straddle). When the
  small blind's seat is such a newcomer it posts the big blind: its entry is
  the big blind and the user field ``_small_blind`` keeps the game's small
  blind. Twice the big blind for p3 (under the gun, 3 or more players) is a
  straddle (RULES.md 10), as PokerKit reads it; other straddles are not
  played here.
- ``d dh pN CARDS`` deals all of a player's hole cards at once (several
  partial deals are accepted when reading), ``d db CARDS`` deals board cards
  (Courchevel's first board card is a ``d db`` right after the hole cards),
  ``pN f`` / ``pN cc`` / ``pN cbr AMOUNT`` (raise *to*), ``pN sm CARDS``
  shows a hand (after the river, or right after an all-in closes the betting,
  before the rest of the board). ``# comments`` after an action are ignored.
  A check by a player whose decision cannot matter (nobody else in the hand
  has chips to answer a bet), which PokerKit writes where it asks for one, is
  accepted and changes nothing.
- ``ante_trimming_status`` carries nothing for our rules: it is read and
  ignored, and never written.

Replaying (:func:`replay`): the deck order is rebuilt from the cards the
history deals (hole cards, board) at the places the Hand deals them
(:func:`bot.engine.hand.deal_positions`); burns and anything never dealt are
filled with cards that appear nowhere in the history, so they cannot collide.
Unknown hole cards (``??``, as in the mucked hands of published histories)
are filled the same way. That is exact as long as those cards never matter:
the player folds, or everyone else does. When a player with unknown cards
reaches a showdown their cards would decide the pots, so the hand is an
error, unless a ``pN sm`` action shows the whole hand, whose cards are then
used. The weakest filling aims below the best known hand on each board (both
boards of a double board); when it still wins, other fillings are tried
(:data:`~bot.engine.phh.replaying.FILL_TRIES`) before the hand is an error. A
``pN sm`` with cards asks the Hand to show that hand (the bot would
otherwise muck a hand that cannot win); a bare ``pN sm`` (muck) changes
nothing, since the bot already mucks every hand that cannot win and always
shows one that wins or ties.

Errors: :class:`PHHError` means the text cannot be read as PHH at all (bad
TOML, a required field missing or of the wrong type). Everything that only
makes one hand unplayable (an unknown variant, amounts in fractions of a
chip, an action that cannot be read or breaks the rules, a card dealt twice,
actions that stop before the end of the hand) is a :class:`HandError`
raised when that hand is replayed, so a ``.phhs`` file with one bad hand still
replays the others.

The package, module by module: :mod:`~bot.engine.phh.records` (the record and
the errors), :mod:`~bot.engine.phh.toml_text` (the TOML subset read and
written), :mod:`~bot.engine.phh.reading` and :mod:`~bot.engine.phh.writing`
(text to records and back), :mod:`~bot.engine.phh.actions` (one action
line), :mod:`~bot.engine.phh.game_setup` (a record's game, seats and
button), :mod:`~bot.engine.phh.deck` (the deck a record was dealt from),
:mod:`~bot.engine.phh.replaying` (:func:`replay`) and
:mod:`~bot.engine.phh.history` (:func:`history_of`).
"""

from __future__ import annotations

from bot.engine.phh.actions import (
    BoardDeal,
    HoleDeal,
    PHHAction,
    PlayerAction,
    Show,
    format_cards,
    parse_action,
)
from bot.engine.phh.game_setup import Setup, setup_of
from bot.engine.phh.history import history_of
from bot.engine.phh.reading import load_path, loads, loads_all
from bot.engine.phh.records import HandError, HandHistory, PHHError
from bot.engine.phh.records import TomlValue as TomlValue
from bot.engine.phh.replaying import Replay, replay
from bot.engine.phh.writing import dumps, dumps_all

__all__ = [
    "BoardDeal",
    "HandError",
    "HandHistory",
    "HoleDeal",
    "PHHAction",
    "PHHError",
    "PlayerAction",
    "Replay",
    "Setup",
    "Show",
    "dumps",
    "dumps_all",
    "format_cards",
    "history_of",
    "load_path",
    "loads",
    "loads_all",
    "parse_action",
    "replay",
    "setup_of",
]
