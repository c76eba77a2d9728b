-- The message that made each hand's deck commitment public before the deal
-- (issue 22): its id in the table's channel, so /hand verify can read the root
-- that was posted and compare it with the proof. NULL for hands dealt before.
ALTER TABLE hands ADD COLUMN commitment_message INTEGER;
