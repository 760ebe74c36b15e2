-- Migration 1: the tables made before schema versions were recorded. Each is `IF NOT EXISTS`,
-- so running it on a database of that time adds only the tables it lacks.
CREATE TABLE IF NOT EXISTS users (
    id BIGSERIAL PRIMARY KEY, handle TEXT NOT NULL UNIQUE, display_name TEXT, created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    id BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users(id), sha256 TEXT NOT NULL UNIQUE,
    label TEXT, created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS skills (
    id BIGSERIAL PRIMARY KEY, slug TEXT NOT NULL UNIQUE, owner_id BIGINT NOT NULL REFERENCES users(id),
    display_name TEXT NOT NULL, summary TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
    deleted_at BIGINT, downloads BIGINT NOT NULL DEFAULT 0, search TSVECTOR);
CREATE INDEX IF NOT EXISTS skills_search ON skills USING GIN (search);
CREATE TABLE IF NOT EXISTS versions (
    id BIGSERIAL PRIMARY KEY, skill_id BIGINT NOT NULL REFERENCES skills(id), version TEXT NOT NULL,
    changelog TEXT NOT NULL, fingerprint TEXT NOT NULL, created_at BIGINT NOT NULL, deleted_at BIGINT,
    UNIQUE (skill_id, version));
CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, data BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS version_files (
    version_id BIGINT NOT NULL REFERENCES versions(id), path TEXT NOT NULL, size BIGINT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256), content_type TEXT, PRIMARY KEY (version_id, path));
CREATE TABLE IF NOT EXISTS tags (
    skill_id BIGINT NOT NULL REFERENCES skills(id), tag TEXT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES versions(id), PRIMARY KEY (skill_id, tag));
CREATE TABLE IF NOT EXISTS upload_tickets (
    id TEXT PRIMARY KEY, user_id BIGINT NOT NULL, path TEXT NOT NULL, size BIGINT NOT NULL,
    sha256 TEXT NOT NULL, content_type TEXT, expires_at BIGINT NOT NULL, data BYTEA);
-- Added after the first releases: run on every open, so an older database gains it.
CREATE TABLE IF NOT EXISTS stars (
    user_id BIGINT NOT NULL REFERENCES users(id), skill_id BIGINT NOT NULL REFERENCES skills(id),
    created_at BIGINT NOT NULL, PRIMARY KEY (user_id, skill_id));
CREATE INDEX IF NOT EXISTS stars_skill ON stars (skill_id);
