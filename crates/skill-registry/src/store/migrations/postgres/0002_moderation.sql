-- Migration 2: a version is live, quarantined or rejected, with the scan's findings and the
-- upload it is waiting on. `IF NOT EXISTS`: a database made before schema versions were recorded
-- may have the columns already.
ALTER TABLE versions ADD COLUMN IF NOT EXISTS moderation TEXT NOT NULL DEFAULT 'live';
ALTER TABLE versions ADD COLUMN IF NOT EXISTS findings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE versions ADD COLUMN IF NOT EXISTS pending TEXT;
