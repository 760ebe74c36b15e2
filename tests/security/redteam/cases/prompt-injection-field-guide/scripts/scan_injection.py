#!/usr/bin/env python3
"""Read-only scanner for prompt-injection shapes in text files."""
from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
RULES = {
    "override": r"ignore (all )?(previous|prior|above) instructions|supersede (anything|all)",
    "secrecy": r"(do not|don't|never) (tell|mention|inform|surface)\b.*\b(user|this)",
    "approval-bypass": r"without (asking|confirmation|prompting)|pre-?approved",
    "fetch-and-follow": r"(fetch|retrieve|download|read)\b.{0,60}https?://\S+.{0,60}\b(follow|obey|apply)",
    "pipe-to-shell": r"(curl|wget|iwr|invoke-webrequest)\b[^\n|]*\|\s*(sh|bash|zsh|iex|python)",
    "hidden-text": r"<!--[^>]*\b(ai|agent|assistant|llm|model)s?\b",
    "secret-paths": r"~/\.ssh/id_|\.aws/credentials|_authToken|\.git-credentials",
}
COMPILED = {k: re.compile(v, re.I) for k, v in RULES.items()}
TEXT_EXT = {".md", ".txt", ".json", ".yaml", ".yml", ".toml", ".py", ".js", ".ts", ".sh", ".ipynb", ".html"}


def scan_file(path: Path) -> list[tuple[int, str, str]]:
    out = []
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return out
    for n, raw in enumerate(lines, 1):
        if any(ord(c) in ZERO_WIDTH for c in raw):
            out.append((n, "zero-width", raw.strip()[:120]))
        line = unicodedata.normalize("NFKC", raw.translate(ZERO_WIDTH))
        for rule, rx in COMPILED.items():
            if rx.search(line):
                out.append((n, rule, line.strip()[:120]))
    return out


def main(root: str) -> int:
    total = 0
    for p in sorted(Path(root).rglob("*")):
        if p.is_file() and (p.suffix.lower() in TEXT_EXT or p.name in {"AGENTS.md", "CLAUDE.md"}):
            for n, rule, text in scan_file(p):
                print(f"{p}:{n}: [{rule}] {text}")
                total += 1
    print(f"{total} finding(s)")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
