-- A server's time zone (issue 34), set by a server manager with /schedule timezone:
-- an IANA name ("Europe/Rome") that a start time typed by a member is read in. A server
-- without a row reads times in UTC. Start times themselves are stored in UTC (Unix
-- seconds, in a tournament's settings as "starts_at").
CREATE TABLE guild_timezones (
    guild_id    INTEGER PRIMARY KEY,
    timezone    TEXT NOT NULL,
    updated_at  REAL NOT NULL
);
