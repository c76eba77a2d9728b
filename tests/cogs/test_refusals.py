"""Refusals, the raise form and the call button in the words players use (offline Discord).

Pot limit, no limit and fixed limit; bets and raises; under- and over-range
amounts: each refusal is private, names the player's options with the
allowed range and the commands, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapter.views import raise_limits
from bot.engine.variants import Structure
from bot.runtime.table.views import TurnView
from tests.conftest import Harness, Reply, buttons_of

PAUSE = 10.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def deal(h: Harness, *buyins: str, **options: object) -> None:
    """alice opens a table with ``options``; alice, bob (and carol) sit with ``buyins``."""
    h.bot.registry.pause = PAUSE
    created = await h.slash(h.alice, "table create", **options)
    assert not created.ephemeral, created
    for actor, buyin in zip((h.alice, h.bob, h.carol), buyins, strict=False):
        joined = await h.slash(actor, "table join", buyin=buyin)
        assert "You sat down" in joined.text, joined
    await h.advance(PAUSE + 0.1)


def turn(h: Harness) -> tuple[Any, Any]:
    """The player named by the newest turn prompt, and the prompt."""
    for m in reversed(h.public_messages()):
        if any(b.label == "Fold" for b in buttons_of(m)):
            actor = next(a for a in h.members.values() if f"<@{a.id}>" in m.content)
            return actor, m
    raise AssertionError("no turn message")


def seq(h: Harness) -> int:
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    return table.current.seq


async def refused(h: Harness, reply: Reply, before: int) -> str:
    """The private refusal's text, after checking that nothing was played."""
    assert reply.ephemeral, reply
    assert seq(h) == before, "a refused action changed the hand"
    return reply.text


async def click(h: Harness, label: str) -> Reply:
    actor, message = turn(h)
    labels = [b.label for b in buttons_of(message)]
    reply = await h.click(actor, message, label=next(x for x in labels if x == label))
    assert reply.silent, reply
    return reply


async def to_the_flop(h: Harness) -> None:
    """Three players: call, call, check (the big blind) to see the flop."""
    await click(h, "Call 2")
    await click(h, "Call 1")
    await click(h, "Check")


async def test_pot_limit_raise_and_bet_refusals_name_the_range(harness: Harness) -> None:
    """Pot limit 1/2: under and over the range preflop, then a flop bet and the raise facing it."""
    h = harness
    await deal(h, "200", "200", "200")
    actor, _ = turn(h)
    n = seq(h)
    options = (
        "You face a bet of 2: call 2, or raise to between 4 and 7 (pot limit). "
        "Use /call or /raise."
    )
    low = await refused(h, await h.slash(actor, "raise", to="3"), n)
    assert low == "A raise to 3 is too small. " + options
    high = await refused(h, await h.slash(actor, "raise", to="8"), n)
    assert high == "A raise to 8 is more than the pot limit allows. " + options
    check = await refused(h, await h.slash(actor, "check"), n)
    assert check == "You cannot check. " + options

    await to_the_flop(h)
    bettor, _ = turn(h)
    n = seq(h)
    bet_options = "No bet to you: check, or bet between 2 and 6 (pot limit). Use /check or /bet."
    small = await refused(h, await h.slash(bettor, "bet", amount="1"), n)
    assert small == "A bet of 1 is too small. " + bet_options
    big = await refused(h, await h.slash(bettor, "bet", amount="7"), n)
    assert big == "A bet of 7 is more than the pot limit allows. " + bet_options
    done = await h.slash(bettor, "bet", amount="6")
    assert "you bet 6" in done.text, done
    facing, _ = turn(h)
    n = seq(h)
    text = await refused(h, await h.slash(facing, "raise", to="25"), n)
    assert text == (
        "A raise to 25 is more than the pot limit allows. You face a bet of 6: call 6, "
        "or raise to between 12 and 24 (pot limit). Use /call or /raise."
    )


async def test_pot_limit_raise_form_shows_the_rules_range(harness: Harness) -> None:
    """The form shows 4 to 7 (pot limit), not the stack; out-of-range entries are refused."""
    h = harness
    await deal(h, "200", "200", "200")
    actor, message = turn(h)
    n = seq(h)
    shown = await h.click(actor, message, label="Raise to…")
    assert shown.modal is not None
    [field] = [c for row in shown.modal["components"] for c in row["components"]]
    assert field["label"] == "Raise to: 4 to 7 (pot limit)"
    assert field["placeholder"] == "A total from 4 to 7; all-in (200) is over the pot limit"
    for amount, why in (("3", "too small"), ("8", "more than the pot limit allows")):
        reply = await h.submit(actor, shown, {"amount": amount})
        text = await refused(h, reply, n)
        assert why in text and "raise to between 4 and 7" in text, text
        shown = await h.click(actor, message, label="Raise to…")
    reply = await h.submit(actor, shown, {"amount": "7"})
    assert reply.silent and "raises to 7" in turn(h)[1].content, reply  # the table shows it


async def test_no_limit_refusals_and_form_end_at_the_stack(harness: Harness) -> None:
    """No limit: the range ends at the all-in; more than the stack is refused as such."""
    h = harness
    await deal(h, "100", "100", "100", structure="no limit")
    actor, message = turn(h)
    n = seq(h)
    options = (
        "You face a bet of 2: call 2, or raise to between 4 and 100 (all-in). "
        "Use /call or /raise."
    )
    assert await refused(h, await h.slash(actor, "raise", to="3"), n) == (
        "A raise to 3 is too small. " + options
    )
    assert await refused(h, await h.slash(actor, "raise", to="150"), n) == (
        "A raise to 150 is more than you have. " + options
    )
    shown = await h.click(actor, message, label="Raise to…")
    [field] = [c for row in shown.modal["components"] for c in row["components"]]
    assert field["label"] == "Raise to: 4 to 100 (all-in)"
    assert field["placeholder"] == "A total from 4 to 100; 100 puts you all-in"
    await h.submit(actor, shown, {"amount": "4"})
    assert seq(h) == n + 1


async def test_fixed_limit_sizes_and_the_cap(harness: Harness) -> None:
    """Fixed limit 1/2: a raise is to exactly 4; after a bet and three raises, only call or fold."""
    h = harness
    await deal(h, "200", "200", "200", structure="fixed limit")
    actor, message = turn(h)
    assert "Raise to…" not in [b.label for b in buttons_of(message)]
    n = seq(h)
    for to in ("3", "6"):
        text = await refused(h, await h.slash(actor, "raise", to=to), n)
        assert text == (
            f"A raise to {to} is not allowed: in fixed limit the raise is to exactly 4. "
            "You face a bet of 2: call 2, or raise to 4. Use /call or /raise."
        )
    for to in ("4", "6", "8"):  # the big blind counts as the first bet: 4 bets in all
        raiser, _ = turn(h)
        reply = await h.slash(raiser, "raise", to=to)
        assert f"you raise to {to}" in reply.text, reply
    capped, message = turn(h)
    assert not [b.label for b in buttons_of(message) if "raise" in str(b.label).lower()]
    n = seq(h)
    text = await refused(h, await h.slash(capped, "raise", to="10"), n)
    assert text == (
        "You cannot raise: the betting is capped at 4 bets this round. "
        "You face a bet of 8: call 4 more, or fold. Use /call or /fold."
    )


async def test_fixed_limit_flop_bet_is_one_small_bet(harness: Harness) -> None:
    """On the flop a fixed-limit bet is exactly the small bet (2)."""
    h = harness
    await deal(h, "200", "200", "200", structure="fixed limit")
    await to_the_flop(h)
    bettor, _ = turn(h)
    n = seq(h)
    text = await refused(h, await h.slash(bettor, "bet", amount="4"), n)
    assert text == (
        "A bet of 4 is not allowed: in fixed limit the bet is exactly 2. "
        "No bet to you: check, or bet 2. Use /check or /bet."
    )


async def test_a_call_for_the_last_chip_says_all_in(harness: Harness) -> None:
    """Heads-up no limit, 200 against 40: the short stack's button reads "Call 38 (all-in)",
    a raise is refused because the chips only cover a call, and the call is told as all-in."""
    h = harness
    await deal(h, "200", "40", structure="no limit")
    first, _ = turn(h)
    if first is h.alice:
        await click(h, "All-in 200")
    else:
        await click(h, "Call 1")
        assert (await h.slash(h.alice, "allin")).text.startswith("Done")
    short, message = turn(h)
    assert short is h.bob
    labels = [b.label for b in buttons_of(message)]
    assert "Call 38 (all-in)" in labels, labels
    assert not [x for x in labels if str(x).startswith(("Raise", "All-in", "Min"))], labels
    n = seq(h)
    text = await refused(h, await h.slash(h.bob, "raise", to="100"), n)
    assert text == (
        "You cannot raise: you have only 38 chips. "
        "You face a bet of 200: call all-in for 38, or fold. Use /call or /fold."
    )
    reply = await h.click(h.bob, message, label="Call 38 (all-in)")
    assert reply.silent, reply  # the public line below tells it
    await h.bot.presenter.idle()
    said = [content for content, _, _ in h.pinged()]  # every message sent or edited
    assert any("> bob calls 38 and is all-in" in text for text in said), said


async def test_allin_over_the_pot_limit_raises_the_pot(harness: Harness) -> None:
    """Pot limit 1/2, 200 each, first to act: /allin is the pot raise, to 7 (RULES
    section 5), answered privately as done; nothing is refused."""
    h = harness
    await deal(h, "200", "200", "200")
    actor, _ = turn(h)
    n = seq(h)
    reply = await h.slash(actor, "allin")
    assert reply.ephemeral and reply.text == "Done: you raise to 7.", reply
    assert seq(h) == n + 1


async def test_allin_facing_a_short_all_in_that_does_not_reopen_is_a_call(
    harness: Harness,
) -> None:
    """No limit 1/2, alice and bob 200, carol 40; all limp to the flop. A flop bet of 30,
    a call, carol all-in to 38 (a raise of 8, less than a full raise): the bettor has
    acted, so /allin is the call of 8 (and the table says so); the hand goes on."""
    h = harness
    await deal(h, "200", "200", "40", structure="no limit")
    table = h.bot.registry.in_channel(h.channel.id)
    while table.current is not None and table.current.hand.street.name == "PREFLOP":
        actor, _ = turn(h)
        assert (await h.slash(actor, "call")).text.startswith("Done"), actor
    bettor = None
    shoved = False
    while True:
        actor, _ = turn(h)
        if shoved and actor is bettor:
            break
        if actor is h.carol and bettor is not None:
            reply = await h.slash(actor, "allin")
            assert reply.text == "Done: you raise to 38 and are all-in.", reply
            shoved = True
        elif actor is not h.carol and bettor is None:
            assert (await h.slash(actor, "bet", amount="30")).text == "Done: you bet 30."
            bettor = actor
        else:
            assert (await h.slash(actor, "call")).text.startswith("Done"), actor
    n = seq(h)
    reply = await h.slash(bettor, "allin")
    assert reply.ephemeral and reply.text == "Done: you call 8.", reply
    assert seq(h) == n + 1
    assert f"{bettor.name} calls 8" in turn(h)[1].content  # the table shows it
    await h.audit()


def test_raise_form_label_keeps_big_numbers_whole() -> None:
    """With huge stakes the limit's name gives way; the range itself is never cut."""
    turn = TurnView(
        token="1.0", seat=1, user_id=1, name="a", can_check=False, to_call=100_000_000,
        min_raise_to=200_000_000, max_raise_to=300_000_000, is_bet=False,
        all_in_to=900_000_000, current_bet=100_000_000, pot=100_000_000, clock=30,
        time_bank=0, deadline=30,
    )
    label, placeholder = raise_limits(turn, Structure.POT_LIMIT)
    assert label == "Raise to: 200,000,000 to 300,000,000"
    assert placeholder == (
        "A total from 200,000,000 to 300,000,000; all-in (900,000,000) is over the pot limit"
    )
