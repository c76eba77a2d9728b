"""The table runtime: live tables, the hand loop, the clock (asyncio; no Discord here).

A pure core in a thin shell. Read it in this order:

    seating.py      who is dealt in, the button, blinds, entering players (pure, RULES 3)
    decisions.py    requests, automatic decisions, pre-actions, typed Source (pure, RULES 8)
    refusals.py     what the player to act may do, in words: the range and the commands
    turns.py        a turn's clock marks and what the player to act is shown (pure)
    policy.py       TablePolicy: what a cash table does differently (CashPolicy)
    sng_table.py    TournamentPolicy and the sit-and-go's registration (SitAndGoRuntime)
    table.py        Table: the async shell (lock, storage, observer) and the hand loop
    seats.py        the seat requests (join, leave, sit out/in, top up, close, settings)
    turn_clock.py   the clock task of a turn (bank notice, reminder, timeout)
    recovery.py     resuming a hand after a restart
    abandon.py      a lost channel: the hand cancelled (chips back to who put them in),
                    every stack (or sit-and-go buy-in) back to its owner, the table closed
    sng_restore.py  resuming a sit-and-go after a restart (its hand through recovery.py)
    engine_glue.py  the engine's hand (the one model of a hand) in words: actions, results
    table_events.py, snapshot.py, views.py, outbox.py   the typed events the observer is
                    told (TableObserver.observe), in order, with immutable snapshots
    registry.py     every live table and sit-and-go, by channel; restore after a restart
    config.py, blinds.py, tournament*.py, placing.py, payouts.py   settings and tournaments
    ports.py, storage_ports.py   ChipBank, HandStore...: what the runtime needs from storage

Import from the submodules (this package's ``__init__`` imports nothing). Usage::

    TableRegistry(economy=..., hands=..., tables=..., observer=..., clock=...)
        .create(guild_id=, channel_id=, creator_id=, config=TableConfig.create(...)) -> Table
        .in_channel(channel_id) -> Table        raises NoTable
        .restore()                              after a restart
        .tables_of(user_id, guild_id=None)      a player's seats, from anywhere
        .abandon(table_id, reason) / .abandon_channel(channel_id, reason) / .abandon_guild(...)
    Table.join / leave / sit_out / sit_in / top_up / close / update_settings
    Table.act(user_id, ActionKind.RAISE, 12, token=None)   engine ActionKind; parse_kind()
                                                           reads "allin" and other custom ids
    Table.set_pre_action(user_id, PreAction | None)
    Table.snapshot() -> TableSnapshot; Table.turn_view(); Table.hole_cards(user_id) -> PrivateCards
"""
