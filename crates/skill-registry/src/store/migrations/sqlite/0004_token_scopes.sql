-- Migration 4: scoped, expiring tokens. Tokens made before scopes keep every power they had.
ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'read,publish,admin';
ALTER TABLE tokens ADD COLUMN expires_at INTEGER;
