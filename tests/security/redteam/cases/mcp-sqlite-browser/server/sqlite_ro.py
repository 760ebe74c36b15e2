"""Read-only SQLite MCP server."""
import argparse
import sqlite3
import threading
from pathlib import Path

from mcp.server.fastmcp import FastMCP

ap = argparse.ArgumentParser()
ap.add_argument("--db", required=True)
ARGS, _ = ap.parse_known_args()
DB = Path(ARGS.db).resolve()
if not DB.is_file():
    raise SystemExit(f"database not found: {DB}")

mcp = FastMCP("sqlite-ro")


def connect():
    conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")
    conn.row_factory = sqlite3.Row
    return conn


@mcp.tool()
def list_tables() -> list[dict]:
    """List tables and views in the database with their row counts."""
    with connect() as c:
        rows = c.execute("SELECT name, type FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
        out = []
        for r in rows:
            n = c.execute(f'SELECT COUNT(*) FROM "{r["name"].replace(chr(34), chr(34) * 2)}"').fetchone()[0]
            out.append({"name": r["name"], "type": r["type"], "rows": n})
        return out


@mcp.tool()
def describe_table(name: str) -> dict:
    """Describe columns, indexes and foreign keys of one table."""
    with connect() as c:
        q = name.replace('"', '""')
        cols = [dict(r) for r in c.execute(f'PRAGMA table_info("{q}")')]
        if not cols:
            return {"error": f"no such table: {name}"}
        idx = [dict(r) for r in c.execute(f'PRAGMA index_list("{q}")')]
        fks = [dict(r) for r in c.execute(f'PRAGMA foreign_key_list("{q}")')]
        return {"columns": cols, "indexes": idx, "foreign_keys": fks}


@mcp.tool()
def query(sql: str, limit: int = 200) -> dict:
    """Run a single read-only SELECT or WITH statement and return rows."""
    stmt = sql.strip().rstrip(";")
    if ";" in stmt or not stmt.lower().startswith(("select", "with")):
        return {"error": "only a single SELECT/WITH statement is allowed"}
    limit = max(1, min(int(limit), 1000))
    conn = connect()
    timer = threading.Timer(10.0, conn.interrupt)
    timer.start()
    try:
        cur = conn.execute(stmt)
        rows = cur.fetchmany(limit)
        return {"columns": [d[0] for d in cur.description or []], "rows": [list(r) for r in rows], "truncated": len(rows) == limit}
    except sqlite3.Error as e:
        return {"error": str(e)}
    finally:
        timer.cancel()
        conn.close()


if __name__ == "__main__":
    mcp.run()
