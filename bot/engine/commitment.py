"""A commitment to a hand's whole deck order, made before its first card is dealt.

Standard library only. The byte layout is plain ASCII so that a player can
recompute everything with ``sha256sum`` (README, "Checking a deal"):

* **salt**: 16 fresh random bytes per deck position (:func:`secrets.token_bytes`),
  written as 32 lowercase hex digits;
* **leaf** of deck position ``i`` (0 is the top card, the first one dealt)
  holding card ``C`` (``"Ah"``, ``"Td"``, ``"2c"``: rank ``23456789TJQKA``,
  suit ``cdhs``) with salt ``S``: the lowercase hex SHA-256 of the ASCII text
  ``"{i}:{C}:{S}"``, without a newline; for example
  ``printf '%s' '7:Ah:00112233445566778899aabbccddeeff' | sha256sum``;
* **root**: the lowercase hex SHA-256 of the 52 leaves in deck order, each
  followed by one newline (``"\\n"``); that is ``sha256sum`` of a text file
  holding one leaf per line: ``printf '%s\\n' LEAF0 LEAF1 ... LEAF51 | sha256sum``.

The root is posted before the deal. Afterwards, revealing a position's card
and salt lets anyone rebuild its leaf; an unrevealed position shows only its
leaf, which tells nothing of its card: guessing it would mean trying 2**128
salts. To show another card at a position than the one committed, the dealer
would need a second (card, salt) with the same SHA-256, which nobody can
find. (A hash with no salt, or a short one, would leak the card: 52 guesses.)

So the commitment proves that the deck order was fixed before the first card and
not changed afterwards, and which card lay at each revealed position. It does not
prove that the shuffle was fair, nor that whoever runs the bot did not shuffle
several decks, look at them and commit to the one they liked: it binds the deck
once posted, not the choice before (README, "Checking a deal").
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.cards import Card, CardError, card

__all__ = [
    "SALT_BYTES",
    "DeckCommitment",
    "Reveal",
    "check_reveals",
    "commit",
    "leaf_hash",
    "parse_reveal",
    "reveal_line",
    "root_of",
]

SALT_BYTES = 16
DECK_SIZE = 52
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_SALT = re.compile(r"[0-9a-f]{32,}\Z")


def leaf_hash(position: int, c: Card, salt: bytes) -> str:
    """The committed hash of one deck position (see the module docstring)."""
    return hashlib.sha256(f"{position}:{c}:{salt.hex()}".encode("ascii")).hexdigest()


def root_of(leaves: Sequence[str]) -> str:
    """The commitment: SHA-256 of the leaves in deck order, one per line."""
    return hashlib.sha256("".join(f"{leaf}\n" for leaf in leaves).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class DeckCommitment:
    """The salts (secret), the leaves and the root of one deck order."""

    salts: tuple[bytes, ...] = field(repr=False)
    leaves: tuple[str, ...]
    root: str

    def __repr__(self) -> str:  # salts are as secret as the cards
        return f"DeckCommitment(root={self.root!r})"


def commit(deck: Sequence[Card], salts: Sequence[bytes] | None = None) -> DeckCommitment:
    """Commit to ``deck``: fresh salts unless ``salts`` are given (a stored hand's)."""
    if salts is None:
        salts = [secrets.token_bytes(SALT_BYTES) for _ in deck]
    if len(salts) != len(deck) or any(len(s) < SALT_BYTES for s in salts):
        raise ValueError(f"every deck position needs a salt of {SALT_BYTES} bytes or more")
    leaves = tuple(leaf_hash(i, c, s) for i, (c, s) in enumerate(zip(deck, salts, strict=True)))
    return DeckCommitment(tuple(salts), leaves, root_of(leaves))


@dataclass(frozen=True)
class Reveal:
    """One opened deck position: its card and salt."""

    position: int
    card: Card
    salt: bytes


def reveal_line(position: int, c: Card, salt: bytes) -> str:
    """``"7 Ah 0011...eeff"``: how a PHH file lists an opened position."""
    return f"{position} {c} {salt.hex()}"


def parse_reveal(text: str) -> Reveal:
    """Read a :func:`reveal_line`; ``ValueError`` with a readable reason."""
    parts = text.split()
    if len(parts) != 3 or not parts[0].isdigit() or not _SALT.match(parts[2]):
        raise ValueError(f"the revealed position {text!r} is not 'POSITION CARD SALT'")
    position = int(parts[0])
    if position >= DECK_SIZE:
        raise ValueError(f"there is no deck position {position}")
    try:
        c = card(parts[1])
    except CardError:
        raise ValueError(f"the revealed position {position} holds no card") from None
    return Reveal(position, c, bytes.fromhex(parts[2]))


def check_reveals(root: str, leaves: Sequence[str], reveals: Sequence[Reveal]) -> str | None:
    """The first reason the reveals and leaves do not open ``root``, or ``None``.

    In order: the leaves are 52 SHA-256 hashes; each revealed card and salt
    hash to the leaf at its position; the leaves rebuild the root; no position
    is opened twice and no card is revealed twice.
    """
    if not _HEX64.match(root):
        return "the deck commitment is not a SHA-256 hash"
    if len(leaves) != DECK_SIZE or not all(_HEX64.match(leaf) for leaf in leaves):
        return f"the deck hashes are not {DECK_SIZE} SHA-256 hashes"
    for r in reveals:
        if leaf_hash(r.position, r.card, r.salt) != leaves[r.position]:
            return f"deck position {r.position}: {r.card} and its salt do not match its hash"
    if root_of(leaves) != root:
        return "the deck hashes do not rebuild the deck commitment"
    seen: dict[Card, int] = {}
    opened: set[int] = set()
    for r in reveals:
        if r.position in opened:
            return f"deck position {r.position} is revealed twice"
        if r.card in seen:
            return f"{r.card} is revealed at deck positions {seen[r.card]} and {r.position}"
        opened.add(r.position)
        seen[r.card] = r.position
    return None

