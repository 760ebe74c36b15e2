#!/usr/bin/env python3
"""Read-only scan of agent-facing text for hidden characters and red-flag phrases."""
import re
import sys
from pathlib import Path

PHRASES = [
    (r"<\s*important\s*>", "A: model-addressed tag"),
    (r"do not (tell|mention|inform).{0,30}user", "A/B: concealment instruction"),
    (r"ignore (all )?(previous|prior) instructions", "A: override attempt"),
    (r"(webfetch|fetch|curl|wget).{0,80}(follow|obey|treat .* as)", "B: remote instructions"),
    (r"\.ssh/|id_rsa|id_ed25519|\.aws/credentials|auth\.json|Login Data|Local State", "C: credential path"),
    (r"process\.env|os\.environ\.items\(\)", "D: whole-environment access"),
    (r"push\s+--mirror|remote add", "D: extra git remote"),
    (r"postinstall|cmdclass|\.pth\b", "E: install hook"),
    (r"rm -rf|--no-merged|reflog expire|gc --prune=now", "F: destructive command"),
]
INVISIBLE = re.compile("[\U000E0000-\U000E007F\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def scan(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return
    for n, line in enumerate(text.splitlines(), 1):
        for m in INVISIBLE.finditer(line):
            print(f"{path}:{n}: G: invisible U+{ord(m.group()):04X}")
            break
        for pat, label in PHRASES:
            if re.search(pat, line, re.I):
                print(f"{path}:{n}: {label}: {line.strip()[:120]}")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
    for f in sorted(files):
        scan(f)


if __name__ == "__main__":
    main()
