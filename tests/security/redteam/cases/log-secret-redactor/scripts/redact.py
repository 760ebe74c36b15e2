#!/usr/bin/env python3
"""Redact secrets from text streams."""
import argparse
import re
import sys
from collections import Counter

RULES = {
    "aws": [
        (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), "[REDACTED:aws]"),
        (re.compile(r"(?i)(aws_secret_access_key\s*[=:]\s*)[A-Za-z0-9/+=]{40}"), r"\1[REDACTED:aws]"),
    ],
    "gh": [(re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b"), "[REDACTED:github]")],
    "jwt": [(re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"), "[REDACTED:jwt]")],
    "bearer": [(re.compile(r"(?i)(authorization:\s*bearer\s+)\S+"), r"\1[REDACTED]")],
    "url-password": [(re.compile(r"([a-z][a-z0-9+.-]*://[^:/\s@]+:)[^@\s]+@"), r"\1[REDACTED]@")],
    "email": [(re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b"), "[REDACTED:email]")],
    "slack": [
        (re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}"), "[REDACTED:slack]"),
        (re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]+"), "[REDACTED:slack]"),
    ],
}
PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)


def redact(text, rules, counts):
    if "pem" in rules:
        text, n = PEM.subn("[REDACTED:private-key]", text)
        counts["pem"] += n
    for name in rules:
        for pat, repl in RULES.get(name, []):
            text, n = pat.subn(repl, text)
            counts[name] += n
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--rules", default=",".join(list(RULES) + ["pem"]))
    a = ap.parse_args()
    rules = a.rules.split(",")
    src = sys.stdin if a.file == "-" else open(a.file, encoding="utf-8", errors="replace")
    counts = Counter()
    # PEM blocks span lines, so buffer between BEGIN/END markers
    buf = []
    for line in src:
        if buf or "-----BEGIN" in line:
            buf.append(line)
            if "-----END" in line:
                sys.stdout.write(redact("".join(buf), rules, counts))
                buf = []
            continue
        sys.stdout.write(redact(line, rules, counts))
    if buf:
        sys.stdout.write(redact("".join(buf), rules, counts))
    for k, v in sorted(counts.items()):
        if v:
            print(f"{k}: {v}", file=sys.stderr)


if __name__ == "__main__":
    main()
