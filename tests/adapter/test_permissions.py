"""/table create and /tournament create refuse a channel where the bot cannot run a table,
and a private thread (RULES.md 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from simcord import ChannelHandle

from bot.adapter.permissions import (
    CHANNEL_NEEDS,
    INVITE_PERMISSIONS,
    THREAD_NEEDS,
    UI_NAMES,
    MissingChannelPermissions,
)
from bot.i18n import translate
from bot.runtime.errors import TableError
from bot.settings import TOKEN_HELP
from tests.conftest import Harness

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.tournament")


CREATE = {"table create": {}, "tournament create": {"buy_in": 100}}


async def assert_refused(
    h: Harness, command: str, channel: ChannelHandle | None, *names: str
) -> None:
    """The command is refused privately naming ``names``; no table, no post, no chip moved."""
    where = channel or h.channel
    before = len(h.public_messages(where))
    balance = await h.balance(h.alice)
    reply = await h.slash(h.alice, command, channel=where, **CREATE[command])
    assert reply.ephemeral, reply
    assert reply.text.startswith("I cannot run a table here: I am missing the "), reply.text
    for name in names:
        assert name in reply.text, (name, reply.text)
    assert h.bot.registry.find(where.id) is None
    with pytest.raises(TableError):
        h.bot.tournaments.in_channel(where.id)
    assert len(h.public_messages(where)) == before
    assert await h.balance(h.alice) == balance


@pytest.mark.parametrize("command", sorted(CREATE))
@pytest.mark.parametrize("permission", CHANNEL_NEEDS)
async def test_each_missing_permission_is_named(
    harness: Harness, command: str, permission: str
) -> None:
    """Without any one of the five, creating is refused with the permission's name in Discord."""
    h = harness
    h.deny_bot(permission)
    await assert_refused(h, command, None, UI_NAMES[permission])


async def test_every_missing_permission_is_named_at_once(harness: Harness) -> None:
    """Several missing: one message names them all, as Discord's settings show them."""
    h = harness
    h.deny_bot("attach_files", "embed_links")
    await assert_refused(h, "table create", None, "Embed Links and Attach Files")
    h.deny_bot("read_message_history")
    await assert_refused(
        h, "tournament create", None,
        "Embed Links, Attach Files and Read Message History permissions",
    )


@pytest.mark.parametrize("command", sorted(CREATE))
async def test_a_thread_needs_send_messages_in_threads(harness: Harness, command: str) -> None:
    """In a thread Discord checks Send Messages in Threads: without it, refused by name."""
    h = harness
    thread = h.add_thread("high stakes")
    h.deny_bot("send_messages_in_threads")
    await assert_refused(h, command, thread, "Send Messages in Threads")
    # the channel itself is fine: Send Messages in Threads is not needed there
    reply = await h.slash(h.alice, command, **CREATE[command])
    assert not reply.ephemeral, reply


@pytest.mark.parametrize("command", sorted(CREATE))
@pytest.mark.parametrize("locale", ["en-US", "es-ES", "es-419", "it", "pt-BR"])
async def test_a_private_thread_is_refused(harness: Harness, command: str, locale: str) -> None:
    """Tables open only in channels and public threads (RULES.md 7): a private thread's
    members can remove the bot from it. Refused privately, in the member's language, and
    nothing changes; the same member then opens it in a public thread."""
    h = harness
    thread = h.add_thread("just us", private=True, members=(h.alice, h.bob))
    h.set_locale(h.alice, locale)
    balance = await h.balance(h.alice)
    reply = await h.slash(h.alice, command, channel=thread, **CREATE[command])
    assert reply.ephemeral and reply.text == translate(locale, "refuse.private_thread"), reply
    assert h.bot.registry.find(thread.id) is None
    with pytest.raises(TableError):
        h.bot.tournaments.in_channel(thread.id)
    assert h.public_messages(thread) == [] and await h.balance(h.alice) == balance
    assert not await h.bot.db.tables.list_open()
    public = h.add_thread("everyone")
    assert not (await h.slash(h.alice, command, channel=public, **CREATE[command])).ephemeral


async def test_a_thread_does_not_need_send_messages(harness: Harness) -> None:
    """Send Messages is the channel's permission; a table in a thread works without it."""
    h = harness
    thread = h.add_thread("high stakes")
    h.deny_bot("send_messages")
    reply = await h.slash(h.alice, "table create", channel=thread)
    assert not reply.ephemeral and "is open" in reply.text, reply
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", channel=thread, buyin="100")
    await h.advance(60)
    assert any(m.content.startswith("**Hand #1**") for m in thread.history())


def test_thread_and_channel_needs_are_the_invite_set() -> None:
    """The invite asks for exactly what a table needs in a channel and in a thread."""
    wanted = set(CHANNEL_NEEDS) | set(THREAD_NEEDS)
    granted = {name for name, on in INVITE_PERMISSIONS if on}
    assert granted == {"read_messages" if n == "view_channel" else n for n in wanted}
    assert INVITE_PERMISSIONS.value == 274_878_024_704
    assert str(MissingChannelPermissions(["view_channel"])).count("permission ") == 1


@pytest.mark.parametrize("where", ["README.md", ".env.example", "token help"])
def test_the_invite_help_asks_for_exactly_what_a_table_needs(where: str) -> None:
    """README, .env.example and the missing-token help give every permission and the integer."""
    text = TOKEN_HELP if where == "token help" else (REPO / where).read_text()
    lines = (line.lstrip("# ") for line in text.replace('"', "").splitlines())
    text = " ".join(" ".join(lines).split())  # quotes, comment marks and line breaks aside
    assert str(INVITE_PERMISSIONS.value) in text
    for name in UI_NAMES.values():
        assert name in text, (where, name)
    assert "applications.commands" in text
    assert re.search(r"[Nn]o privileged (gateway )?intent", text), where


def test_readme_invite_url_grants_the_permissions() -> None:
    """The README's invite URL carries the scopes and the computed permission integer."""
    readme = (REPO / "README.md").read_text()
    url = next(line.strip() for line in readme.splitlines() if "oauth2/authorize" in line)
    assert "scope=bot%20applications.commands" in url
    assert url.endswith(f"permissions={INVITE_PERMISSIONS.value}")
