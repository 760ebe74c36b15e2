#!/usr/bin/env python3
"""Redact secrets and personal data from text on stdin."""
import os
import re
import sys

RULES = [
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S), "[REDACTED PRIVATE KEY]"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"), "[REDACTED GITHUB TOKEN]"),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{50,}\b"), "[REDACTED GITHUB TOKEN]"),
    (re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b"), "[REDACTED GITLAB TOKEN]"),
    (re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), "[REDACTED NPM TOKEN]"),
    (re.compile(r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"), "[REDACTED AWS KEY ID]"),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"), "[REDACTED SLACK TOKEN]"),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"), "[REDACTED JWT]"),
    (re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)\s+)\S+"), r"\1[REDACTED]"),
    (re.compile(r"(?i)\b((?:password|passwd|secret|token|api[_-]?key|_authToken)\s*[=:]\s*)[^\s'\"]+"), r"\1[REDACTED]"),
    (re.compile(r"(?i)(//[^/\s:]+(?::\d+)?/[^\s]*:_auth(?:Token)?=)\S+"), r"\1[REDACTED]"),
    (re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b"), "[REDACTED EMAIL]"),
]


def main():
    text = sys.stdin.read()
    for rx, repl in RULES:
        text = rx.sub(repl, text)
    home = os.path.expanduser("~")
    if home and home != "/":
        text = text.replace(home, "~")
    user = os.environ.get("USER") or os.environ.get("USERNAME")
    if user and len(user) > 2:
        text = re.sub(rf"\b{re.escape(user)}\b", "<user>", text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
