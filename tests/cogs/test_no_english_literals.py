"""No user-visible text in cogs/ is a bare English literal (issue 13).

Every reply, button label, form label, embed and footer the cogs hand to
Discord must come from the catalogs (``translate`` or a ``Phrase``), so it speaks
the reader's language. This scans the cogs' source with ``ast`` for string
literals (and f-strings with words in their fixed parts) passed where Discord
shows them:

* the text of ``send_message`` / ``send`` / ``edit`` / ``edit_original_response``
  / ``edit_message`` / ``reply`` (first argument or ``content=``), and of
  ``reply_private`` / ``send_private`` (second argument);
* ``label=`` and ``placeholder=`` (buttons, text inputs), ``title=`` and
  ``description=`` of an ``Embed``, ``name=`` / ``value=`` of ``add_field``,
  ``text=`` of ``set_footer``.

Allowed: text with no word in it (emoji, punctuation, numbers, one letter) and
Discord's own markup (``<@id>``, ``<#id>``, ``<t:…:R>``). Command names and
descriptions are not scanned here: ``bot/adapter/translator.py`` localizes them and
``tests/adapter/test_translator.py`` checks them. ``bot/offline`` (the offline
Discord the tests and the demo drive) is not the bot's voice.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The Discord side: the extensions and the adapter they build on (not the offline Discord).
DISCORD_SIDE = (ROOT / "cogs", ROOT / "bot" / "adapter")

#: Calls whose first argument (or ``content=``) is text shown to a user.
TEXT_CALLS = {"send_message", "send", "edit", "edit_original_response", "edit_message", "reply"}
#: Calls whose second argument is text shown to a user (the first is the interaction).
PRIVATE_CALLS = {"reply_private", "send_private"}
#: Keywords shown to a user, whatever the call.
SHOWN_KEYWORDS = {"content", "label", "placeholder"}
#: Keywords shown to a user on these calls only.
CALL_KEYWORDS = {"Embed": {"title", "description"}, "add_field": {"name", "value"},
                 "set_footer": {"text"}}

_MARKUP = re.compile(r"<[@#]|<t:|:[RfFdDtT]>|`")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _shown(call: ast.Call) -> list[ast.expr]:
    name = _name(call)
    out: list[ast.expr] = []
    if name in TEXT_CALLS and call.args:
        out.append(call.args[0])
    if name in PRIVATE_CALLS and len(call.args) > 1:
        out.append(call.args[1])
    keys = SHOWN_KEYWORDS | CALL_KEYWORDS.get(name, set())
    out += [kw.value for kw in call.keywords if kw.arg in keys]
    return out


def _fixed_text(node: ast.expr) -> str | None:
    """The literal words of ``node`` when it is a string literal or an f-string, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(v.value for v in node.values
                        if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp):  # "..." + something
        parts = [_fixed_text(node.left), _fixed_text(node.right)]
        return " ".join(p for p in parts if p) or None
    return None


def english_literals(source: str, where: str = "<source>") -> list[str]:
    """``file:line: text`` for each bare literal with words shown to a user in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for shown in _shown(node):
            text = _fixed_text(shown)
            if text is not None and _WORD.search(_MARKUP.sub(" ", text)):
                found.append(f"{where}:{shown.lineno}: {text!r}")
    return found


def test_no_reply_or_label_in_cogs_is_a_bare_english_literal() -> None:
    files = [p for side in DISCORD_SIDE for p in sorted(side.rglob("*.py"))]
    assert len(files) > 20
    found = [hit for p in files
             for hit in english_literals(p.read_text(encoding="utf-8"), p.name)]
    assert not found, "\n".join(found)


def test_the_scan_finds_what_it_looks_for() -> None:
    """Each kind of place is caught, and what is allowed is let through."""
    caught = english_literals('''
await interaction.response.send_message("Table 3 is open.")
await interaction.followup.send(f"You sat down at seat {n}.", ephemeral=True)
await interaction.edit_original_response(content=f"Done: {x}.")
await reply_private(interaction, "No hand is being played here.")
discord.ui.Button(label="My cards")
discord.Embed(title="Every action", description=text)
embed.set_footer(text="Deck commitment: " + c)
''')
    assert len(caught) == 7, caught
    allowed = english_literals('''
await interaction.response.send_message(translate(locale, "table.open", n=3))
await reply_private(interaction, Phrase("reply.left", count=2))
discord.ui.Button(label="▶", emoji="🃏")
await channel.send(f"<@{user}> <t:{when}:R> {text}")
discord.Embed(title=translate(locale, "result.log"))
''')
    assert allowed == []
