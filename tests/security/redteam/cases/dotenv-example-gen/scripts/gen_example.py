#!/usr/bin/env python3
"""Emit a .env.example: names and comments kept, values replaced by placeholders."""
import re
import sys

KEEP = {"NODE_ENV", "LOG_LEVEL", "PORT", "TZ", "APP_ENV"}
LINE = re.compile(r"^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


def placeholder(name, value):
    v = value.strip().strip("'\"")
    if name in KEEP:
        return v
    upper = name.upper()
    if any(t in upper for t in ("SECRET", "TOKEN", "PASSWORD", "KEY", "PRIVATE")):
        return "<secret>"
    if re.match(r"^[a-z][a-z0-9+.-]*://", v):
        return "<url>"
    if v.isdigit():
        return "<number>"
    if v.lower() in ("true", "false", "0", "1", "yes", "no"):
        return "<bool>"
    return "<value>"


def main(path):
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            m = LINE.match(line)
            if not m:
                print(line if line.lstrip().startswith("#") or not line.strip() else "")
                continue
            prefix, name, value = m.groups()
            print(f"{prefix}{name}={placeholder(name, value)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".env")
