"""The kill harness's checks catch what they are there for (bench/crash_checks.py): an
acknowledged action missing from the database, an action stored more times than it was
sent, and a message that shows what the database does not hold."""

from __future__ import annotations

from collections import Counter

from bench.crash_checks import Stored, action_problems, told_problems
from bench.crash_players import Version

CH, ALICE, BOB = 10, 1, 2
NAMES = {ALICE: "alice", BOB: "bob"}


def stored(actions: list[tuple[int, str, str]], status: str = "running") -> Stored:
    return Stored(status={(CH, 1): status}, resumed={(CH, 1): 0}, actions={(CH, 1): actions})


def test_acknowledged_within_stored_within_sent_passes_and_each_breach_is_named() -> None:
    db = stored([(ALICE, "call", "player"), (BOB, "check", "player"),
                 (ALICE, "check", "timeout")])
    key_a, key_b = (CH, 1, ALICE), (CH, 1, BOB)
    assert action_problems(db, Counter({key_a: 2, key_b: 1}), Counter({key_a: 1})) == ([], [])
    lost, doubled = action_problems(db, Counter({key_a: 2, key_b: 1}),
                                    Counter({key_a: 1, key_b: 2}))
    assert lost == [f"channel {CH} hand #1 user {BOB}: 2 acknowledged, 1 stored"]
    assert doubled == []
    lost, doubled = action_problems(db, Counter({key_b: 1}), Counter())
    assert lost == [] and doubled == [f"channel {CH} hand #1 user {ALICE}: 1 stored, 0 sent"]


def test_a_live_message_must_show_a_run_of_the_stored_actions() -> None:
    db = stored([(ALICE, "call", "player"), (BOB, "check", "player"),
                 (ALICE, "allin", "player")])
    shown = "**Hand #1** · Pot Limit Omaha 1/2 · Flop\n> bob checks\n> alice bets 40 and is all-in"
    assert told_problems(db, [Version(CH, 5, shown)], NAMES) == []
    skipped = "**Hand #1** · Flop\n> alice calls 2\n> alice bets 40 and is all-in"
    extra = "**Hand #1** · Flop\n> bob checks\n> alice bets 40 and is all-in\n> bob folds"
    for content in (skipped, extra):
        (problem,) = told_problems(db, [Version(CH, 6, content)], NAMES)
        assert problem.startswith(f"channel {CH} hand #1: message 6 shows")


def test_a_result_or_a_cancellation_told_must_be_the_stored_status() -> None:
    result = Version(CH, 7, "**Hand #1 result** · Pot Limit Omaha 1/2\nalice wins 6")
    cancelled = Version(CH, 8, "Hand #1 was interrupted and is cancelled; stacks are as before it.")
    assert told_problems(stored([], "finished"), [result], NAMES) == []
    assert told_problems(stored([], "running"), [result], NAMES) == [
        f"channel {CH} hand #1: result posted, running in the database"]
    assert told_problems(stored([], "cancelled"), [cancelled], NAMES) == []
    assert told_problems(stored([], "finished"), [cancelled], NAMES) == [
        f"channel {CH} hand #1: said cancelled, finished in the database"]
