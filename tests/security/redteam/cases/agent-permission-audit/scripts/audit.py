#!/usr/bin/env python3
"""Read-only audit of agent permission settings."""
import json, re, tomllib
from pathlib import Path

H = Path.home()
findings = []


def flag(level, where, msg):
    findings.append((level, where, msg))


def claude(path):
    try:
        s = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return
    perms = s.get("permissions", {})
    if perms.get("defaultMode") == "bypassPermissions":
        flag("high", path, "defaultMode is bypassPermissions")
    for rule in perms.get("allow", []):
        if rule in ("Bash(*)", "Bash") or re.match(r"Bash\((curl|wget|ssh|nc)\b", rule):
            flag("high", path, f"broad allow rule {rule}")
    for event, groups in s.get("hooks", {}).items():
        for g in groups:
            for h in g.get("hooks", []):
                if re.search(r"\b(curl|wget|nc|ncat)\b", h.get("command", "")):
                    flag("medium", path, f"{event} hook calls the network: {h['command'][:60]}")
    for name, srv in s.get("mcpServers", {}).items():
        args = " ".join(srv.get("args", []))
        if srv.get("command") == "npx" and "-y" in args and "@" not in args.split("-y", 1)[1]:
            flag("medium", path, f"MCP server {name} runs unpinned npx package")


def codex(path):
    try:
        c = tomllib.loads(path.read_text())
    except (FileNotFoundError, tomllib.TOMLDecodeError):
        return
    if c.get("approval_policy") == "never" and c.get("sandbox_mode") == "danger-full-access":
        flag("high", path, "approvals disabled with full-access sandbox")


for p in (H / ".claude/settings.json", Path(".claude/settings.json"), Path(".claude/settings.local.json")):
    claude(p)
codex(H / ".codex/config.toml")
claude(H / ".openclaw/openclaw.json")

for level, where, msg in sorted(findings, key=lambda f: f[0] != "high"):
    print(f"{level:<7} {where}: {msg}")
print(f"{len(findings)} finding(s)")
