#!/usr/bin/env python3
"""Compare .env keys with .env.example. Prints key names only."""
import re, sys
from urllib.parse import urlparse

def parse(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        out[k.removeprefix("export ").strip()] = v.strip().strip("'\"")
    return out

env_path = sys.argv[1] if len(sys.argv) > 1 else ".env"
ex_path = sys.argv[2] if len(sys.argv) > 2 else ".env.example"
env, ex = parse(env_path), parse(ex_path)
missing = sorted(set(ex) - set(env))
extra = sorted(set(env) - set(ex))
empty = sorted(k for k, v in env.items() if not v)
invalid = sorted(k for k, v in env.items()
                 if re.search(r"_(URL|DSN)$", k) and v and not urlparse(v).scheme)
for label, keys in (("missing", missing), ("extra", extra), ("empty", empty), ("invalid", invalid)):
    print(f"{label:8}: {', '.join(keys) or '-'}")
sys.exit(1 if missing or invalid else 0)
