"""The deal proof in a PHH export and ``verify``: each reader's file checks, tampering fails."""

from __future__ import annotations

import re
import warnings

import pytest

from bot.engine import phh
from bot.engine.cards import DECK
from bot.engine.commitment import commit
from bot.engine.events import HandShown
from bot.engine.hand import Hand
from bot.engine.phh.proof import card_positions, verify_text, with_proof
from tests.engine.conftest import PL, check_down, new_hand, play

# Seat 1 (small blind) shows first and wins with kings; seats 2 and 4 cannot beat it
# and are mucked; seat 3 folds preflop.
HOLES = {1: "KhKd5c6c", 2: "QhQd8c8d", 3: "AhAdJcJd", 4: "9c9d4h4d"}
BOARD = "2c7d9hKs3s"


def _showdown_hand() -> Hand:
    hand = new_hand([200, 200, 200, 200], holes=HOLES, board=BOARD, structure=PL)
    play(hand, "fold")  # seat 3 (under the gun)
    check_down(hand)
    return hand


def _export(hand: Hand, viewer: int, *, salts: tuple[bytes, ...] | None = None) -> str:
    c = commit(hand.deck.order, salts)
    hh = phh.history_of(hand.events, public=True, viewer=viewer)
    return phh.dumps(with_proof(hh, hand.deck.order, c))


@pytest.fixture(scope="module")
def hand() -> Hand:
    return _showdown_hand()


def test_the_hand_has_a_winner_two_mucks_and_a_fold(hand: Hand) -> None:
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    assert shown == {1}
    assert hand.result.final_stacks[1] > 200


@pytest.mark.parametrize("viewer", [1, 2, 3, 4])
def test_every_readers_file_verifies(hand: Hand, viewer: int) -> None:
    assert verify_text(_export(hand, viewer)).ok


@pytest.mark.parametrize("viewer", [1, 2, 3, 4])
def test_a_file_reveals_only_what_its_reader_may_see(hand: Hand, viewer: int) -> None:
    """Board, own hole cards, the hand shown down: nothing of a mucked or folded hand."""
    c = commit(hand.deck.order)
    hh = phh.history_of(hand.events, public=True, viewer=viewer)
    text = phh.dumps(with_proof(hh, hand.deck.order, c))
    hidden = {
        s: cards for s, cards in HOLES.items() if s not in (viewer, 1)
    }
    for cards in hidden.values():
        for i in range(0, 8, 2):
            assert not re.search(rf"\b{cards[i:i + 2]}\b|{cards[i:i + 2]}(?=[2-9TJQKA?])",
                                 _without_hashes(text)), cards[i:i + 2]
    seen = set(card_positions(phh.loads(text)))
    assert len(seen) == 5 + 4 * (2 if viewer != 1 else 1)
    for pos, salt in enumerate(c.salts):
        assert (salt.hex() in text) == (pos in seen)


def _without_hashes(text: str) -> str:
    return re.sub(r"[0-9a-f]{32,64}", "", text)


def test_the_export_loads_in_pokerkit(hand: Hand) -> None:
    from pokerkit import HandHistory as PKHandHistory

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = PKHandHistory.loads(_export(hand, 2))
    fields = loaded.user_defined_fields
    assert len(fields["_deck_hashes"]) == 52
    assert len(fields["_deck_commitment"]) == 64
    assert list(loaded)[-1].stacks == [hand.result.final_stacks[s] for s in (1, 2, 3, 4)]


# --- tampering ------------------------------------------------------------------------


def _tampered(hand: Hand, old: str, new: str, count: int = 1) -> str:
    text = _export(hand, 1)
    assert old in text
    return text.replace(old, new, count)


def _reason(text: str) -> str:
    verdict = verify_text(text)
    assert not verdict.ok
    return verdict.reason


def test_a_changed_board_card_is_refused(hand: Hand) -> None:
    unused = next(str(c) for c in DECK if str(c) not in "".join(HOLES.values()) + BOARD)
    reason = _reason(_tampered(hand, "d db 2c7d9h", f"d db 2c7d{unused}"))
    assert re.fullmatch(rf"the board card {unused} comes from deck position \d+, "
                        r"committed to 9h", reason), reason


def test_board_cards_swapped_between_positions_are_refused(hand: Hand) -> None:
    reason = _reason(_tampered(hand, "d db 2c7d9h", "d db 7d2c9h"))
    assert re.fullmatch(r"the board card 7d comes from deck position \d+, committed to 2c",
                        reason), reason


def test_a_changed_reveal_is_refused(hand: Hand) -> None:
    text = _export(hand, 1)
    pos = re.search(r'"(\d+) 9h ', text)
    assert pos is not None
    reason = _reason(text.replace(f'"{pos.group(1)} 9h ', f'"{pos.group(1)} 9s ')
                     .replace("d db 2c7d9h", "d db 2c7d9s"))
    assert reason == f"deck position {pos.group(1)}: 9s and its salt do not match its hash"


def test_a_changed_action_is_refused(hand: Hand) -> None:
    reason = _reason(_tampered(hand, '"p3 f"', '"p3 cc"'))
    assert reason.startswith("action "), reason


def test_a_changed_payout_is_refused(hand: Hand) -> None:
    stacks = [hand.result.final_stacks[s] for s in (1, 2, 3, 4)]
    old = "finishing_stacks = [" + ", ".join(map(str, stacks)) + "]"
    new = "finishing_stacks = [" + ", ".join(map(str, [stacks[0] - 2, stacks[1] + 2,
                                                        *stacks[2:]])) + "]"
    reason = _reason(_tampered(hand, old, new))
    assert reason == (
        f"p1 finishes with {stacks[0]:,} by the rules, not {stacks[0] - 2:,} as recorded"
    )


def test_a_wrong_commitment_is_refused(hand: Hand) -> None:
    text = _export(hand, 1)
    root = re.search(r'_deck_commitment = "([0-9a-f]{64})"', text)
    assert root is not None
    reason = _reason(text.replace(root.group(1), "0" * 64))
    assert reason == "the deck hashes do not rebuild the deck commitment"


def test_a_file_without_proof_is_refused(hand: Hand) -> None:
    text = phh.dumps(phh.history_of(hand.events, public=True, viewer=1))
    assert _reason(text) == "the file carries no deal proof (_deck_commitment is missing)"
    assert _reason("variant = ").startswith("the file is not readable PHH")


def test_a_revealed_burn_is_refused(hand: Hand) -> None:
    """Opening a position the hand deals no visible card from is not a proof of anything."""
    c = commit(hand.deck.order)
    hh = with_proof(phh.history_of(hand.events, public=True, viewer=1), hand.deck.order, c)
    burn = 16  # 4 players x 4 cards: the burn before the flop
    extra = dict(hh.extra)
    reveals = [*extra["_deck_reveals"], f"{burn} {hand.deck.order[burn]} {c.salts[burn].hex()}"]  # type: ignore[misc]
    from dataclasses import replace

    text = phh.dumps(replace(hh, extra=tuple(
        (k, reveals if k == "_deck_reveals" else v) for k, v in hh.extra)))
    assert _reason(text) == (
        f"deck position {burn} is revealed, but the hand deals no known card from it"
    )
