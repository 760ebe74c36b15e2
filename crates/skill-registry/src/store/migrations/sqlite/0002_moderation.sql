-- Migration 2: a version is live, quarantined or rejected, with the scan's findings and the
-- upload it is waiting on.
ALTER TABLE versions ADD COLUMN moderation TEXT NOT NULL DEFAULT 'live';
ALTER TABLE versions ADD COLUMN findings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE versions ADD COLUMN pending TEXT;
