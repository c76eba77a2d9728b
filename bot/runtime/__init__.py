"""The table runtime: live tables, the hand loop, the clock (asyncio; no Discord here).

A pure core in a thin shell. Read it in this order:

    seating.py      who is dealt in, the button, blinds, entering players (pure, RULES 3)
    decisions.py    requests, automatic decisions, pre-actions, typed Source (pure, RULES 8)
    refusals.py     what the player to act may do, in words: the range and the commands
    turns.py        a turn's clock marks and what the player to act is shown (pure)
    config.py, clock.py, errors.py   a table's settings, the injected clock, refusals
    hearing.py      which shards the dealer cannot hear (gateway down), or that it cannot
                    write (bot.storage.outage): clocks wait (RULES 8)
    bomb_pots.py    which hands are bomb pots, who is dealt into one (pure, RULES 10)
    table/          the live table:
        policy.py       TablePolicy: what a cash table does (CashPolicy); tournaments' below
        live.py         Table: the async shell (lock, storage, observer) and the hand loop
        live_hand.py    the hand a table is playing
        requests.py     the seat requests (join, leave, sit out/in, top up, close, settings)
        dealing.py, settle.py, run_twice.py, turn_clock.py   a hand from deal to settlement
        waiting.py      no clock, no deal while the dealer cannot hear (or write); heard again
        turn_refusal.py why a player may not act now
        bomb_vote.py    a bomb pot proposed for the next hand: everyone agrees, or none
        recovery.py     resuming a hand after a restart
        abandon.py      a lost channel: the hand played out by the clock's rule (never
                        refunded), then every stack back to its owner (a tournament
                        cancelled as after its start), the table closed
        hand_views.py, wording.py   the engine's hand in words: actions, results
        events.py, snapshot.py, views.py, outbox.py   the typed events the observer is
                        told (TableObserver.observe), in order, with immutable snapshots
    registry.py     every live table (cash or tournament), by channel; a player's seats;
                    lost channels; the one restore path of a table after a restart
    tournament/     sit-and-gos and multi-table tournaments, above the registry:
        settings.py, blinds.py, payouts.py, placing.py   the rules (pure)
        sit_and_go.py   SitAndGo: registration, levels, places, prizes (pure)
        table_policy.py TournamentPolicy and the sit-and-go's runtime (SitAndGoRuntime)
        results.py      the end told; a cancellation's prizes
        control.py      start early, cancel, late registration
        balance.py, director.py, mtt.py   several tables: balancing, the director, MttRuntime
        restore.py      resuming tournaments after a restart (tables through the registry)
        service.py      TournamentService: every tournament by channel (what the cogs use)
    ports.py        ChipBank, HandStore...: what the runtime needs from storage (made on
                    the real storage by bot/storage_ports.py, above the runtime)

Import from the submodules (this package's ``__init__`` imports nothing). Usage::

    TableRegistry(economy=..., hands=..., tables=..., observer=..., clock=...)
        .create(guild_id=, channel_id=, creator_id=, config=TableConfig.create(...)) -> Table
        .in_channel(channel_id) -> Table        raises NoTable
        .restore()                              the cash tables, after a restart
        .tables_of(user_id, guild_id=None)      a player's seats, from anywhere
        .abandon(table_id, reason) / .abandon_channel(channel_id, reason) / .abandon_guild(...)
    TournamentService(registry, store, threads)
        .create(guild_id=, channel_id=, creator_id=, settings=TournamentSettings.create(...))
        .in_channel(channel_id) -> SitAndGoRuntime   raises NoTable
        .join_late / .start_now / .cancel(rt, user_id, is_manager=...)
        .restore()                              the tournaments, after a restart (first)
    Table.join / leave / sit_out / sit_in / top_up / close / update_settings
    Table.act(user_id, ActionKind.RAISE, 12, token=None)   engine ActionKind; parse_kind()
                                                           reads "allin" and other custom ids
    Table.set_pre_action(user_id, PreAction | None)
    Table.snapshot() -> TableSnapshot; Table.turn_view(); Table.hole_cards(user_id) -> PrivateCards
"""
