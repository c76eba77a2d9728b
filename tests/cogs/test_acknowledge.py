"""No interaction makes a REST request before it is acknowledged (DESIGN: "Acknowledge first").

Discord drops an interaction that is not answered within 3 seconds, and each
REST request before the answer spends a round trip of that budget (350 ms on
a slow link; see ``tests/test_process_latency.py`` for the same property
under injected latency). Here every slash command of the bot, and the
buttons and the form, are used once in a realistic order through the offline
Discord; for each, no REST request made by the interaction's own handler
may come before its callback (the answer, a deferral or a modal).

Requests of other tasks are not the handler's work: an action wakes the
table's presenter, which may delete the old turn message while the handler
is still sending its answer (both are in flight at once on Discord; neither
waits for the other). They are counted in ``Checker.racing`` for the record.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from discord import app_commands
from simcord import ChannelHandle
from simcord.http import router

from bot.offline.harness import Actor, Reply
from tests.conftest import Harness, buttons_of

#: Seconds between hands, parked until the test moves the clock.
PAUSE = 10.0


#: The asyncio task that made each REST request, in the order of ``env.http_requests``.
TASKS: list[asyncio.Task[Any] | None] = []


@pytest.fixture(autouse=True)
def record_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Note which task makes each request (simcord's one entry point for REST)."""
    real = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        TASKS.append(asyncio.current_task())
        return real(backend, method, path, **kwargs)

    TASKS.clear()
    monkeypatch.setattr(router, "dispatch", dispatch)
    yield
    TASKS.clear()


class Checker:
    """Runs interactions and records which commands were checked."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.checked: set[str] = set()
        #: Requests of other tasks (the presenter) that reached Discord before a callback.
        self.racing: list[str] = []

    def _check(self, what: str, start: int) -> None:
        requests = self.h.env.http_requests
        assert len(TASKS) == len(requests)
        made = [f"{r.method} {r.path}" for r in requests[start:]]
        callbacks = [
            i for i, text in enumerate(made)
            if text.startswith("POST /interactions/") and text.endswith("/callback")
        ]
        assert callbacks, f"{what}: never answered: {made[:4]}"
        answer = callbacks[0]
        handler = TASKS[start + answer]
        before = [made[i] for i in range(answer) if TASKS[start + i] is handler]
        assert not before, f"{what}: REST work before the answer: {before}"
        self.racing += [f"{what}: {made[i]}" for i in range(answer)]

    async def slash(
        self, actor: Actor, command: str, channel: ChannelHandle | None = None, **options: Any
    ) -> Reply:
        start = len(self.h.env.http_requests)
        reply = await self.h.slash(actor, command, channel=channel, **options)
        self._check(f"/{command}", start)
        self.checked.add(command)
        return reply

    async def click(self, actor: Actor, message: Any, label: str) -> Reply:
        start = len(self.h.env.http_requests)
        reply = await self.h.click(actor, message, label=label)
        self._check(f"button {label!r}", start)
        return reply

    async def submit(self, actor: Actor, shown: Reply, values: dict[str, Any]) -> Reply:
        start = len(self.h.env.http_requests)
        reply = await self.h.submit(actor, shown, values)
        self._check("the raise form", start)
        return reply


def leaf_commands(h: Harness) -> set[str]:
    return {
        c.qualified_name for c in h.bot.tree.walk_commands()
        if isinstance(c, app_commands.Command)
    }


def to_act(h: Harness) -> tuple[Actor, Any]:
    """The player named by the newest turn message and that message (alice, None if none)."""
    for m in reversed(h.public_messages()):
        if any(b.label == "Fold" for b in buttons_of(m)):
            actor = next(a for a in h.members.values() if f"<@{a.id}>" in m.content)
            return actor, m
    return h.alice, None


async def test_every_interaction_is_answered_before_any_rest_request(harness: Harness) -> None:
    """Every slash command, button and the raise form answer first, then do their REST work."""
    h = harness
    h.bot.registry.pause = PAUSE
    h.bot.registry.rng = random.Random(1)
    run = Checker(h)
    alice, bob, carol, manny = h.alice, h.bob, h.carol, h.manager

    await run.slash(alice, "balance")
    await run.slash(alice, "help")
    await run.slash(alice, "balance", user=bob)
    await run.slash(alice, "daily")
    await run.slash(manny, "chips grant", user=bob, amount="500", reason="welcome")
    await run.slash(manny, "chips remove", user=bob, amount="100", reason="typo")
    await run.slash(manny, "economy settings")

    await run.slash(alice, "table create")
    await run.slash(alice, "table settings")
    for actor in (alice, bob, carol):
        await run.slash(actor, "table join", buyin="100")
    await run.slash(carol, "table sitout")
    await run.slash(carol, "table sitin")
    await h.advance(PAUSE + 0.1)
    await run.slash(alice, "table info")
    await run.slash(alice, "table mine")
    await run.slash(alice, "table refresh")
    await run.slash(alice, "table limits")
    await run.slash(manny, "table limits", per_member=5)
    await run.slash(alice, "cards")
    await run.slash(alice, "bombpot")  # bomb pots are off here: refused at once
    actor, turn = to_act(h)
    waiting = next(a for a in (alice, bob, carol) if a is not actor)
    await run.slash(waiting, "preaction", action="off")
    hand = next(m for m in h.public_messages() if m.content.startswith("**Hand #1**"))
    panel = await run.click(waiting, hand, "My seat")
    await run.click(waiting, panel.message, "Check/Fold")  # a pre-action, in the panel
    form = await run.click(actor, turn, next(
        str(b.label) for b in buttons_of(turn) if str(b.label).endswith("…")
    ))
    assert form.modal is not None, form
    await run.submit(actor, form, {"amount": "abc"})  # refused politely, still answered first
    # Whether each is legal depends on the cards; each is answered either way.
    for command, options in (("call", {}), ("check", {}), ("bet", {"amount": "4"}),
                             ("raise", {"to": "8"}), ("fold", {}), ("allin", {})):
        actor, _ = to_act(h)
        await run.slash(actor, command, **options)
    await run.slash(alice, "table topup", amount="10")
    await run.slash(alice, "table ledger", export=True)
    await run.slash(alice, "table session new")
    await run.slash(bob, "table leave")
    await run.slash(alice, "table close")

    other = h.add_channel("sng")
    await run.slash(alice, "tournament create", channel=other, buy_in=100, entrants=2)
    await run.slash(alice, "tournament join", channel=other)
    await run.slash(bob, "tournament leave", channel=other)  # not registered: refused
    await run.slash(bob, "tournament join", channel=other)  # the last entry: it starts
    await run.slash(carol, "tournament info", channel=other)
    early = h.add_channel("sng-early")
    await run.slash(alice, "tournament create", channel=early, buy_in=100, entrants=4)
    await run.slash(alice, "tournament join", channel=early)
    await run.slash(bob, "tournament join", channel=early)
    await run.slash(alice, "tournament start", channel=early)
    await run.slash(alice, "tournament cancel", channel=early)  # between hands: paid out now
    later = h.add_channel("sng-later")  # a scheduled game (issue 34)
    await run.slash(manny, "schedule timezone", zone="Europe/Rome")
    await run.slash(alice, "tournament create", channel=later, buy_in=100, starts="in 2 hours")
    await run.slash(alice, "schedule list")
    [game] = h.bot.tournaments.scheduled(h.guild.id)
    await run.slash(alice, "schedule move", starts="in 3 hours", game=game.tournament_id)
    await run.slash(alice, "schedule cancel", game=game.tournament_id)
    await run.slash(alice, "schedule cash", starts="in 2 hours")

    await run.slash(alice, "stats")
    await run.slash(manny, "season start", name="Spring")
    await run.slash(alice, "season show")
    await run.slash(alice, "leaderboard")
    await run.slash(alice, "hand show")
    await run.slash(alice, "hand replay")
    await run.slash(alice, "hand export", last=2)
    await run.slash(alice, "hand verify", number=1)
    await run.slash(alice, "hands")
    await run.slash(alice, "prefs")  # shown: no wait
    await run.slash(bob, "prefs", turn_pings="low")  # stored: acknowledged first
    assert run.checked == leaf_commands(h), leaf_commands(h) - run.checked
