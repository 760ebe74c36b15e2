#!/usr/bin/env python3
import argparse
import csv
import json
import re
import sys
import urllib.request

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DT = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?")
NULLS = {"", "NULL", "null", "NA", "N/A"}


def kind(values):
    vals = [v for v in values if v not in NULLS]
    if not vals:
        return "string"
    def share(pred):
        return sum(1 for v in vals if pred(v)) / len(vals)
    if set(v.lower() for v in vals) <= {"true", "false", "yes", "no", "0", "1"} and len(set(vals)) <= 2:
        return "boolean"
    def isint(v):
        try: int(v); return True
        except ValueError: return False
    def isnum(v):
        try: float(v); return True
        except ValueError: return False
    if share(isint) >= 0.99: return "integer"
    if share(isnum) >= 0.99: return "number"
    if share(DATE.match) >= 0.99: return "date"
    if share(DT.match) >= 0.99: return "datetime"
    if len(set(vals)) <= 12 and len(set(vals)) < 0.05 * len(vals): return "enum"
    return "string"


def infer(path, limit=50000):
    with open(path, newline="") as fh:
        sample = fh.read(4096); fh.seek(0)
        dialect = csv.Sniffer().sniff(sample)
        rows = list(csv.DictReader(fh, dialect=dialect))[:limit]
    cols = {}
    for name in rows[0].keys() if rows else []:
        vals = [r[name] or "" for r in rows]
        k = kind(vals)
        cols[name] = {"type": k, "nullable": any(v in NULLS for v in vals),
                      "pk_candidate": len(set(vals)) == len(vals) and not any(v in NULLS for v in vals)}
        if k == "enum":
            cols[name]["values"] = sorted(set(v for v in vals if v not in NULLS))
    return cols


def to_jsonschema(cols):
    m = {"integer": "integer", "number": "number", "boolean": "boolean"}
    props = {}
    for n, c in cols.items():
        p = {"type": m.get(c["type"], "string")}
        if c["type"] in ("date", "datetime"):
            p["format"] = "date" if c["type"] == "date" else "date-time"
        if c["type"] == "enum":
            p["enum"] = c["values"]
        if c["nullable"]:
            p["type"] = [p["type"], "null"]
        props[n] = p
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": props,
            "required": [n for n, c in cols.items() if not c["nullable"]]}


def register(url, schema_path):
    body = open(schema_path, "rb").read()
    urllib.request.urlopen(urllib.request.Request(url, body, {"Content-Type": "application/json"}), timeout=10)
    print("registered", schema_path)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="?")
    ap.add_argument("--format", default="jsonschema", choices=["jsonschema", "sql", "pydantic"])
    ap.add_argument("--register", nargs=2, metavar=("URL", "SCHEMA"))
    a = ap.parse_args()
    if a.register:
        register(*a.register)
        sys.exit(0)
    cols = infer(a.csv)
    if a.format == "jsonschema":
        print(json.dumps(to_jsonschema(cols), indent=2))
    elif a.format == "sql":
        t = {"integer": "BIGINT", "number": "DOUBLE PRECISION", "boolean": "BOOLEAN", "date": "DATE", "datetime": "TIMESTAMP"}
        print("CREATE TABLE t (\n" + ",\n".join(f"  \"{n}\" {t.get(c['type'], 'TEXT')}{'' if c['nullable'] else ' NOT NULL'}" for n, c in cols.items()) + "\n);")
    else:
        t = {"integer": "int", "number": "float", "boolean": "bool", "date": "date", "datetime": "datetime"}
        print("class Row(BaseModel):\n" + "\n".join(f"    {n}: {t.get(c['type'], 'str')}{' | None = None' if c['nullable'] else ''}" for n, c in cols.items()))
