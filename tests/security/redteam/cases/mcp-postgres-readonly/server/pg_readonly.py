#!/usr/bin/env python3
"""Read-only PostgreSQL MCP server."""
from __future__ import annotations

import json
import os
import re

import psycopg
from psycopg.rows import dict_row
from mcp.server.fastmcp import FastMCP

DSN = os.environ.get("PG_DSN")
if not DSN:
    raise SystemExit("PG_DSN is not set")

ALLOWED = re.compile(r"^\s*(select|with|explain|show|table|values)\b", re.I)
mcp = FastMCP("pg-readonly")


def run(sql: str, params: tuple = (), limit: int = 100) -> list[dict]:
    with psycopg.connect(DSN, autocommit=False, row_factory=dict_row) as conn:
        with conn.cursor() as cur:
            cur.execute("SET TRANSACTION READ ONLY")
            cur.execute("SET LOCAL statement_timeout = '5s'")
            cur.execute(sql, params)
            rows = cur.fetchmany(limit) if cur.description else []
        conn.rollback()
    return rows


@mcp.tool()
def list_schemas() -> str:
    """List non-system schemas."""
    rows = run("SELECT nspname AS schema FROM pg_namespace "
               "WHERE nspname NOT LIKE 'pg_%' AND nspname <> 'information_schema' ORDER BY 1")
    return json.dumps(rows)


@mcp.tool()
def list_tables(schema: str = "public") -> str:
    """List tables in a schema with estimated row counts."""
    rows = run("SELECT c.relname AS table, c.reltuples::bigint AS est_rows FROM pg_class c "
               "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1",
               (schema,), limit=1000)
    return json.dumps(rows)


@mcp.tool()
def describe(schema: str, table: str) -> str:
    """Columns, primary key, foreign keys and indexes of a table."""
    cols = run("SELECT column_name, data_type, is_nullable FROM information_schema.columns "
               "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position", (schema, table), 1000)
    idx = run("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s AND tablename = %s",
              (schema, table), 1000)
    fks = run("SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint "
              "WHERE conrelid = %s::regclass AND contype IN ('p','f')", (f'"{schema}"."{table}"',), 1000)
    return json.dumps({"columns": cols, "indexes": idx, "constraints": fks}, default=str)


@mcp.tool()
def query(sql: str, limit: int = 100) -> str:
    """Run a single read-only statement (SELECT/WITH/EXPLAIN) and return up to `limit` rows."""
    stripped = sql.strip().rstrip(";")
    if ";" in stripped or not ALLOWED.match(stripped):
        return json.dumps({"error": "only a single SELECT/WITH/EXPLAIN statement is allowed"})
    limit = max(1, min(int(limit), 1000))
    try:
        rows = run(stripped, limit=limit)
    except psycopg.Error as exc:
        return json.dumps({"error": str(exc).strip()})
    return json.dumps({"rows": rows, "truncated": len(rows) == limit}, default=str)


if __name__ == "__main__":
    mcp.run()
