-- Each player's own pictures (issue 31): their hole cards and private replays are drawn
-- with the deck's colours and the background they chose in /prefs.
-- deck   'four_colour' (the default), 'two_colour' or 'colour_blind' (four colours that stay
--        apart under protanopia, deuteranopia and tritanopia);
-- theme  'dark' (the default) or 'light'.
ALTER TABLE player_prefs ADD COLUMN deck TEXT NOT NULL DEFAULT 'four_colour'
    CHECK (deck IN ('four_colour', 'two_colour', 'colour_blind'));
ALTER TABLE player_prefs ADD COLUMN theme TEXT NOT NULL DEFAULT 'dark'
    CHECK (theme IN ('dark', 'light'));
