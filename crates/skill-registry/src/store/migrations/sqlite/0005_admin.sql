-- Migration 5: administrators.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
