"""Answering interactions politely when Discord has a bad minute (bot.adapter.polite)."""

from __future__ import annotations

from pathlib import Path

from tests.adapter.test_hooks import call_or_check
from tests.cogs.test_table import actor_of, seat_three, turn_message
from tests.conftest import Harness


async def test_a_click_acknowledged_already_is_still_played(harness: Harness) -> None:
    """Discord carried out the click's deferral, answered 5xx, and refuses discord.py's
    second try as "already acknowledged" (400, code 40060): the action is taken all the
    same, and the turn passes."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    h.env.inject_error("POST", "/interactions/*", status=400, code=40060,
                       message="Interaction has already been acknowledged.")
    reply = await h.click(actor, turn, label=call_or_check(turn))
    # Discord did acknowledge it (the offline Discord cannot both do it and refuse it)
    h.env.backend.interactions[reply.result._interaction.id].responded = True
    after = turn_message(h)
    assert after.id != turn.id and actor_of(h, after) != actor


async def test_discord_failing_a_click_is_one_warning_not_a_bug(harness: Harness) -> None:
    """Discord answers the click's deferral 503 (discord.py does not send it again): one
    warning line, no "Unexpected error" with a traceback; the player clicks again and
    the action is taken."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    h.env.inject_error("POST", "/interactions/*", status=503, message="upstream connect error")
    reply = await h.click(actor, turn, label=call_or_check(turn))
    h.env.backend.interactions[reply.result._interaction.id].responded = True  # it failed
    h.check_errors()  # no bug logged
    assert turn_message(h).id == turn.id  # nothing happened
    await h.click(actor, turn, label=call_or_check(turn))
    assert actor_of(h, turn_message(h)) != actor


def test_every_deferral_goes_through_defer_once() -> None:
    """A deferral Discord carried out but answered 5xx comes back as 40060 when discord.py
    sends it again: only ``defer_once`` takes that as done (and answers as deferred), so no
    code of the bot or its cogs defers by ``interaction.response.defer`` itself."""
    root = Path(__file__).resolve().parents[2]
    direct = [f"{path.relative_to(root)}:{n}"
              for folder in ("bot", "cogs") for path in sorted((root / folder).rglob("*.py"))
              if path.name != "polite.py"
              for n, line in enumerate(path.read_text().splitlines(), 1)
              if "response.defer(" in line]
    assert direct == []
