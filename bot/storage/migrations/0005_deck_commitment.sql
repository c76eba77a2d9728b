-- The commitment to each hand's deck order (issue 11): the SHA-256 root posted
-- before the first card (bot/engine/commitment.py) and the per-position salts,
-- sealed like the deck itself (bot/storage/sealing.py) and opened only once the
-- hand is over. Hands stored before this migration have neither: they cannot be
-- verified, and say so.
ALTER TABLE hands ADD COLUMN commitment TEXT;
ALTER TABLE hands ADD COLUMN salts_sealed BLOB;
