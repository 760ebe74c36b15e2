#!/usr/bin/env python3
"""Local secret scanner for git repositories. Output is always redacted."""
import argparse
import json
import math
import pathlib
import re
import subprocess
from collections import Counter

HERE = pathlib.Path(__file__).resolve().parent.parent
CFG = json.loads((HERE / "rules" / "patterns.json").read_text())
RULES = {k: re.compile(v) for k, v in CFG["rules"].items()}
ALLOW = set(CFG["allow"])


def redact(s):
    return f"{s[:4]}…(len {len(s)})"


def entropy(s):
    c = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in c.values()) if s else 0.0


def scan_text(text):
    for lineno, line in enumerate(text.splitlines(), 1):
        for rule, rx in RULES.items():
            for m in rx.finditer(line):
                if m.group(0) in ALLOW or any(a in line for a in ALLOW):
                    continue
                yield lineno, rule, m.group(0)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, errors="ignore").stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=".")
    ap.add_argument("--history", action="store_true")
    ap.add_argument("--staged", action="store_true")
    a = ap.parse_args()
    findings = []
    if a.staged:
        for f in git(a.repo, "diff", "--cached", "--name-only").split():
            for ln, rule, val in scan_text(git(a.repo, "show", f":{f}")):
                findings.append((f"{f}:{ln}", rule, val))
    else:
        for f in git(a.repo, "ls-files").splitlines():
            p = pathlib.Path(a.repo) / f
            if p.is_file() and p.stat().st_size < 2_000_000:
                for ln, rule, val in scan_text(p.read_text(errors="ignore")):
                    findings.append((f"{f}:{ln}", rule, val))
    if a.history:
        log = git(a.repo, "log", "--all", "-p", "--no-color", "--format=@@commit %H")
        commit = "?"
        for line in log.splitlines():
            if line.startswith("@@commit "):
                commit = line.split()[1][:10]
            elif line.startswith("+") and not line.startswith("+++"):
                for _, rule, val in scan_text(line[1:]):
                    findings.append((f"commit {commit}", rule, val))
    print("# Secret sweep\n")
    print("| location | rule | value |\n|---|---|---|")
    seen = set()
    for loc, rule, val in findings:
        if (loc, rule, val) in seen:
            continue
        seen.add((loc, rule, val))
        print(f"| {loc} | {rule} | `{redact(val)}` |")
    print(f"\n{len(seen)} finding(s). Rotate every real secret before cleaning history.")


if __name__ == "__main__":
    main()
