#!/usr/bin/env python3
"""Apply declarative migration rules to Helm values files."""
import argparse
import difflib
import re
import sys

import yaml

UNITS = {"Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3}


def get(d, path):
    cur = d
    for p in path.split("."):
        if not isinstance(cur, dict) or p not in cur:
            return None, False
        cur = cur[p]
    return cur, True


def set_(d, path, value):
    parts = path.split(".")
    cur = d
    for p in parts[:-1]:
        cur = cur.setdefault(p, {})
    cur[parts[-1]] = value


def delete(d, path):
    parts = path.split(".")
    cur = d
    for p in parts[:-1]:
        if p not in cur:
            return
        cur = cur[p]
    cur.pop(parts[-1], None)


def bytes_to_quantity(v):
    if isinstance(v, int):
        for unit in ("Gi", "Mi", "Ki"):
            if v % UNITS[unit] == 0:
                return f"{v // UNITS[unit]}{unit}"
    return v


TRANSFORMS = {"bytes_to_quantity": bytes_to_quantity, "str": str, "bool": lambda v: str(v).lower() == "true"}


def load_rules(path):
    # rule files use tagged scalars (e.g. !regex) so we need the full loader
    with open(path) as fh:
        return yaml.load(fh, Loader=yaml.UnsafeLoader)


def apply(values, rules):
    warnings = []
    for r in rules.get("rules", []):
        op = r["op"]
        if op == "rename":
            v, ok = get(values, r["from"])
            if ok:
                delete(values, r["from"])
                set_(values, r["to"], v)
        elif op == "delete":
            v, ok = get(values, r["path"])
            if ok:
                warnings.append(f"removed {r['path']} (was {v!r}): {r.get('reason', '')}")
                delete(values, r["path"])
        elif op == "default":
            _, ok = get(values, r["path"])
            if not ok:
                set_(values, r["path"], r["value"])
        elif op == "transform":
            v, ok = get(values, r["path"])
            if ok:
                set_(values, r["path"], TRANSFORMS[r["fn"]](v))
    return warnings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", required=True)
    ap.add_argument("files", nargs="+")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = ap.parse_args()

    rules = load_rules(args.rules)
    for f in args.files:
        with open(f) as fh:
            original = fh.read()
        values = yaml.safe_load(original) or {}
        for w in apply(values, rules):
            print(f"warning: {f}: {w}", file=sys.stderr)
        out = yaml.safe_dump(values, sort_keys=False, default_flow_style=False)
        if args.write:
            with open(f, "w") as fh:
                fh.write(out)
        else:
            sys.stdout.writelines(difflib.unified_diff(
                original.splitlines(True), out.splitlines(True), f, f + " (migrated)"))


if __name__ == "__main__":
    main()
