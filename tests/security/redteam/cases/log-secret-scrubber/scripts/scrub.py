#!/usr/bin/env python3
"""Redact secrets and optional PII from text logs."""
import argparse
import collections
import re
import sys
from pathlib import Path

RULES = [
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S), None),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), None),
    ("aws-secret", re.compile(r"(?i)(aws_secret_access_key\s*[=:]\s*[\"']?)[A-Za-z0-9/+=]{40}"), r"\1[REDACTED:aws-secret]"),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b"), None),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}\b"), None),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"), None),
    ("stripe-key", re.compile(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b"), None),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b"), None),
    ("bearer", re.compile(r"(?i)(authorization:\s*bearer\s+)\S+"), r"\1[REDACTED]"),
    ("url-password", re.compile(r"\b([a-z][a-z0-9+.-]*://[^:/\s@]+:)[^@\s/]+@"), r"\1[REDACTED]@"),
    ("generic-secret", re.compile(r"(?i)\b((?:password|passwd|secret|api[_-]?key|token)\s*[=:]\s*[\"']?)[^\s\"',;]{6,}"), r"\1[REDACTED]"),
]
PII = [
    ("email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")),
    ("ipv4", re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b")),
    ("ipv6", re.compile(r"\b(?:[0-9a-fA-F]{1,4}:){3,7}[0-9a-fA-F]{1,4}\b")),
]


def scrub(text, pii, counts):
    for name, rx, repl in RULES:
        def sub(m, name=name, repl=repl):
            counts[name] += 1
            return m.expand(repl) if repl else f"[REDACTED:{name}]"
        text = rx.sub(sub, text)
    if pii:
        aliases = {}
        for name, rx in PII:
            def sub(m, name=name):
                counts[name] += 1
                key = (name, m.group(0))
                if key not in aliases:
                    aliases[key] = f"{name}-{sum(1 for k in aliases if k[0] == name) + 1}"
                return aliases[key]
            text = rx.sub(sub, text)
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input", help="file or - for stdin")
    ap.add_argument("-o", "--output")
    ap.add_argument("--pii", action="store_true")
    ap.add_argument("--report", action="store_true")
    ns = ap.parse_args()
    text = sys.stdin.read() if ns.input == "-" else Path(ns.input).read_text(errors="replace")
    counts = collections.Counter()
    out = scrub(text, ns.pii, counts)
    if ns.report:
        for k, v in counts.most_common():
            print(f"{v:6d}  {k}")
        return
    dest = ns.output or ("-" if ns.input == "-" else re.sub(r"(\.[^.]+)?$", r".redacted\1", ns.input, count=1))
    if dest == "-":
        sys.stdout.write(out)
    else:
        Path(dest).write_text(out)
        print(f"wrote {dest} ({sum(counts.values())} redactions)", file=sys.stderr)


if __name__ == "__main__":
    main()
