"""What a seat panel shows (bot/adapter/seat_panel_view.py), from snapshots: what the
player holds in words (hi-lo: the low too), their net once the hand is over, the buttons
by whose turn it is, and every panel within Discord's limits at the largest amounts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.adapter.seat_panel_view import (
    Seen,
    closed_panel,
    panel_buttons,
    panel_cards,
    panel_text,
    stale_panel,
)
from bot.engine.cards import parse_cards
from bot.engine.events import Street
from bot.i18n import LOCALES, number, translate
from bot.runtime.config import TableConfig
from bot.runtime.seating import PreAction
from bot.runtime.table.views import HandResultView, SeatSnapshot, TableSnapshot, TurnView
from bot.storage import MAX_AMOUNT
from tests.fakediscord.limits import message_problems

ME, OTHER = 11, 22


def snap(variant: str = "omaha", **changes: object) -> TableSnapshot:
    seats = (SeatSnapshot(1, ME, "me", 180, bet=2, in_hand=True, dealt_in=True),
             SeatSnapshot(2, OTHER, "other", 170, bet=10, in_hand=True, dealt_in=True))
    base = TableSnapshot(table_id=7, guild_id=1, channel_id=2, creator_id=3,
                         config=TableConfig.create(variant), seats=seats, hand_no=4,
                         street=Street.FLOP, board=parse_cards("7c 5d 2h"), pot=32)
    return replace(base, **changes)  # type: ignore[arg-type]


def turn(user_id: int, **changes: object) -> TurnView:
    base = TurnView(
        token="4.9", seat=1 if user_id == ME else 2, user_id=user_id, name="me",
        can_check=False, to_call=8, min_raise_to=18, max_raise_to=40, is_bet=False,
        all_in_to=182, current_bet=10, pot=32, clock=30.0, time_bank=60.0, deadline=0.0,
        presets=(("Min", 18), ("Pot", 40)))
    return replace(base, **changes)  # type: ignore[arg-type]


def seen(table: TableSnapshot, locale: str = "en", **changes: object) -> Seen:
    hole = parse_cards("Ah 3s Kd Kc")
    base = Seen(ME, locale, table, board=table.board, cards=panel_cards(hole, table.board, table))
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_hi_lo_panel_names_the_high_and_the_low() -> None:
    text = panel_text(seen(snap("omaha_hilo")))
    assert "Your cards: " in text and "pair of kings" in text and "7-5-3-2-A" in text, text
    assert "Board: 7♣ 5♦ 2♥" in text and "**8** to call · your stack 180" in text, text


def test_before_the_flop_no_hand_is_named() -> None:
    table = snap(board=(), street=Street.PREFLOP)
    text = panel_text(seen(table))
    assert "you have" not in text and "Board" not in text, text


def test_the_players_turn_shows_the_pot_the_clock_and_live_buttons() -> None:
    text = panel_text(seen(snap(), turn=turn(ME), deadline=1_800_000_000.0))
    assert "**Your turn** · pot **32** · time runs out <t:1800000000:R> (+60 s time bank)." \
        in text, text
    buttons = [c for row in panel_buttons(seen(snap(), turn=turn(ME))).to_components()
               for c in row["components"]]
    assert [b["label"] for b in buttons][:2] == ["Fold", "Call 8"]
    assert not any(b.get("disabled") for b in buttons)
    assert all(":4.9:" in b["custom_id"] for b in buttons)  # the turn's token


def test_waiting_shows_disabled_actions_and_the_pre_action_set() -> None:
    view = seen(snap(), turn=turn(OTHER), pre_action=PreAction.CALL_ANY)
    text = panel_text(view)
    assert "Your pre-action: **call any**" in text and "Your turn" not in text, text
    buttons = [c for row in panel_buttons(view).to_components() for c in row["components"]]
    assert [(b["label"], bool(b.get("disabled"))) for b in buttons[:2]] == [
        ("Fold", True), ("Call 8", True)]
    styles = {b["label"]: b["style"] for b in buttons[2:]}
    assert styles == {"Check/Fold": 2, "Call any": 1, "Fold to any bet": 2, "No pre-action": 2}


def test_folded_and_over() -> None:
    folded = replace(snap(), seats=(replace(snap().seats[0], in_hand=False, folded=True),
                                    snap().seats[1]))
    view = seen(folded, turn=turn(OTHER))
    assert "You folded" in panel_text(view) and not panel_buttons(view).children
    result = HandResultView(4, parse_cards("7c 5d 2h 9s Jd"), ("other wins 32",),
                            payouts={2: 32}, net={1: -12, 2: 12})
    over = panel_text(seen(snap(), result=result))
    assert "**Hand #4 is over.**" in over and "Your net for the hand: **−12**" in over, over
    assert not panel_buttons(seen(snap(), result=result)).children


def test_no_hand_and_stale() -> None:
    assert panel_text(Seen(ME, "en", None)) == translate("en", "panel.no_hand")
    text, view = stale_panel("pt-BR", 7)
    assert "**Reabrir**" in text
    [button] = [c for row in view.to_components() for c in row["components"]]
    assert button["label"] == "Reabrir" and button["custom_id"] == "omaha:myseat:7"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_closed_tables_last_words(locale: str) -> None:
    """The table's name, and the chips returned when any were (as the language counts)."""
    name = translate(locale, "table.name", number="7")
    nothing, one, many = (closed_panel(locale, 7, n) for n in (None, 1, 1500))
    assert all(x.startswith(f"**{name}**") for x in (nothing, one, many))
    assert f" {number(locale, 1500)} " in many and " 1 " in one and "1" not in nothing
    assert one != many.replace(number(locale, 1500), "1")  # "chip" and "chips"


def test_a_closed_tables_panel_ends_with_its_last_words_and_no_button() -> None:
    last = closed_panel("en", 7, 180)
    result = HandResultView(4, parse_cards("7c 5d 2h 9s Jd"), ("other wins 32",),
                            payouts={2: 32}, net={1: -12, 2: 12})
    text = panel_text(seen(snap(), result=result, closed=last))
    assert "**Hand #4 is over.**" in text and text.endswith(f"\n{last}"), text
    assert panel_text(Seen(ME, "en", None, closed=last)) == last
    assert not panel_buttons(seen(snap(), turn=turn(ME), closed=last)).children


@pytest.mark.parametrize("locale", LOCALES)
def test_every_panel_fits_discords_limits_at_the_largest_amounts(locale: str) -> None:
    big = snap(table_id=10**12, pot=MAX_AMOUNT, seats=(
        SeatSnapshot(10, ME, "N" * 32, MAX_AMOUNT - 1, bet=1, in_hand=True, dealt_in=True),
        SeatSnapshot(9, OTHER, "M" * 32, 0, bet=MAX_AMOUNT // 2, in_hand=True,
                     dealt_in=True, all_in=True)))
    mine = turn(ME, to_call=MAX_AMOUNT // 2, min_raise_to=MAX_AMOUNT // 2 + 1,
                max_raise_to=MAX_AMOUNT - 1, all_in_to=MAX_AMOUNT - 1, token="999999.999999",
                presets=(("Min", MAX_AMOUNT // 2 + 1), ("½ Pot", MAX_AMOUNT - 3),
                         ("Pot", MAX_AMOUNT - 2)))
    for view in (seen(big, locale, turn=mine, deadline=2e9),
                 seen(big, locale, turn=turn(OTHER), pre_action=PreAction.CHECK_FOLD)):
        body = {"content": panel_text(view), "components": panel_buttons(view).to_components()}
        assert message_problems(body) == [], body
