"""The deal's proof in a PHH file, and checking it from the file alone: :func:`verify_text`.

A history the bot exports carries three user-defined fields (PHH allows any
field whose name starts with ``_``; PokerKit's loader keeps them aside):

* ``_deck_commitment``: the root posted before the first card
  (:mod:`bot.engine.commitment`);
* ``_deck_hashes``: the 52 leaves, in deck order;
* ``_deck_reveals``: ``"POSITION CARD SALT"`` for each deck position the
  reader may see: the board, their own hole cards and the hands shown down.
  Nothing else is opened: a mucked hand and the burns stay hashes.

:func:`verify` checks, in this order, and names the first failure: the
fields are there and readable; the reveals and hashes rebuild the
commitment (:func:`~bot.engine.commitment.check_reveals`: each revealed card
and salt hash to the leaf at its position, the leaves hash to the root, no
card twice); every card the history deals or shows sits at the deck position
the dealing order of RULES.md section 4 gives it
(:func:`~bot.engine.dealing.deal_positions`: hole cards one at a time from
the small blind, a burn before each street; a second board run twice right
after the first, :mod:`bot.engine.run_twice`; a double board street by street,
:mod:`bot.engine.bomb_pot`), and it is revealed there; the
actions replay by the rules (:func:`~bot.engine.phh.replay`) to the recorded
finishing stacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine.cards import DECK, Card, Deck
from bot.engine.commitment import DeckCommitment, Reveal, check_reveals, parse_reveal
from bot.engine.dealing import deal_positions
from bot.engine.hand import Hand, IllegalAction
from bot.engine.phh.actions import label
from bot.engine.phh.deck import collect_cards
from bot.engine.phh.game_setup import setup_of
from bot.engine.phh.reading import loads
from bot.engine.phh.records import HandError, HandHistory, PHHError, TomlValue
from bot.engine.phh.replaying import parse_actions, replay, take_second_run

__all__ = ["PROOF_FIELDS", "Verdict", "card_positions", "proof_fields", "verify", "verify_text",
           "with_proof"]

PROOF_FIELDS = ("_deck_commitment", "_deck_hashes", "_deck_reveals")
#: A deck commitment (a SHA-256 root) in hex digits: what the hand's message posts.
ROOT_DIGITS = 64


def card_positions(hh: HandHistory) -> dict[int, tuple[Card, str]]:
    """Every known card of the history at the deck position the dealing order gives it.

    Maps deck position -> (card, what it is: ``"p2's hole card"``, ``"board card"``).
    :class:`HandError` when the record cannot be read or deals a card twice.
    """
    setup = setup_of(hh)
    variant = setup.config.variant
    parsed = parse_actions(hh.actions)
    dealt = collect_cards(hh.actions, parsed, variant, hh.player_count)
    take_second_run(hh, dealt, variant)
    try:
        probe = Hand(setup.config, setup.seats, setup.button, Deck(order=DECK), setup.bomb_pot)
    except (IllegalAction, ValueError) as exc:
        raise HandError(f"the hand cannot start: {exc}") from None
    player_of = {s.seat: p for p, s in enumerate(setup.seats)}
    plan = deal_positions(hh.player_count, variant, dealt.shared, double=dealt.double)
    out: dict[int, tuple[Card, str]] = {}
    for k, seat in enumerate(probe.deal_order):
        p = player_of[seat]
        for idx, c in zip(plan[f"hole:{k}"], dealt.holes[p], strict=False):
            if c is not None:
                out[idx] = (c, f"{label(p)}'s hole card")
    for idx, c in zip(plan["board"], dealt.board, strict=False):
        out[idx] = (c, "board card")
    for idx, c in zip(plan.get("board2", ()), dealt.board2, strict=False):
        out[idx] = (c, "second board card")
    return out


def proof_fields(
    hh: HandHistory, deck: Sequence[Card], commitment: DeckCommitment
) -> tuple[tuple[str, TomlValue], ...]:
    """The proof fields for ``hh`` (a reader's history: what they may see, and no more)."""
    positions = card_positions(hh)
    reveals: list[TomlValue] = []
    for pos in sorted(positions):
        c = positions[pos][0]
        if deck[pos] != c:
            raise ValueError(f"deck position {pos} does not hold the card the history shows")
        reveals.append(f"{pos} {c} {commitment.salts[pos].hex()}")
    hashes: list[TomlValue] = list(commitment.leaves)
    return (
        ("_deck_commitment", commitment.root),
        ("_deck_hashes", hashes),
        ("_deck_reveals", reveals),
    )


def with_proof(
    hh: HandHistory, deck: Sequence[Card], commitment: DeckCommitment
) -> HandHistory:
    """``hh`` with its proof fields (:func:`proof_fields`) added."""
    kept = tuple((k, v) for k, v in hh.extra if k not in PROOF_FIELDS)
    return replace(hh, extra=(*kept, *proof_fields(hh, deck, commitment)))


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""

    def line(self) -> str:
        return "verified: the deal and the actions match the commitment" if self.ok else (
            f"NOT verified: {self.reason}"
        )


def _fields(hh: HandHistory) -> tuple[str, list[str], list[Reveal]] | str:
    extra = dict(hh.extra)
    missing = [f for f in PROOF_FIELDS if f not in extra]
    if missing:
        return f"the file carries no deal proof ({missing[0]} is missing)"
    root, hashes, lines = (extra[f] for f in PROOF_FIELDS)
    if not isinstance(root, str):
        return "_deck_commitment is not a text"
    if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
        return "_deck_hashes is not a list of texts"
    if not isinstance(lines, list) or not all(isinstance(r, str) for r in lines):
        return "_deck_reveals is not a list of texts"
    try:
        reveals = [parse_reveal(str(r)) for r in lines]
    except ValueError as exc:
        return str(exc)
    return root, [str(h) for h in hashes], reveals


def _placement(hh: HandHistory, reveals: Sequence[Reveal]) -> str | None:
    """Every card the history deals sits where the dealing order puts it, opened there."""
    opened = {r.position: r.card for r in reveals}
    positions = card_positions(hh)
    for pos in sorted(positions):
        c, what = positions[pos]
        if pos not in opened:
            return f"the {what} {c} comes from deck position {pos}, which is not revealed"
        if opened[pos] != c:
            return f"the {what} {c} comes from deck position {pos}, committed to {opened[pos]}"
    for pos in sorted(set(opened) - set(positions)):
        return f"deck position {pos} is revealed, but the hand deals no known card from it"
    return None


def verify(hh: HandHistory, root: str | None = None) -> Verdict:
    """Check a hand and its deal proof from the record alone (module docstring); with
    ``root`` (the 64 hex digits a player copied from the hand's message before the deal)
    the file's commitment must be that root."""
    fields = _fields(hh)
    if isinstance(fields, str):
        return Verdict(False, fields)
    committed, hashes, reveals = fields
    reason = _posted(committed, root) if root is not None else None
    reason = reason or check_reveals(committed, hashes, reveals)
    try:
        reason = reason or _placement(hh, reveals)
        if reason:
            return Verdict(False, reason)
        played = replay(hh)
    except HandError as exc:
        return Verdict(False, str(exc))
    recorded = hh.finishing_stacks
    if recorded is None:
        return Verdict(False, "the file records no finishing stacks")
    if len(recorded) != len(played.finishing_stacks):
        return Verdict(False, "the finishing stacks do not list every player")
    for p, (want, got) in enumerate(zip(recorded, played.finishing_stacks, strict=True)):
        if want != got:
            return Verdict(
                False, f"{label(p)} finishes with {got:,} by the rules, not {want:,} as recorded"
            )
    return Verdict(True)


def _posted(committed: str, root: str) -> str | None:
    """Why the file's commitment is not the root the player saw posted (None: it is)."""
    given = root.strip().lower()
    if len(given) != ROOT_DIGITS or any(c not in "0123456789abcdef" for c in given):
        return f"the root you gave, {root.strip()!r}, is not {ROOT_DIGITS} hex digits"
    if committed.lower() != given:
        return f"the file commits to {committed}, not to the posted root {given}"
    return None


def verify_text(text: str, root: str | None = None) -> Verdict:
    """:func:`verify` for the text of a ``.phh`` file (one hand)."""
    try:
        hh = loads(text)
    except PHHError as exc:
        return Verdict(False, f"the file is not readable PHH: {exc}")
    return verify(hh, root)
