"""Pings per player per hand and result lines per hand, measured in the offline Discord.

    python tools/measure_table_noise.py

Issue 23's closing figures. The real bot plays through the offline Discord
(:mod:`bot.offline`, the tests' simcord):

* **pings**: one 4-handed Pot-Limit Omaha hand checked and called down with the
  turn buttons, one player letting the reminder come before acting once; for each
  player, the channel messages whose mentions notify them (new messages only:
  Discord notifies no mention added by an edit) and the DMs they got;
* **result lines**: the lines of each hand's result message (and of the log
  shown under it, if any) for a heads-up PLO hand checked down, 4-way Omaha
  Hi-Lo showdowns (checked down: one split high/low, one scooped; all-in with
  three pots), and a 3-way all-in run twice (with what is posted below it).

Run it with ``PYTHONPATH`` on another checkout to measure that one (the figures
before a change). Prints one block of figures; exit status 0.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

PAUSE = 10.0


async def _bot(tmp: str, name: str) -> Any:
    from bot.client import EXTENSIONS, OmahaDealer
    from bot.settings import Secret, Settings

    settings = Settings(token=Secret("measure-token"),
                        database_path=str(Path(tmp) / f"{name}.sqlite3"))
    return OmahaDealer(settings, extensions=EXTENSIONS)


def _turn(h: Any) -> Any:
    from bot.offline.harness import buttons_of

    for m in reversed(h.public_messages()):
        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)):
            return m
    return None


def _actor(h: Any, message: Any) -> Any:
    for actor in h.members.values():
        if f"<@{actor.id}>" in message.content.split("\n")[-1] or (
                f"<@{actor.id}>" in message.content):
            return actor
    raise AssertionError(message.content)


def _result(h: Any, hand: int) -> Any:
    found = [m for m in h.public_messages() if f"Hand #{hand} result" in m.content]
    return found[-1] if found else None


async def _check_down(h: Any, hand: int, slow: Any = None) -> None:
    """Check or call with the buttons until the result; ``slow(actor)`` True: that player
    waits for the reminder before their first decision."""
    from bot.offline.harness import buttons_of

    waited: set[int] = set()
    for _ in range(80):
        if _result(h, hand) is not None:
            return
        turn = _turn(h)
        if turn is None:
            await h.advance(1.0)
            continue
        actor = _actor(h, turn)
        if slow is not None and slow(actor) and actor.id not in waited:
            waited.add(actor.id)  # its first decision: clock + bank - reminder lead
            await h.advance(30 + 60 - 10 + 0.5)
            turn = _turn(h)
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        kind = next(i for i in ids if i.endswith((":check", ":call")))
        await h.click(actor, turn, custom_id=kind)
    raise AssertionError(f"hand {hand} did not end")


def _pinged(requests: list[Any]) -> list[frozenset[int]]:
    """The users notified by each new message among ``requests`` (POST with content)."""
    out = []
    for r in requests:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method != "POST" or not isinstance(body.get("content"), str):
            continue
        rule = body.get("allowed_mentions")
        parse = rule.get("parse", []) if rule else ["users"]
        allowed = {int(u) for u in (rule or {}).get("users", [])}
        users = {int(u) for u in re.findall(r"<@!?(\d+)>", body["content"])}
        out.append(frozenset(users if "users" in parse else users & allowed))
    return out


async def _count_hand(h: Any, hand: int, players: list[Any], slow: Any) -> list[str]:
    """Play hand ``hand`` (``slow`` waits for the reminder once): each player's pings."""
    dms_before = {a.id: len(h.dms(a)) for a in players}
    start = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)
    await _check_down(h, hand, slow=slow)
    await h.bot.presenter.idle()
    notified = _pinged(list(h.env.http_requests[start:]))
    rows = []
    for actor in players:
        n = sum(actor.id in users for users in notified)
        dms = len(h.dms(actor)) - dms_before[actor.id]
        rows.append(f"{actor.name} {n} pings + {dms} DM")
    return rows


async def pings() -> str:
    from bot.offline.harness import offline

    with tempfile.TemporaryDirectory() as tmp:
        async with offline(await _bot(tmp, "pings")) as h:
            h.bot.registry.pause = PAUSE
            h.bot.registry.rng = random.Random(7)
            await h.slash(h.alice, "table create")
            players = [h.alice, h.bob, h.carol, h.dave]
            for actor in players:
                await h.slash(actor, "table join", buyin="200")
            slow = (lambda actor: actor is h.bob)  # noqa: E731
            out = ["pings per player in a 4-handed hand checked down (bob waits for the "
                   "reminder once):",
                   "  default choices: " + ", ".join(await _count_hand(h, 1, players, slow))]
            if any(c.name == "prefs" for c in h.bot.tree.get_commands()):
                await h.slash(h.bob, "prefs", turn_pings="low")
                await h.slash(h.carol, "prefs", turn_pings="never")
                await h.slash(h.dave, "prefs", hole_cards="request")
                rows = await _count_hand(h, 2, players, slow)
                out.append("  bob low, carol never, dave cards on request: " + ", ".join(rows))
            return "\n".join(out)


def _lines(message: Any) -> tuple[int, int]:
    log = sum(len((e.description or "").splitlines()) for e in message.embeds)
    return len(message.content.splitlines()), log


async def _heads_up(h: Any) -> Any:
    h.bot.registry.rng = random.Random(3)
    await h.slash(h.alice, "table create")
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await _check_down(h, 1)
    return _result(h, 1)


#: A low half won alone ("wins 4 low", before and after) and one scooped (before: a high
#: and a low line for the same player; after: "scoops").
_LOW = re.compile(r"^(\S+) wins [\d,]+ low\b", re.M)
_SCOOP = re.compile(r"^(\S+) (?:scoops|wins [\d,]+ high)\b.*\n\1 wins [\d,]+ low|"
                    r"^\S+ scoops", re.M)
#: After issue 31 a hi-lo result has a line per player with their net: "carol +6 · ...";
#: the players who did not lose ("+" or "±0"), and those of them with a low.
_GAINS = re.compile(r"^\S+ [+\u00b1][\d,]+ \u00b7 .*$", re.M)


def _kind(content: str) -> str | None:
    """"scoop" (one player takes both halves), "split" (a low half goes to someone) or
    None, in either wording."""
    if _SCOOP.search(content):
        return "scoop"
    if _LOW.search(content):
        return "split"
    gains = _GAINS.findall(content)
    if not any("; low " in line for line in gains):
        return None
    return "scoop" if len(gains) == 1 else "split"


async def _hi_lo(h: Any) -> list[Any]:
    """4-way Omaha Hi-Lo hands checked down until one splits the pot high/low and one is
    scooped with a low (the same seed before and after a change: the same deals)."""
    h.bot.registry.rng = random.Random(23)
    await h.slash(h.alice, "table create", variant="omaha_hilo")
    for actor in (h.alice, h.bob, h.carol, h.dave):
        await h.slash(actor, "table join", buyin="200")
    found: dict[str, Any] = {}
    for hand in range(1, 60):
        await h.advance(PAUSE + 0.1)
        await _check_down(h, hand)
        result = _result(h, hand)
        kind = _kind(result.content)  # checked down: all four show
        if kind is not None:
            found.setdefault(kind, result)
        if len(found) == 2:
            return [found["split"], found["scoop"]]
    raise AssertionError(f"not both kinds of 4-way hi-lo showdown in 60 hands: {list(found)}")


async def _side_pots(h: Any) -> Any:
    """No-limit Omaha Hi-Lo, four stacks (60, 100, 150, 200) all-in before the flop: a
    main pot and two side pots, each split or scooped."""
    from bot.offline.harness import buttons_of

    h.bot.presenter.runout_pause = 0.1
    h.bot.registry.rng = random.Random(35)
    await h.slash(h.alice, "table create", variant="omaha_hilo", structure="no limit")
    for actor, chips in ((h.alice, "60"), (h.bob, "100"), (h.carol, "150"), (h.dave, "200")):
        await h.slash(actor, "table join", buyin=chips)
    await h.advance(PAUSE + 0.1)
    for _ in range(12):
        turn = _turn(h)
        if turn is None or _result(h, 1) is not None:
            break
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        shove = [i for i in ids if i.endswith(":allin")]
        await h.click(_actor(h, turn), turn,
                      custom_id=shove[0] if shove else next(i for i in ids if i.endswith(":call")))
    for _ in range(20):
        if _result(h, 1) is not None:
            break
        await h.advance(1.0)
    return _result(h, 1)


async def _twice(h: Any) -> Any:
    from bot.offline.harness import buttons_of

    h.bot.presenter.runout_pause = 0.1
    h.bot.registry.rng = random.Random(5)
    await h.slash(h.alice, "table create", structure="no limit", run_it_twice=True)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for _ in range(6):
        turn = _turn(h)
        if turn is None:
            break
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        shove = [i for i in ids if i.endswith(":allin")]
        await h.click(_actor(h, turn), turn,
                      custom_id=shove[0] if shove else next(i for i in ids if i.endswith(":call")))
    question = next(m for m in reversed(h.public_messages())
                    if any(str(b.custom_id).endswith(":twice") for b in buttons_of(m)))
    for actor in (h.alice, h.bob, h.carol):
        await h.click(actor, question, custom_id=next(
            str(b.custom_id) for b in buttons_of(question) if str(b.custom_id).endswith(":twice")))
    for _ in range(20):
        if _result(h, 1) is not None:
            break
        await h.advance(1.0)
    result = _result(h, 1)
    return result, h.public_messages()[h.public_messages().index(result) + 1:]


async def results() -> str:
    from bot.offline.harness import offline

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, play in (("heads-up PLO", _heads_up), ("4-way hi-lo", _hi_lo),
                           ("4-way hi-lo all-in, three pots", _side_pots),
                           ("run it twice", _twice)):
            async with offline(await _bot(tmp, name.replace(" ", "-"))) as h:
                h.bot.registry.pause = PAUSE
                got = await play(h)
                if name == "run it twice":
                    result, below = got
                    kinds = [f"{name} (the answers and what follows the hand, below it)"]
                else:
                    result, below = None, []
                    kinds = [name] if name != "4-way hi-lo" else [
                        "4-way hi-lo, split high/low", "4-way hi-lo, scooped"]
                results = [result] if result is not None else (
                    got if isinstance(got, list) else [got])
                for kind, message in zip(kinds, results, strict=True):
                    content, log = _lines(message)
                    rows.append(f"  {kind}: {content} result lines + {log} log lines")
                    rows.append("    | " + message.content.replace("\n", "\n    | "))
                for m in below:
                    rows.append("    below: " + m.content.replace("\n", " / "))
    return "result lines per hand (the result message; the log shown under it):\n" + \
        "\n".join(rows)


async def main() -> int:
    print(await pings())
    print(await results())
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
