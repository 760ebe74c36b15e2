-- Migration 6: the audit log of moderation and administration.
CREATE TABLE IF NOT EXISTS audit_log (
    id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
    slug TEXT NOT NULL, version TEXT NOT NULL, note TEXT NOT NULL);
