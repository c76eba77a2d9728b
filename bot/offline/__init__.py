"""The offline Discord: the real bot driven in-process by simulated members.

Shipped with the bot (not kept in ``tests/``) because two things use it: the
tests (``tests/conftest.py`` builds its fixtures on it) and ``python -m bot
demo`` (:mod:`bot.demo`), which must run from a plain ``pip install``. It
lives under ``cogs/`` because this is Discord-facing code: only ``cogs/``,
``bot/client.py`` and ``bot/__main__.py`` may import discord.py (and simcord,
which is discord.py's stand-in here); ``tests/test_layers.py`` checks it. The
package has no ``setup`` and is never loaded as an extension.

* :mod:`bot.offline.settling`: rules added to simcord so the bot's long-lived
  tasks count as idle and long timers fire only on ``advance`` (applied once,
  on import);
* :mod:`bot.offline.refusals`: Discord's refusals simcord lacks (invalid
  emoji on components; Attach Files and Embed Links), applied once, on import;
  simcord already refuses what is too long or too many, with Discord's codes;
* :mod:`bot.offline.uploads`: the upload limit Discord tells with every interaction
  (``Harness.set_upload_limit``), and its 413 for a larger file;
* :mod:`bot.offline.gateway`: the gateway connection cut and back (resumed, or a new
  session), told to the bot as discord.py tells it (``Harness.drop_gateway``,
  ``restore_gateway``); what members do meanwhile never reaches the bot;
* interaction responses: simcord follows Discord's documented rule, and nothing
  here changes it. Discord's "Create Followup Message" (discord/discord-api-docs,
  docs/interactions/receiving-and-responding): "When using this endpoint directly
  after responding to an interaction with ``DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE``,
  this endpoint will function as Edit Original Interaction Response for backwards
  compatibility. In this case, no new message will be created, and the loading
  message will be edited instead. The ephemeral flag will be ignored, and the value
  you provided in the initial defer response will be preserved, as an ephemeral
  message cannot be converted to a non-ephemeral message and vice versa." So the
  first followup after a "thinking…" edits it and keeps its visibility; a followup
  after the "thinking…" was deleted answers 404 Unknown Message (10008): deleting
  it is no way to change the visibility. Only once the original is edited is a
  followup a new message with its own flags (:func:`bot.adapter.polite.announce`);
  ``tests/offline/test_followups.py`` holds simcord (and ``tests/fakediscord``) to it;
* :mod:`bot.offline.harness`: :class:`~bot.offline.harness.Harness` (one
  guild, ``#poker``, five members, verbs to act and read),
  :class:`~bot.offline.harness.FakeWallClock` and
  :func:`~bot.offline.harness.offline`, which runs a bot in the offline
  Discord and closes it (tables stopped, database closed) on the way out;
* :mod:`bot.offline.replies`: :class:`~bot.offline.replies.Reply` (what the
  bot answered to one interaction) and :func:`~bot.offline.replies.buttons_of`
  (the harness module exports both too).

Decision: simcord (pinned ``simcord==3.2.1``) is a regular dependency
----------------------------------------------------------------------
The demo has to work after the README's one install command
(``pip install -e .``, or a plain ``pip install .``), so simcord moved from
the ``test`` extra to ``dependencies``. A ``demo`` extra was the alternative;
it would make the README's install line longer and leave ``python -m bot
demo`` broken after the ordinary install, for a pure-Python package of a few
hundred kilobytes whose only dependency (discord.py) the bot has anyway.
Nothing imports it unless the demo or the tests run: the bot itself never
does. The pin stays exact because :mod:`bot.offline.settling` and
:meth:`~bot.offline.harness.Harness.concurrently` use simcord internals
(``simcord._settlement``, ``Env._settle_internal``).

Decision: simcord is the in-process offline Discord, extended rather than replaced
----------------------------------------------------------------------------------
simcord replaces discord.py's two seams (``HTTPClient.request`` and the
gateway parsers) with an in-memory Discord, so the real ``OmahaDealer``, its
cogs, views, converters and checks run unmodified. Evaluated against what the
bot needs, with the bot's real aiosqlite database and Pillow rendering in
worker threads:

* several users, a guild, channels, roles and permissions: yes (builders);
* slash commands, subcommand groups (``/table create``, ``/chips grant``),
  choices and option validation, unsynced commands refused: yes;
* buttons, modals (values keyed by the text input's ``custom_id``: give every
  ``TextInput`` an explicit ``custom_id``), ephemeral replies, deferrals,
  followups, message edits, persistent views across ``restart()``: yes;
* DMs with attachments: yes; attachment bytes are readable (``await
  attachment.read()``); DMs closed: not modelled for humans, so
  :meth:`Harness.close_dms` makes every send to that user's DM channel fail
  with Discord's real error (403, code 50007) through ``env.inject_error``;
* time: simcord runs timers on a virtual clock that :meth:`Harness.advance`
  moves instantly (the runtime's ``LoopClock`` follows it), but by default a
  timer shorter than its 5 s settle timeout also fires by the wall clock in
  the middle of an action, so a 3 s reminder would fire (slowly, and at a
  moment that depends on the machine's speed) without ``advance``.
  :mod:`bot.offline.settling` adds a rule: a task waiting for a timer at
  least ``VIRTUAL_TIMER_MIN`` (1 s) away (``asyncio.sleep``, ``wait_for``,
  ``asyncio.timeout``) is parked and its wall-clock fallback dropped; it fires
  only when time is advanced. Tests and the demo are deterministic and fast;
* concurrency: simcord refuses two actor operations at once ("operation
  overlaps"), which would make "two clicks at the same moment" untestable.
  :meth:`Harness.concurrently` fills the gap: it lets several actions emit
  their INTERACTION_CREATE without settling in between, then settles once,
  so all their handlers really run interleaved on the loop. (It swaps
  simcord's private ``Env._settle_internal`` for the duration; the exact pin
  makes that safe, and ``test_harness_concurrent_clicks_interleave`` fails
  loudly if a new version changes it.)
* long-lived service tasks: simcord settles only when every bot task is
  done or parked on a wait it recognizes (discord.py listeners, views,
  timers); a task idling on ``asyncio.Queue.get`` (the database's group-commit
  writer) or on an ``Event``/``Condition``/``Lock``/``Semaphore`` is an
  "unknown wait" to it, so every action would time out after 5 s.
  :mod:`bot.offline.settling` teaches simcord that a task blocked in one of
  those asyncio primitives, whose wake-up has not been delivered yet, is idle.
  That is exactly quiescence: while any other task can still run, or a thread
  (aiosqlite, ``asyncio.to_thread``) is still working, settling goes on; when
  everything left is blocked on in-process primitives, nothing more can happen
  without outside input.
* shutting down: leaving ``simcord.run`` cancels the bot's tasks but does not
  call ``bot.close()``, so the database's worker thread would keep the process
  alive; :func:`~bot.offline.harness.offline` closes the bot first.

The process-level fake Discord (``tests/fakediscord``) covers what simcord
cannot: the real HTTP and websocket transport of ``python -m bot``.
"""
