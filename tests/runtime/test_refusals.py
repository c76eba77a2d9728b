"""Refusals in poker terms: the options and the range come from the engine's betting round."""

from __future__ import annotations

import pytest

from bot.engine.betting import BettingRound, LegalActions, Player
from bot.engine.events import Action, ActionKind
from bot.engine.variants import Structure
from bot.runtime import refusals
from bot.runtime.decisions import choose_action
from bot.runtime.errors import IllegalMove


def facing(
    structure: Structure, unit: int, pot_before: int, actions: list[tuple[int, int]],
    stacks: tuple[int, ...] = (1000, 1000, 1000),
) -> tuple[LegalActions, BettingRound, list[Player]]:
    """A fresh street: ``actions`` are (player index, bet to) in order; the legal actions of
    the next player (index ``len(actions) % len(stacks)``), as the engine computes them."""
    players = [Player(seat=i + 1, pos=i, stack=s) for i, s in enumerate(stacks)]
    rnd = BettingRound(structure, unit, level=0, full_bets=0)
    pot = pot_before
    for index, to in actions:
        p = players[index]
        kind = ActionKind.BET if rnd.level == 0 else ActionKind.RAISE
        if to <= rnd.level:
            kind = ActionKind.CALL
        pot += rnd.apply(p, kind, to)
    nxt = players[len(actions) % len(players)]
    return rnd.legal(players, nxt, pot), rnd, players


def test_pot_limit_facing_a_bet_names_call_and_the_pot_sized_raise() -> None:
    """RULES 5: pot 20 facing a bet of 5 (pot includes it): call 5, raise to 10 up to 30."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 15, [(0, 5)])
    assert str(refusals.options(legal, Structure.POT_LIMIT)) == (
        "You face a bet of 5: call 5, or raise to between 10 and 30 (pot limit). "
        "Use /call or /raise."
    )


def test_no_bet_names_check_and_the_bet_range() -> None:
    """Nothing bet yet on a pot-limit street with 6 in the pot: check, or bet 2 to 6."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 6, [])
    assert str(refusals.options(legal, Structure.POT_LIMIT)) == (
        "No bet to you: check, or bet between 2 and 6 (pot limit). Use /check or /bet."
    )


def test_no_limit_range_ends_at_the_all_in() -> None:
    """No limit: the top of the range is the stack, and the text says it is all-in."""
    legal, _, _ = facing(Structure.NO_LIMIT, 2, 3, [(0, 6)], stacks=(100, 100, 100))
    text = str(refusals.options(legal, Structure.NO_LIMIT))
    assert "raise to between 12 and 100 (all-in)" in text


@pytest.mark.parametrize(
    "amount, why",
    [
        (9, "A raise to 9 is too small."),
        (31, "A raise to 31 is more than the pot limit allows."),
        (5000, "A raise to 5,000 is more than you have."),
    ],
)
def test_out_of_range_raises_say_why_and_the_range(amount: int, why: str) -> None:
    """Under the minimum, over the pot, over the stack: each says so, then the range."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 15, [(0, 5)])
    with pytest.raises(IllegalMove) as caught:
        choose_action(ActionKind.RAISE, amount, legal, Structure.POT_LIMIT)
    text = str(caught.value)
    assert text.startswith(why), text
    assert "raise to between 10 and 30" in text


def test_fixed_limit_raise_is_exactly_one_bet() -> None:
    """Fixed limit: any other size is refused naming the one allowed."""
    legal, _, _ = facing(Structure.FIXED_LIMIT, 10, 15, [(0, 10)])
    with pytest.raises(IllegalMove, match="in fixed limit the raise is to exactly 20"):
        choose_action(ActionKind.RAISE, 30, legal, Structure.FIXED_LIMIT)
    assert choose_action(ActionKind.RAISE, 20, legal, Structure.FIXED_LIMIT).amount == 20


def test_fixed_limit_cap_says_only_call_or_fold() -> None:
    """A bet and three raises: the fourth raise is refused because of the cap."""
    legal, _, _ = facing(
        Structure.FIXED_LIMIT, 10, 15, [(0, 10), (1, 20), (2, 30), (0, 40)]
    )
    assert legal.min_raise_to is None
    with pytest.raises(IllegalMove) as caught:
        choose_action(ActionKind.RAISE, 50, legal, Structure.FIXED_LIMIT)
    assert str(caught.value) == (
        "You cannot raise: the betting is capped at 4 bets this round. "
        "You face a bet of 40: call 20 more, or fold. Use /call or /fold."
    )


def test_short_all_in_that_does_not_reopen_the_betting() -> None:
    """Bet 10, all-in to 15: the first bettor may call 5 more or fold, not raise; /allin
    is then that call (bot.runtime.decisions)."""
    legal, _, _ = facing(Structure.NO_LIMIT, 10, 0, [(0, 10), (1, 15), (2, 15)],
                         stacks=(1000, 15, 1000))
    assert legal.min_raise_to is None and legal.to_call == 5
    with pytest.raises(IllegalMove) as caught:
        choose_action(ActionKind.RAISE, 100, legal, Structure.NO_LIMIT)
    assert str(caught.value) == (
        "You cannot raise: the short all-in did not reopen the betting. "
        "You face a bet of 15: call 5 more, or fold. Use /call or /fold."
    )
    assert choose_action(ActionKind.ALL_IN, None, legal, Structure.NO_LIMIT) == Action.call()


def test_a_short_all_in_leaves_a_player_yet_to_act_free_to_raise() -> None:
    """Bet 10, all-in to 15: the next player has not acted yet and may raise as usual, so
    their /allin is the whole stack."""
    legal, _, _ = facing(Structure.NO_LIMIT, 10, 0, [(0, 10), (1, 15)], stacks=(1000, 15, 400))
    assert legal.min_raise_to == 25 and legal.max_raise_to == 400
    assert choose_action(ActionKind.ALL_IN, None, legal, Structure.NO_LIMIT) == Action.all_in()


def test_a_call_for_the_whole_stack_is_called_all_in() -> None:
    """Facing more than the stack: the only options are calling all-in or folding."""
    legal, _, _ = facing(Structure.NO_LIMIT, 2, 3, [(0, 200)], stacks=(500, 40, 500))
    assert legal.call_is_all_in
    assert str(refusals.options(legal)) == (
        "You face a bet of 200: call all-in for 40, or fold. Use /call or /fold."
    )
    with pytest.raises(IllegalMove, match="You cannot raise: you have only 40 chips"):
        choose_action(ActionKind.RAISE, 400, legal, Structure.NO_LIMIT)
    assert choose_action(ActionKind.ALL_IN, None, legal).kind is ActionKind.ALL_IN


def test_all_in_over_the_pot_limit_is_the_pot_raise() -> None:
    """Pot limit: /allin with more than the pot raise behind raises the pot (to 30, RULES
    section 5); a raise typed over it is refused, naming the maximum."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 15, [(0, 5)])
    assert choose_action(ActionKind.ALL_IN, None, legal, Structure.POT_LIMIT) == (
        Action.raise_to(30))
    with pytest.raises(IllegalMove, match="30"):
        choose_action(ActionKind.RAISE, 1000, legal, Structure.POT_LIMIT)


def test_check_facing_a_bet_and_a_raise_without_amount() -> None:
    """Checking facing a bet, or raising without a number, names the options."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 15, [(0, 5)])
    with pytest.raises(IllegalMove, match=r"^You cannot check\. You face a bet of 5: call 5"):
        choose_action(ActionKind.CHECK, None, legal, Structure.POT_LIMIT)
    with pytest.raises(IllegalMove, match=r"^Say how much\. You face a bet of 5"):
        choose_action(ActionKind.RAISE, None, legal, Structure.POT_LIMIT)


def test_a_refusal_is_worded_in_each_language_with_its_commands() -> None:
    """The refusal is a Phrase: English by str(), each language by to(locale), with the
    slash commands as Discord shows them there and the locale's thousands separator."""
    legal, _, _ = facing(Structure.POT_LIMIT, 2, 15, [(0, 5)], stacks=(5000, 5000, 5000))
    refusal = refusals.out_of_range(legal, 4000, Structure.POT_LIMIT)
    assert str(refusal).startswith("A raise to 4,000 is more than the pot limit allows.")
    pt = refusal.to("pt-BR")
    assert pt.startswith("Um aumento para 4.000 passa do limite do pote.")
    assert "Use /igualar ou /aumentar." in pt
    assert "Usa /vedi o /rilancia." in refusal.to("it")
    assert "/pagar" in refusal.to("es-419") and "/ver" in refusal.to("es-ES")
    english = ("call", "raise", "You face")
    for lang in ("pt-BR", "es-ES", "it"):
        assert not [w for w in english if w in refusal.to(lang)], refusal.to(lang)
