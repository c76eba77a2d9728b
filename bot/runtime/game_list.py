"""A list of games as players type it: ``NLHE, PLO, O8 limit`` (RULES.md 11).

The grammar (case, spaces, hyphens, dots, slashes, apostrophes and accents do not
matter)::

    list  = game { ("," | ";" | "+") game }
    game  = [structure] name [structure]       (one structure at most)

structure (default: the game's usual one, RULES.md 2)::

    no limit   NL, no limit, sin límite, sem limite
    pot limit  PL, pot limit, límite de bote, pozo límite, limite do pote
    fixed      L, FL, limit, fixed limit, límite fijo, con límite, limite fixo,
               limite fisso

name (its usual structure in brackets)::

    Texas Hold'em   HE, H, Hold'em, Texas Hold'em (no limit):  NLHE, NLH, LHE, PLHE
    Omaha           O, Omaha (pot limit):                       PLO, NLO, FLO
    Omaha Hi-Lo     O8, Omaha 8, Omaha Hi-Lo, O Hi-Lo, Omaha 8 or better
                    (fixed limit: "O8" is the limit game of the mixed games):
                                                                O8, PLO8, NLO8
    Five-card       O5, 5O, Omaha 5, 5-card Omaha, Five-card Omaha (pot limit): PLO5
    Big O           Big O, O58, 5-card Omaha Hi-Lo (pot limit)
    Six-card        O6, 6O, Omaha 6, 6-card Omaha, Six-card Omaha (pot limit): PLO6
    Courchevel      Courchevel (pot limit)
    Courchevel 8    Courchevel Hi-Lo, Courchevel 8 (pot limit)

A structure may also sit inside a name (``5-card PLO``). :func:`parse_games` reads a
list or refuses it naming the part it did not understand; :func:`suggestions`
completes the game being typed (autocomplete) with :func:`short_name`, the
abbreviation each game is shown by (``NLHE``, ``PLO8``, ``FL Big O``).
"""

from __future__ import annotations

import re
import unicodedata

from bot.engine.variants import VARIANTS, Structure
from bot.i18n import Phrase
from bot.runtime.errors import TableSettingsError
from bot.runtime.mix import Game

__all__ = ["parse_game", "parse_games", "short_name", "suggestions"]

NL, PL, FL = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT
_SEPARATORS = re.compile(r"[,;+]")

#: Structure words, normalized (see :func:`_normal`).
_STRUCTURES: dict[str, Structure] = {
    "nolimit": NL, "nl": NL, "sinlimite": NL, "semlimite": NL,
    "potlimit": PL, "pl": PL, "limitedebote": PL, "limitedelbote": PL, "pozolimite": PL,
    "limitedopote": PL, "limitedepote": PL,
    "fixedlimit": FL, "fixed": FL, "limit": FL, "fl": FL, "l": FL, "limitefijo": FL,
    "conlimite": FL, "limitefixo": FL, "limitefisso": FL,
}

#: Each variant's names, normalized, and its usual structure.
_NAMES: dict[str, tuple[str, ...]] = {
    "holdem": ("he", "h", "holdem", "texasholdem", "texas"),
    "omaha": ("o", "omaha"),
    "omaha_hilo": ("o8", "omaha8", "omahahilo", "ohilo", "omahahl", "ohl", "omaha8orbetter",
                   "omahahilo8orbetter", "o8orbetter"),
    "omaha5": ("o5", "5o", "omaha5", "5cardomaha", "fivecardomaha", "5cardo"),
    "big_o": ("bigo", "o58", "5cardomahahilo", "fivecardomahahilo", "5cardo8", "omaha5hilo"),
    "omaha6": ("o6", "6o", "omaha6", "6cardomaha", "sixcardomaha", "6cardo"),
    "courchevel": ("courchevel",),
    "courchevel_hilo": ("courchevelhilo", "courchevel8", "courchevelhl"),
}
_USUAL = {"holdem": NL, "omaha_hilo": FL}  # every other variant: pot limit
_VARIANT_OF = {name: key for key, names in _NAMES.items() for name in names}

#: How each variant is shown in a short name, after the structure's letters.
_SHORT = {"holdem": "HE", "omaha": "O", "omaha_hilo": "O8", "omaha5": "O5", "omaha6": "O6",
          "big_o": " Big O", "courchevel": " Courchevel", "courchevel_hilo": " Courchevel 8"}
_LETTERS = {NL: "NL", PL: "PL", FL: "FL"}


def _normal(text: str) -> str:
    """Lower case, accents off, only letters and digits: ``Hold'em`` -> ``holdem``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(c for c in plain.lower() if c.isalnum())


def parse_game(text: str) -> Game | None:
    """One game as typed (``NLHE``, ``O8 limit``, ``Pot Limit Omaha``), or None when it
    is not understood (or could mean two games)."""
    word = _normal(text)
    found: set[Game] = set()
    for structure_word, structure in _STRUCTURES.items():
        start = word.find(structure_word)
        while start >= 0:
            rest = word[:start] + word[start + len(structure_word):]
            if rest in _VARIANT_OF:
                found.add(Game(_VARIANT_OF[rest], structure))
            start = word.find(structure_word, start + 1)
    if not found and word in _VARIANT_OF:
        key = _VARIANT_OF[word]
        found.add(Game(key, _USUAL.get(key, PL)))
    return found.pop() if len(found) == 1 else None


def parse_games(text: str) -> tuple[Game, ...]:
    """Every game of a typed list, in its order; the first part not understood is refused
    by name (a :class:`TableSettingsError`). The number of games is checked by the table
    (:meth:`bot.runtime.config.TableConfig.create`)."""
    parts = [p.strip() for p in _SEPARATORS.split(text or "")]
    games = []
    for part in parts:
        game = parse_game(part) if part else None
        if game is None:
            raise TableSettingsError(Phrase("refuse.games.unknown", part=part or "…",
                                            example="NLHE, PLO, O8 limit"))
        games.append(game)
    return tuple(games)


def short_name(game: Game) -> str:
    """The abbreviation a game is shown by: ``NLHE``, ``LHE``, ``PLO``, ``FLO8``,
    ``PL Big O`` (it reads back as the same game)."""
    letters = _LETTERS[game.structure]
    if game.variant_key == "holdem" and game.structure is FL:
        letters = "L"
    return (letters + _SHORT[game.variant_key]).strip()


#: Every game once, in the order the autocomplete offers them: the most played first.
_FIRST = ("NLHE", "PLO", "PLO8", "FLO8", "PLO5", "PLO6", "PL Big O", "LHE")
_OFFERED = tuple(sorted(
    (Game(key, s) for key in VARIANTS for s in (NL, PL, FL)),
    key=lambda g: _FIRST.index(short_name(g)) if short_name(g) in _FIRST else len(_FIRST),
))


def suggestions(typed: str, limit: int = 25) -> list[str]:
    """Ways to complete ``typed`` (``NLHE, pl`` -> ``NLHE, PLO``, ``NLHE, PLO8``...): the list
    so far as typed, then a game whose short name (or its name) starts with the last part.
    The list itself comes first when it already reads whole."""
    head, _, last = (typed or "").rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    part = _normal(last)
    found = []
    try:
        parse_games(typed)
        found.append(prefix + last.strip())
    except TableSettingsError:
        pass
    for game in _OFFERED:
        names = (_normal(short_name(game)), _normal(game.name), *_NAMES[game.variant_key])
        if any(n.startswith(part) for n in names):
            found.append(prefix + short_name(game))
    return [f for f in dict.fromkeys(found) if len(f) <= 100][:limit]
