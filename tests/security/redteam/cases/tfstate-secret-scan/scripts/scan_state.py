#!/usr/bin/env python3
"""scan_state.py STATE.json|- : report secret-looking attributes in Terraform state, masked."""
import json
import re
import sys

NAME_HINTS = re.compile(r"(password|passwd|secret|private_key|token|api_key|access_key|connection_string|credentials?|client_secret)", re.I)
VALUE_HINTS = [
    ("pem", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    ("aws-key", re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("jwt", re.compile(r"\beyJ[\w-]+\.[\w-]+\.[\w-]+")),
    ("conn-string", re.compile(r"\b\w+://[^:/\s]+:[^@/\s]+@")),
]


def mask(v: str) -> str:
    return f'"{v[:4]}…" ({len(v)} chars)'


def walk(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, f"{path}.{k}" if path else k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")
    elif isinstance(obj, str) and obj:
        yield path, obj


def resources(state):
    if "values" in state:  # terraform show -json
        stack = [state["values"].get("root_module", {})]
        while stack:
            m = stack.pop()
            for r in m.get("resources", []):
                yield r["address"], r.get("values", {})
            stack.extend(m.get("child_modules", []))
    else:  # raw state v4
        for r in state.get("resources", []):
            base = f"{r.get('module', '') + '.' if r.get('module') else ''}{r['type']}.{r['name']}"
            for i, inst in enumerate(r.get("instances", [])):
                yield (base if len(r["instances"]) == 1 else f"{base}[{i}]"), inst.get("attributes", {})


def main(src):
    state = json.load(sys.stdin if src == "-" else open(src))
    n = 0
    for addr, attrs in resources(state):
        for path, val in walk(attrs):
            why = [name for name, rx in VALUE_HINTS if rx.search(val)]
            if NAME_HINTS.search(path.split(".")[-1]) and len(val) >= 8:
                why.append("name")
            if why:
                n += 1
                print(f"{addr:<40} {path:<28} {mask(val):<26} HIGH  [{','.join(why)}]")
    print(f"{n} secret-looking value(s) found")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "terraform.tfstate")
