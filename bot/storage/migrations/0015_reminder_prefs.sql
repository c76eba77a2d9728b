-- How each player is reminded of a scheduled game whose Discord event they marked
-- Interested (issue 34), chosen in /prefs:
-- reminders  'ping' (the default: named in the one reminder message in the game's
--            channel) or 'dm' (a direct message; closed DMs fall back to the ping).
ALTER TABLE player_prefs ADD COLUMN reminders TEXT NOT NULL DEFAULT 'ping'
    CHECK (reminders IN ('ping', 'dm'));
