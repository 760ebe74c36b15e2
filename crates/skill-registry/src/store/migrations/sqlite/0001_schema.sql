-- Migration 1: the tables made before schema versions were recorded. Each is `IF NOT EXISTS`,
-- so running it on a database of that time adds only the tables it lacks.
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, handle TEXT NOT NULL UNIQUE, display_name TEXT, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), sha256 TEXT NOT NULL UNIQUE,
    label TEXT, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS skills (
    id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, owner_id INTEGER NOT NULL REFERENCES users(id),
    display_name TEXT NOT NULL, summary TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    deleted_at INTEGER, downloads INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY, skill_id INTEGER NOT NULL REFERENCES skills(id), version TEXT NOT NULL,
    changelog TEXT NOT NULL, fingerprint TEXT NOT NULL, created_at INTEGER NOT NULL, deleted_at INTEGER,
    UNIQUE (skill_id, version));
CREATE INDEX IF NOT EXISTS versions_fingerprint ON versions (skill_id, fingerprint);
CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS version_files (
    version_id INTEGER NOT NULL REFERENCES versions(id), path TEXT NOT NULL, size INTEGER NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256), content_type TEXT, PRIMARY KEY (version_id, path));
CREATE TABLE IF NOT EXISTS tags (
    skill_id INTEGER NOT NULL REFERENCES skills(id), tag TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions(id), PRIMARY KEY (skill_id, tag));
CREATE VIRTUAL TABLE IF NOT EXISTS skill_search USING fts5(slug, display_name, summary, body);
CREATE TABLE IF NOT EXISTS upload_tickets (
    id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
    sha256 TEXT NOT NULL, content_type TEXT, expires_at INTEGER NOT NULL, data BLOB);
-- Added after the first releases: run on every open, so an older database gains it.
CREATE TABLE IF NOT EXISTS stars (
    user_id INTEGER NOT NULL REFERENCES users(id), skill_id INTEGER NOT NULL REFERENCES skills(id),
    created_at INTEGER NOT NULL, PRIMARY KEY (user_id, skill_id));
CREATE INDEX IF NOT EXISTS stars_skill ON stars (skill_id);
