-- Where each hand's deck commitment was posted (issue 31): the table's commitment
-- thread (or the table's channel when the bot may not open threads there), so
-- /hand verify reads the message from there. NULL for hands dealt before: their
-- commitment is in the table's channel.
ALTER TABLE hands ADD COLUMN commitment_channel INTEGER;
