"""The night's ledger's words and CSV: formulas guarded, RFC 4180, one message."""

from __future__ import annotations

import csv
import io

import pytest

from bot.adapter.limits import CONTENT
from bot.adapter.night_ledger import CSV_HEADER, guarded, ledger_csv, ledger_text
from bot.storage import SessionLedger, SessionLine


def _ledger(count: int) -> SessionLedger:
    """``count`` players: the first wins what the others lose, 10 each."""
    lines = [SessionLine(1, buy_ins=100, top_ups=0, cash_outs=0, stack=100 + 10 * (count - 1))]
    lines += [SessionLine(i, buy_ins=100, top_ups=20, cash_outs=50, stack=60)
              for i in range(2, count + 1)]
    return SessionLedger(7, 1, 2, 3, 1_767_225_600.0, None, tuple(lines))


@pytest.mark.parametrize("name", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\r=x"])
def test_a_name_a_spreadsheet_would_run_is_kept_as_text(name: str) -> None:
    assert guarded(name) == "'" + name
    [_, row] = list(csv.reader(io.StringIO(ledger_csv(_ledger(1), {1: name}).decode(),
                                           newline="")))
    assert row[0] == "'" + name


def test_other_names_are_left_as_they_are_and_quoted_when_needed() -> None:
    names = {1: 'Jo, "the rock"', 2: "two\nlines", 3: "Zoë 1-2", 4: "a=b"}
    data = ledger_csv(_ledger(4), names).decode("utf-8")
    assert data.startswith(",".join(CSV_HEADER) + "\r\n")
    assert '"Jo, ""the rock"""' in data  # RFC 4180: the field quoted, its quotes doubled
    header, *rows = csv.reader(io.StringIO(data, newline=""))
    assert tuple(header) == CSV_HEADER
    assert [r[0] for r in rows] == [names[1], names[2], names[3], names[4]]
    assert [int(r[6]) for r in rows] == [30, -10, -10, -10]
    assert sum(int(r[6]) for r in rows) == 0


def test_a_crowded_session_fits_one_message_and_keeps_its_total() -> None:
    """Sixty players with 32-letter names: the players' lines are cut (saying how many
    more), never the head or the total."""
    ledger = _ledger(60)
    names = {x.user_id: "W" * 32 for x in ledger.lines}
    text = ledger_text(ledger, names, "en", lead="A lead line.")
    assert len(text) <= CONTENT
    lines = text.splitlines()
    assert lines[0] == "A lead line." and lines[1].startswith("**Night's ledger** · table 7")
    assert lines[-1].startswith("Total 0:") and "more" in lines[-2]
    assert lines[2].startswith("1. **" + "W" * 32 + "** +590 · buy-ins 100")
