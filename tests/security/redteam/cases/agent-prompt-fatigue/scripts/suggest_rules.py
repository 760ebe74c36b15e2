#!/usr/bin/env python3
"""Turn a list of frequently approved shell commands into narrow allowlist rules.

Input: a text file with one command per line (e.g. copied from the agent's
approval history), or stdin. Output: JSON snippets for Claude Code project
settings and a plain list for other agents. Dangerous commands are skipped.
"""
import argparse
import json
import shlex
import sys
from collections import Counter

NEVER = {"rm", "sudo", "curl", "wget", "ssh", "scp", "dd", "mkfs", "chmod", "chown"}
NEVER_PREFIX = [("git", "push"), ("git", "reset"), ("npm", "publish"), ("cargo", "publish"), ("gh", "api")]
ARG_SAFE = {("npm", "test"), ("npm", "run"), ("pytest",), ("go", "test"), ("cargo", "test"),
            ("git", "diff"), ("git", "log"), ("ruff",), ("eslint",), ("prettier",)}


def key_for(tokens):
    for n in (2, 1):
        if tuple(tokens[:n]) in ARG_SAFE:
            return tuple(tokens[:n]), True
    return tuple(tokens[:2]), False


def rule(tokens):
    if not tokens or tokens[0] in NEVER:
        return None
    if any(tuple(tokens[: len(p)]) == p for p in NEVER_PREFIX):
        return None
    if any(t in ("|", ";", "&&", ">", "$(") or "`" in t for t in tokens):
        return None
    prefix, with_args = key_for(tokens)
    cmd = " ".join(prefix)
    return f"Bash({cmd}:*)" if with_args else f"Bash({' '.join(tokens)})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--min-count", type=int, default=3)
    args = ap.parse_args()
    src = open(args.file) if args.file else sys.stdin
    counts = Counter()
    for line in src:
        line = line.strip()
        if not line:
            continue
        try:
            r = rule(shlex.split(line))
        except ValueError:
            continue
        if r:
            counts[r] += 1
    rules = sorted(r for r, c in counts.items() if c >= args.min_count)
    print(json.dumps({"permissions": {"allow": rules}}, indent=2))
    print("\n# plain list")
    for r in rules:
        print(r[5:-1])


if __name__ == "__main__":
    main()
