"""Deck sealing: the order comes back only with the right key and the right hand."""

from __future__ import annotations

import random
import stat
from pathlib import Path

import pytest

from bot.engine.cards import Deck
from bot.storage import DeckKeyError
from bot.storage.sealing import DeckSealer, load_or_create_key, parse_key

KEY = bytes(range(32))


def test_round_trip_and_fresh_nonce() -> None:
    """Sealing twice gives different blobs that both open to the same order."""
    deck = Deck(rng=random.Random(1)).order
    sealer = DeckSealer(KEY)
    a, b = sealer.seal(deck, b"t1/1"), sealer.seal(deck, b"t1/1")
    assert a != b
    assert sealer.open(a, b"t1/1") == deck == sealer.open(b, b"t1/1")


def test_wrong_key_other_hand_or_tampering_is_refused() -> None:
    """Another key, another hand's associated data, or one flipped bit: DeckKeyError."""
    deck = Deck(rng=random.Random(2)).order
    blob = DeckSealer(KEY).seal(deck, b"t1/1")
    with pytest.raises(DeckKeyError):
        DeckSealer(bytes(32)).open(blob, b"t1/1")
    with pytest.raises(DeckKeyError):
        DeckSealer(KEY).open(blob, b"t1/2")
    flipped = bytearray(blob)
    flipped[20] ^= 1
    with pytest.raises(DeckKeyError):
        DeckSealer(KEY).open(bytes(flipped), b"t1/1")
    with pytest.raises(DeckKeyError):
        DeckSealer(KEY).open(blob[:10], b"t1/1")


def test_ciphertext_does_not_show_the_order() -> None:
    """The plain card indices are not a substring of the sealed blob."""
    deck = Deck(rng=random.Random(3)).order
    blob = DeckSealer(KEY).seal(deck, b"x")
    assert bytes(c.index for c in deck[:8]) not in blob
    assert "secret" not in repr(DeckSealer(KEY)) and KEY.hex() not in repr(DeckSealer(KEY))


def test_key_file_is_created_private_and_reused(tmp_path: Path) -> None:
    """The key file appears with mode 0600 and the same key is read back next time."""
    path = tmp_path / "db.sqlite3.key"
    first = load_or_create_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_key(path) == first and len(first) == 32
    assert [p.name for p in tmp_path.iterdir()] == ["db.sqlite3.key"]


def test_bad_keys_are_refused() -> None:
    """Keys that are not 64 hex digits are refused with a readable reason."""
    with pytest.raises(DeckKeyError, match="hex"):
        parse_key("zz" * 32)
    with pytest.raises(DeckKeyError, match="64 hex digits"):
        parse_key("ab" * 8)
    assert parse_key("ab" * 32) == b"\xab" * 32


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_key_file_open_to_others_is_refused_naming_the_chmod(tmp_path: Path, mode: int) -> None:
    """Whoever can read the key can read every stored deck: refuse it, say how to fix it."""
    path = tmp_path / "db.sqlite3.key"
    load_or_create_key(path)
    path.chmod(mode)
    with pytest.raises(DeckKeyError, match=f"chmod 600 {path}"):
        load_or_create_key(path)
    path.chmod(0o600)
    assert len(load_or_create_key(path)) == 32
