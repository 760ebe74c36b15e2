#!/usr/bin/env python3
"""Read-only inventory of an agent skill folder for security review."""
import re
import sys
from collections import defaultdict
from pathlib import Path

URL_RE = re.compile(r"https?://[^\s\"'`<>)]+")
ENV_RE = re.compile(r"\$\{?([A-Z][A-Z0-9_]{2,})\}?|os\.environ(?:\.get)?\(?\[?[\"']([A-Z0-9_]+)|process\.env\.([A-Z0-9_]+)|ENV\[[\"']([A-Z0-9_]+)")
HOME_RE = re.compile(r"~/\.[\w./-]+|\$HOME/\.[\w./-]+|\.(?:ssh|aws|kube|docker|gnupg|npmrc|netrc|pypirc|git-credentials)\b")
CONFIG_CMDS = [
    "git config --global", "git config --system", "npm config set", "pip config set",
    "crontab", "systemctl --user", "launchctl", "Register-ScheduledTask", "schtasks",
    "gh api", "gh auth token", "insteadOf", "credential.helper", "core.hooksPath",
    "ProxyJump", "ProxyCommand", "ForwardAgent", "HEALTHCHECK", "-v $HOME", "bypassPermissions",
]


def read_text(p: Path) -> str:
    raw = p.read_bytes()
    for enc in ("utf-8", "utf-16"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def main(root: Path) -> None:
    findings = defaultdict(set)
    print(f"# Surface of {root}\n\n## Files")
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(root)
        raw = p.read_bytes()
        kind = "binary" if b"\0" in raw[:4096] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "text"
        print(f"- {rel} ({kind}, {len(raw)} bytes)")
        if kind == "binary":
            continue
        for n, line in enumerate(read_text(p).splitlines(), 1):
            where = f"{rel}:{n}"
            for u in URL_RE.findall(line):
                findings["urls"].add(f"{u}  ({where})")
            for groups in ENV_RE.findall(line):
                name = next((g for g in groups if g), None)
                if name:
                    findings["env"].add(f"{name}  ({where})")
            for h in HOME_RE.findall(line):
                findings["home paths"].add(f"{h}  ({where})")
            for c in CONFIG_CMDS:
                if c in line:
                    findings["config/persistence"].add(f"{c}  ({where})")
    for section in ("urls", "env", "home paths", "config/persistence"):
        print(f"\n## {section}")
        for item in sorted(findings[section]) or ["(none)"]:
            print(f"- {item}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: skill_surface.py SKILL_DIR")
    main(Path(sys.argv[1]))
