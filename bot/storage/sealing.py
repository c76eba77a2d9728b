"""Sealing the deck order of a hand in progress (standard library only).

The deck order of a running hand is stored so that a crash can be resumed
with the same cards, but it must stay out of reach of anyone who can read the
database (a backup, a ``sqlite3`` shell, a careless command) until the hand is
over. Scheme (encrypt-then-MAC):

* a 32-byte master key comes from settings (``DECK_KEY``, hex) or from a key
  file created beside the database (``<db>.key``, mode 0600) on first start;
* two sub-keys are derived with keyed BLAKE2b: one for the keystream, one for
  the MAC;
* per hand, a random 16-byte nonce; the keystream is BLAKE2b(key=enc_key,
  nonce || block counter) blocks (a PRF in counter mode); the 52 card indices
  (one byte each) are XORed with it;
* the MAC is BLAKE2b(key=mac_key, 32 bytes) over a version byte, the
  associated data (table id and hand number, so a sealed deck cannot be moved
  to another hand), the nonce and the ciphertext, compared with
  :func:`hmac.compare_digest`.

Stored blob: ``version(1) || nonce(16) || ciphertext(n) || tag(32)``.
This is a standard construction, but it is not a vetted library: its job is
to keep the order unreadable without the key file, not to resist an attacker
who can read the key file (who could also read the process memory).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from bot.engine.cards import DECK, Card
from bot.storage.errors import DeckKeyError

VERSION = 1
NONCE_BYTES = 16
TAG_BYTES = 32
KEY_BYTES = 32


def _derive(master: bytes, label: bytes) -> bytes:
    return hashlib.blake2b(label, key=master, digest_size=32, person=b"omaha-dealer").digest()


class DeckSealer:
    """Encrypts and authenticates deck orders with one master key."""

    __slots__ = ("_enc", "_mac")

    def __init__(self, master_key: bytes) -> None:
        if len(master_key) != KEY_BYTES:
            raise DeckKeyError(f"the deck key must be {KEY_BYTES} bytes")
        self._enc = _derive(master_key, b"deck-keystream")
        self._mac = _derive(master_key, b"deck-mac")

    def __repr__(self) -> str:
        return "DeckSealer(<key hidden>)"

    def _keystream(self, nonce: bytes, length: int) -> bytes:
        out = bytearray()
        counter = 0
        while len(out) < length:
            block = hashlib.blake2b(
                nonce + counter.to_bytes(8, "big"), key=self._enc, digest_size=64
            ).digest()
            out += block
            counter += 1
        return bytes(out[:length])

    def _tag(self, associated: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
        mac = hashlib.blake2b(key=self._mac, digest_size=TAG_BYTES)
        mac.update(bytes([VERSION]))
        mac.update(len(associated).to_bytes(4, "big") + associated)
        mac.update(nonce)
        mac.update(ciphertext)
        return mac.digest()

    def seal(self, cards: Sequence[Card], associated: bytes) -> bytes:
        return self.seal_bytes(bytes(c.index for c in cards), associated)

    def seal_bytes(self, plain: bytes, associated: bytes) -> bytes:
        """Seal any secret bytes (a deck's salts) the same way as a deck order."""
        nonce = secrets.token_bytes(NONCE_BYTES)
        cipher = _xor(plain, self._keystream(nonce, len(plain)))
        return bytes([VERSION]) + nonce + cipher + self._tag(associated, nonce, cipher)

    def open(self, blob: bytes, associated: bytes) -> tuple[Card, ...]:
        plain = self.open_bytes(blob, associated)
        if any(i >= len(DECK) for i in plain):
            raise DeckKeyError("a sealed deck is damaged")
        return tuple(DECK[i] for i in plain)

    def open_bytes(self, blob: bytes, associated: bytes) -> bytes:
        if len(blob) < 1 + NONCE_BYTES + TAG_BYTES or blob[0] != VERSION:
            raise DeckKeyError("a sealed deck is damaged")
        nonce = blob[1 : 1 + NONCE_BYTES]
        cipher = blob[1 + NONCE_BYTES : -TAG_BYTES]
        tag = blob[-TAG_BYTES:]
        if not hmac.compare_digest(tag, self._tag(associated, nonce, cipher)):
            raise DeckKeyError(
                "a sealed deck does not match the deck key (wrong key file or altered data)"
            )
        return _xor(cipher, self._keystream(nonce, len(cipher)))


def _xor(data: bytes, stream: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def check_private(key_path: Path) -> None:
    """Refuse a key file that the group or others may read or write (POSIX modes): whoever
    reads it can read every stored deck; the error names the ``chmod`` that fixes it."""
    mode = key_path.stat().st_mode & 0o777
    if os.name == "posix" and mode & 0o077:
        raise DeckKeyError(
            f"the deck key file {key_path} is open to other users (mode {mode:o}); "
            f"make it private with: chmod 600 {key_path}"
        )


def load_or_create_key(key_path: Path) -> bytes:
    """Read the master key file, creating it (mode 0600) if it does not exist; an existing
    file open to other users is refused (:func:`check_private`)."""
    try:
        check_private(key_path)
        data = key_path.read_bytes()
    except FileNotFoundError:
        # Write a complete file under a temporary name, then link it into place:
        # a concurrent reader never sees a half-written key, and if two processes
        # race, both end up using the one that was linked first.
        tmp = key_path.with_name(f"{key_path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(KEY_BYTES).hex().encode() + b"\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, key_path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
        data = key_path.read_bytes()
    return parse_key(data.decode("ascii", "replace").strip(), source=str(key_path))


def parse_key(text: str, *, source: str = "DECK_KEY") -> bytes:
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise DeckKeyError(f"{source} is not a hex key") from None
    if len(key) != KEY_BYTES:
        raise DeckKeyError(f"{source} must hold {KEY_BYTES * 2} hex digits")
    return key
