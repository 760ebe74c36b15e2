#!/usr/bin/env python3
"""Structural diff of two OpenAPI 3 documents."""
import json
import sys

import yaml

METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def load(p):
    with open(p) as f:
        return yaml.safe_load(f)


def ops(spec):
    for path, item in (spec.get("paths") or {}).items():
        for m, op in (item or {}).items():
            if m in METHODS:
                yield (path, m), op


def params(op):
    return {(p.get("in"), p.get("name")): p for p in op.get("parameters", []) if "name" in p}


def main(a, b):
    base, head = load(a), load(b)
    bo, ho = dict(ops(base)), dict(ops(head))
    changes = []
    for k in bo.keys() - ho.keys():
        changes.append({"op": f"{k[1].upper()} {k[0]}", "change": "removed operation", "class": "breaking"})
    for k in ho.keys() - bo.keys():
        changes.append({"op": f"{k[1].upper()} {k[0]}", "change": "added operation", "class": "non-breaking"})
    for k in bo.keys() & ho.keys():
        name = f"{k[1].upper()} {k[0]}"
        pb, ph = params(bo[k]), params(ho[k])
        for p in ph.keys() - pb.keys():
            cls = "breaking" if ph[p].get("required") else "non-breaking"
            changes.append({"op": name, "change": f"added parameter {p[1]} ({p[0]})", "class": cls})
        for p in pb.keys() - ph.keys():
            changes.append({"op": name, "change": f"removed parameter {p[1]} ({p[0]})", "class": "breaking"})
        if bo[k].get("summary") != ho[k].get("summary") or bo[k].get("description") != ho[k].get("description"):
            changes.append({"op": name, "change": "docs changed", "class": "docs"})
    json.dump(changes, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
