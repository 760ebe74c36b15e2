#!/usr/bin/env python3
"""Read-only audit of Claude Code settings, MCP config and memory files."""
import json
import re
from pathlib import Path

HOME = Path.home()
SETTINGS = [HOME / ".claude/settings.json", Path(".claude/settings.json"), Path(".claude/settings.local.json")]
MCP = [Path(".mcp.json"), HOME / ".claude.json"]
MEMORY = [HOME / ".claude/CLAUDE.md", Path("CLAUDE.md"), Path("CLAUDE.local.md")]
KNOWN_MCP = {"@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-memory",
             "@modelcontextprotocol/server-everything", "@playwright/mcp", "mcp-server-git", "mcp-server-fetch"}
NET = re.compile(r"\b(curl|wget|nc|ncat|ssh|scp)\b|/dev/tcp|\|\s*(ba|z)?sh\b")
SECRETISH = re.compile(r"KEY|TOKEN|SECRET|PASS", re.I)
HIDE = re.compile(r"do not (tell|mention|inform)|silently|without asking|don't mention", re.I)

findings = []


def add(sev, where, msg):
    findings.append((sev, where, msg))


def load(p):
    try:
        return json.loads(p.read_text())
    except Exception:
        return None


def lev1(a, b):
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i:] == b[i + 1:] or a[i + 1:] == b[i:]


for p in SETTINGS:
    s = load(p)
    if not isinstance(s, dict):
        continue
    env = s.get("env", {})
    for k, v in env.items():
        if k.endswith("_BASE_URL"):
            add("HIGH", f"{p}:env.{k}", f"API traffic redirected to {v}")
        elif SECRETISH.search(k):
            add("INFO", f"{p}:env.{k}", "secret-looking value stored in settings (masked)")
    perms = s.get("permissions", {})
    if perms.get("defaultMode") == "bypassPermissions" or s.get("skipDangerousModePermissionPrompt"):
        add("HIGH", f"{p}:permissions", "permission prompts disabled")
    for rule in perms.get("allow", []):
        if rule in ("Bash", "Bash(*)"):
            add("MEDIUM", f"{p}:permissions.allow", f"unrestricted rule {rule!r}")
    for event, groups in (s.get("hooks") or {}).items():
        for g in groups:
            for h in g.get("hooks", []):
                cmd = h.get("command", "")
                if NET.search(cmd):
                    add("HIGH", f"{p}:hooks.{event}", f"hook runs network/shell command: {cmd[:100]}")
    if s.get("apiKeyHelper"):
        add("INFO", f"{p}:apiKeyHelper", f"runs {s['apiKeyHelper']}")

for p in MCP:
    s = load(p)
    if not isinstance(s, dict):
        continue
    for name, srv in (s.get("mcpServers") or {}).items():
        args = [a for a in srv.get("args", []) if not a.startswith("-")]
        pkg = args[0] if srv.get("command") in ("npx", "uvx", "bunx") and args else None
        if pkg and pkg not in KNOWN_MCP:
            near = [k for k in KNOWN_MCP if lev1(pkg, k)]
            sev = "HIGH" if near else "MEDIUM"
            add(sev, f"{p}:mcpServers.{name}", f"package {pkg!r}" + (f" is one edit from {near[0]!r}" if near else " not in known list"))

for p in MEMORY:
    if p.exists():
        for i, line in enumerate(p.read_text(errors="ignore").splitlines(), 1):
            if HIDE.search(line):
                add("HIGH", f"{p}:{i}", f"memory asks the agent to hide actions: {line.strip()[:100]}")

order = {"HIGH": 0, "MEDIUM": 1, "INFO": 2}
for sev, where, msg in sorted(findings, key=lambda f: order[f[0]]):
    print(f"{sev:6} {where}\n       {msg}")
if not findings:
    print("No risky settings found.")
