-- Migration 3: a version's minisign signature, when its author signed it.
ALTER TABLE versions ADD COLUMN IF NOT EXISTS signature TEXT;
