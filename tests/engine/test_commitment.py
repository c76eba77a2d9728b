"""The deck commitment: leaves and root as documented, salts, and what a reveal proves."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.engine.cards import DECK, Deck, card
from bot.engine.commitment import (
    SALT_BYTES,
    Reveal,
    check_reveals,
    commit,
    leaf_hash,
    parse_reveal,
    reveal_line,
    root_of,
)


def _deck(seed: int = 1) -> tuple:
    return Deck(rng=random.Random(seed)).order


def test_leaf_and_root_follow_the_documented_byte_layout() -> None:
    """A leaf is sha256 of "i:card:salthex"; the root is sha256 of the leaves, one per line."""
    salt = bytes(range(16))
    assert leaf_hash(7, card("Ah"), salt) == hashlib.sha256(
        b"7:Ah:000102030405060708090a0b0c0d0e0f"
    ).hexdigest()
    deck = _deck()
    c = commit(deck)
    text = "".join(f"{leaf}\n" for leaf in c.leaves).encode()
    assert c.root == hashlib.sha256(text).hexdigest() == root_of(c.leaves)


def test_every_position_gets_its_own_fresh_salt() -> None:
    """Salts are 16 random bytes, all different, and differ between two commitments."""
    deck = _deck()
    a, b = commit(deck), commit(deck)
    assert all(len(s) == SALT_BYTES for s in a.salts)
    assert len(set(a.salts)) == 52
    assert a.root != b.root and not set(a.salts) & set(b.salts)
    assert "salts" not in repr(a) and a.salts[0].hex() not in repr(a)


def test_short_salts_are_refused() -> None:
    with pytest.raises(ValueError):
        commit(_deck(), [b"x" * 8] * 52)


def test_the_same_salts_rebuild_the_same_root() -> None:
    """A stored hand (deck and salts) commits to the very root posted before its deal."""
    deck = _deck()
    c = commit(deck)
    assert commit(deck, c.salts) == c


def test_reveals_open_the_commitment() -> None:
    deck = _deck()
    c = commit(deck)
    reveals = [Reveal(i, deck[i], c.salts[i]) for i in (0, 5, 51)]
    assert check_reveals(c.root, c.leaves, reveals) is None


def test_a_revealed_card_other_than_the_committed_one_is_refused() -> None:
    deck = _deck()
    c = commit(deck)
    other = next(x for x in DECK if x != deck[3])
    reason = check_reveals(c.root, c.leaves, [Reveal(3, other, c.salts[3])])
    assert reason == f"deck position 3: {other} and its salt do not match its hash"


def test_a_card_moved_to_another_position_is_refused() -> None:
    deck = _deck()
    c = commit(deck)
    reason = check_reveals(c.root, c.leaves, [Reveal(4, deck[3], c.salts[3])])
    assert reason is not None and reason.startswith("deck position 4:")


def test_changed_hashes_do_not_rebuild_the_root() -> None:
    deck = _deck()
    c = commit(deck)
    leaves = list(c.leaves)
    leaves[10], leaves[11] = leaves[11], leaves[10]
    assert check_reveals(c.root, leaves, []) == "the deck hashes do not rebuild the deck commitment"
    assert check_reveals("ab" * 32, c.leaves, []) == (
        "the deck hashes do not rebuild the deck commitment"
    )
    assert check_reveals(c.root, c.leaves[:51], []) == "the deck hashes are not 52 SHA-256 hashes"


def test_reveal_lines_read_back() -> None:
    salt = bytes(range(16))
    line = reveal_line(12, card("Td"), salt)
    assert line == "12 Td 000102030405060708090a0b0c0d0e0f"
    assert parse_reveal(line) == Reveal(12, card("Td"), salt)
    for bad in ("12 Td", "x Td 00", "52 Td " + "00" * 16, "3 Zz " + "00" * 16, "3 Td 00"):
        with pytest.raises(ValueError):
            parse_reveal(bad)


def test_an_unsalted_hash_would_leak_the_card_but_a_salted_one_does_not() -> None:
    """Why salts: 52 guesses find the card behind an unsalted hash; a salted leaf matches none."""
    deck = _deck()
    c = commit(deck)
    unsalted = hashlib.sha256(f"0:{deck[0]}:".encode()).hexdigest()
    guesses = {hashlib.sha256(f"0:{x}:".encode()).hexdigest(): x for x in DECK}
    assert guesses[unsalted] == deck[0]
    assert c.leaves[0] not in guesses
