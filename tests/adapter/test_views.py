"""Every button, view and modal the bot builds is one Discord accepts (both offline Discords).

The bot's components are built from live data (table ids, tokens, chip
amounts up to 10^15); this posts each kind, with the largest values, through
the in-process offline Discord (which refuses what Discord refuses, invalid
emoji included) and checks it against the process-level fake's rules too.
A new view, modal or dynamic item in ``cogs/`` fails
``test_every_component_class_is_covered`` until it is added here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
import pytest
from simcord.components import validate_modal

import bot.adapter
import cogs
from bot.adapter.after_hand import AfterHandButton
from bot.adapter.bomb_votes import BombPotButton
from bot.adapter.fold_question import FoldAnswerButton
from bot.adapter.game_choice import ChooseButton, PickButton
from bot.adapter.leaderboard import Board, LeaderboardPager
from bot.adapter.polite import PoliteModal, PoliteView
from bot.adapter.seat_buttons import SeatButton
from bot.adapter.views import (
    PRE_ACTIONS,
    ActionButton,
    CardsButton,
    MySeatButton,
    PreActionButton,
    RaiseModal,
    RunTwiceButton,
    Unkept,
    live_buttons,
    result_buttons,
    turn_buttons,
)
from bot.engine.variants import VARIANTS, Structure
from bot.i18n import LOCALES, translate
from bot.runtime.config import TableConfig
from bot.runtime.mix import Game, named
from bot.runtime.table.views import HandResultView, TableSnapshot, TurnView, Way
from bot.storage import MAX_AMOUNT, Metric, Period
from cogs.hands import OpenHandButton, ReplayButton
from tests.cogs.test_prefs import play_hand
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness, buttons_of
from tests.fakediscord.limits import message_problems, modal_problems

BIG_TABLE = 10**12
TOKEN = "999999.999999"


def turn(**changes: Any) -> TurnView:
    """A decision with the largest amounts a table allows."""
    values: dict[str, Any] = {
        "token": TOKEN, "seat": 10, "user_id": 2**63, "name": "N" * 32, "can_check": False,
        "to_call": MAX_AMOUNT // 2, "min_raise_to": MAX_AMOUNT // 2 + 1,
        "max_raise_to": MAX_AMOUNT - 1, "is_bet": False, "all_in_to": MAX_AMOUNT - 1,
        "current_bet": MAX_AMOUNT // 2, "pot": MAX_AMOUNT, "clock": 600.0,
        "time_bank": 3600.0, "deadline": 0.0,
        "presets": (("Min", MAX_AMOUNT // 2 + 1), ("½ Pot", MAX_AMOUNT - 3),
                    ("Pot", MAX_AMOUNT - 2)),
    }
    values.update(changes)
    return TurnView(**values)


TURNS = {
    "call, raise sizes, all-in, form": turn(),
    "check, bet": turn(can_check=True, to_call=0, is_bet=True),
    "all-in above the limit": turn(all_in_to=MAX_AMOUNT, max_raise_to=MAX_AMOUNT - 1),
    "one raise size only": turn(min_raise_to=MAX_AMOUNT - 1, max_raise_to=MAX_AMOUNT - 1),
    "cannot raise": turn(min_raise_to=None, max_raise_to=None, presets=()),
}


def snapshot() -> TableSnapshot:
    return TableSnapshot(
        table_id=BIG_TABLE, guild_id=1, channel_id=2, creator_id=3,
        config=TableConfig.create(seats=10), seats=(),
    )


def dynamic_items() -> list[discord.ui.DynamicItem[Any]]:
    items: list[discord.ui.DynamicItem[Any]] = [CardsButton(BIG_TABLE)]
    items += [MySeatButton(BIG_TABLE, lang, reopen=reopen)
              for lang in LOCALES for reopen in (False, True)]
    items += [PreActionButton(BIG_TABLE, choice) for choice in PRE_ACTIONS]
    for kind in ("fold", "check", "call", "allin", "form"):
        items.append(ActionButton(BIG_TABLE, TOKEN, kind, label=kind.title()))
    items.append(ActionButton(BIG_TABLE, TOKEN, "raise", MAX_AMOUNT, label="Pot · raise to"))
    items.append(OpenHandButton(2**63 - 1, f"T{2**63 - 1} #{2**63 - 1}"))  # /hands
    items.append(ReplayButton(2**63 - 1, "Repetición"))  # /hand show
    items += [RunTwiceButton(BIG_TABLE, TOKEN, choice, label="Girare due volte")
              for choice in ("twice", "once")]
    items += [BombPotButton(BIG_TABLE, TOKEN, choice, label="Rechazar")
              for choice in ("yes", "no")]
    items += [SeatButton(BIG_TABLE, 2**63, Way(kind, MAX_AMOUNT), "pt-BR")
              for kind in ("topup", "sitin", "post", "stay", "leave")]
    items.append(ChooseButton(BIG_TABLE, "0123abcd", "es-ES"))  # dealer's choice
    longest = max((named(Game(k, s)).to(lang) for k in VARIANTS for s in Structure
                   for lang in LOCALES), key=len)
    items += [PickButton(BIG_TABLE, "0123abcd", index, longest) for index in (0, 7)]
    items += [AfterHandButton(BIG_TABLE, 2**63 - 1, what, "Caccia al coniglio")
              for what in ("rabbit", "show", "one", "card0", "card5")]
    items += [FoldAnswerButton(BIG_TABLE, TOKEN, answer, translate(lang, "button.fold_anyway"))
              for answer in ("fold", "check") for lang in LOCALES]
    return items


def views(h: Harness) -> dict[str, discord.ui.View]:
    """Every view the bot posts, by name."""
    built: dict[str, discord.ui.View] = {
        "live, no turn": live_buttons(snapshot(), None),
        "live, the run-it-twice question": live_buttons(snapshot(), None, TOKEN),
    }
    result = HandResultView(2**63 - 1, (), (), rabbit_hunt=True, showing=True)
    for lang in ("en", "pt-BR", "es-ES", "es-419", "it"):
        snap = replace(snapshot(), config=TableConfig.create(language=lang), hand_id=2**63 - 1)
        buttons = result_buttons(snap, result, lang)
        assert buttons is not None
        built[f"a result with its after-hand buttons, {lang}"] = buttons
    for name, t in TURNS.items():
        built[f"turn buttons: {name}"] = turn_buttons(snapshot(), t)
        built[f"live buttons: {name}"] = live_buttons(snapshot(), t)
    for item in dynamic_items():
        view = discord.ui.View(timeout=None)
        view.add_item(item)
        built[f"dynamic item {item.item.custom_id}"] = view
    board = Board(1, Metric.NET_WON, Period.WEEK, "omaha")
    for page, total in ((0, 1), (0, 10**6), (10**5 - 1, 10**6)):
        built[f"leaderboard pager {page}/{total}"] = LeaderboardPager(
            h.bot.app.economy, board, owner_id=1, page=page, total=total)
    return built


def modals() -> dict[str, discord.ui.Modal]:
    return {f"raise form: {name}, {structure.value}": RaiseModal(BIG_TABLE, TOKEN, t, structure)
            for name, t in TURNS.items() if t.min_raise_to is not None for structure in Structure}


#: Each component class in cogs/ and what builds it here.
COVERED: dict[type, Callable[..., Any]] = {
    ActionButton: dynamic_items,
    CardsButton: dynamic_items,
    MySeatButton: dynamic_items,
    PreActionButton: dynamic_items,
    LeaderboardPager: views,
    Unkept: views,  # a result's Hand log and after-hand buttons
    RaiseModal: modals,
    OpenHandButton: dynamic_items,
    ReplayButton: dynamic_items,
    RunTwiceButton: dynamic_items,
    SeatButton: dynamic_items,
    ChooseButton: dynamic_items,
    PickButton: dynamic_items,
    AfterHandButton: dynamic_items,
    BombPotButton: dynamic_items,
    FoldAnswerButton: dynamic_items,
}
#: Bases for the others: built only through a subclass.
BASES = {PoliteView, PoliteModal}


def qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def component_classes() -> set[str]:
    """Qualified names (a loaded cog's module is a fresh copy, so classes are compared by name)."""
    found: set[str] = set()
    modules = [
        *pkgutil.walk_packages(cogs.__path__, "cogs."),
        *pkgutil.walk_packages(bot.adapter.__path__, "bot.adapter."),
    ]
    for module_info in modules:
        module = importlib.import_module(module_info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ != module.__name__:
                continue
            if issubclass(value, discord.ui.View | discord.ui.Modal | discord.ui.DynamicItem):
                found.add(qualname(value))
    return found


def test_every_component_class_is_covered() -> None:
    """Each view, modal and dynamic item of cogs/ and bot/adapter/ is built by these tests."""
    assert component_classes() == {qualname(c) for c in (*COVERED, *BASES)}


async def test_every_view_posts_on_discord(harness: Harness) -> None:
    """Every view (hand, turn, each dynamic item, the pager) posts; the fake finds no fault."""
    h = harness
    channel = h.bot.get_partial_messageable(h.channel.id, guild_id=h.guild.id)
    built = views(h)
    for name, view in built.items():
        body = {"content": name, "components": view.to_components()}
        assert message_problems(body) == [], name
        message = await channel.send(name, view=view)
        assert message.components, name
    assert len(h.public_messages()) == len(built)


def test_the_my_cards_button_has_an_emoji_discord_accepts() -> None:
    """The My cards button (on messages posted before the seat panel) keeps an emoji, a
    real one (🂠 is a playing card, not an emoji); My seat has one too."""
    rows = [{"type": 1, "components": [CardsButton(BIG_TABLE).item.to_component_dict()]}]
    assert rows[0]["components"][0]["emoji"]["name"] == "🃏"
    assert message_problems({"components": rows}) == []
    live = live_buttons(snapshot(), None).to_components()
    [button] = [c for row in live for c in row["components"]
                if c["custom_id"] == f"omaha:myseat:{BIG_TABLE}"]
    assert button["emoji"]["name"] == "🪑"
    assert message_problems({"components": live}) == []


def test_dynamic_items_answer_their_own_custom_ids() -> None:
    """A posted button's custom_id matches its class's template (or clicks would go nowhere)."""
    for item in dynamic_items():
        custom_id = item.item.custom_id
        assert custom_id is not None and len(custom_id) <= 100
        assert type(item).__discord_ui_compiled_template__.fullmatch(custom_id), custom_id


@pytest.mark.parametrize("name", sorted(modals()))
def test_every_modal_opens_on_discord(name: str) -> None:
    """The raise form passes both offline Discords' modal checks at the largest amounts."""
    data = modals()[name].to_dict()
    validate_modal(data)
    assert modal_problems(data) == []


async def test_min_and_all_in_never_show_the_same_amount(harness: Harness) -> None:
    """Issue 23: a short stack whose least raise is all-in sees one button for it, All-in,
    not Min and All-in with the same amount (heads-up, 4 chips each, blinds 1-2: the small
    blind has 3 behind, the least raise is to 4, all of it)."""
    h = harness
    h.bot.registry.pause = 10.0
    await h.slash(h.alice, "table create", min_buyin=4)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="4")
    await h.advance(10.1)
    turn_message = next(m for m in reversed(h.public_messages())
                        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)))
    raises = [(str(b.label), str(b.custom_id)) for b in buttons_of(turn_message)
              if ":raise:" in str(b.custom_id) or str(b.custom_id).endswith(":allin")]
    assert [label for label, _ in raises] == ["All-in 4"], raises


async def test_no_sent_view_is_kept_hand_after_hand(harness: Harness) -> None:
    """discord.py keeps a sent view with plain buttons for as long as the process runs
    (its persistent views): the results' **Hand log** buttons made that one view a hand,
    about 13,000 an hour at 100 tables. After three hands played with the buttons, with
    their results and Hand log buttons posted, it keeps none, and a Hand log button still
    opens its hand (its dynamic item answers)."""
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    for hand in (1, 2, 3):
        await h.advance(PAUSE + 0.1)
        await play_hand(h, hand)
    assert h.bot.persistent_views == []
    label = translate("en", "button.hand_log")
    [*_, result] = [m for m in h.public_messages()
                    if any(str(b.label) == label for b in buttons_of(m))]
    opened = await h.click(h.bob, result, label=label)
    assert opened.ephemeral and translate("en", "hand.every_action") in opened.all_text
