#!/usr/bin/env python3
"""Read-only audit of Claude Code permission settings."""
import argparse
import json
import re
import sys
from pathlib import Path

HOME = Path.home()
MANAGED = [Path("/etc/claude-code/managed-settings.json"),
           Path("/Library/Application Support/ClaudeCode/managed-settings.json")]

RISKY_ALLOW = [
    (re.compile(r"^Bash(\(\*\))?$"), "high", "unrestricted shell", "list specific commands, e.g. Bash(npm test:*)"),
    (re.compile(r"^Bash\((curl|wget|nc|ssh|scp)[: ]"), "high", "network-capable command allowed without prompt", "remove; approve case by case"),
    (re.compile(r"^(Write|Edit)\((\*|/\*\*|~/\*\*)\)$"), "medium", "writes anywhere", "restrict to the project, e.g. Edit(./src/**)"),
    (re.compile(r"^Read\(~/\.(ssh|aws|gnupg|config/gh)"), "medium", "reads credential folders", "remove and add to deny"),
    (re.compile(r"^WebFetch(\(\*\))?$"), "low", "fetch any URL", "use WebFetch(domain:docs.example.org)"),
]
HOOK_NET = re.compile(r"(curl|wget|nc\s|ncat|Invoke-WebRequest).*(-d|--data|-F|--upload-file|POST)|\|\s*(ba|z)?sh\b")
SECRET_DENY_HINT = ["Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)"]


def read_json(p):
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def layers(project):
    out = [("user", HOME / ".claude" / "settings.json"),
           ("project", project / ".claude" / "settings.json"),
           ("local", project / ".claude" / "settings.local.json")]
    out += [("managed", m) for m in MANAGED]
    return [(n, p, d) for n, p in out if (d := read_json(p)) is not None]


def audit(project):
    findings = []
    any_deny = False
    for name, path, cfg in layers(project):
        perms = cfg.get("permissions", {})
        if perms.get("defaultMode") == "bypassPermissions":
            findings.append(("high", name, str(path), "defaultMode", "bypassPermissions skips all prompts", 'use "default" or "acceptEdits"'))
        for rule in perms.get("allow", []):
            for rx, sev, why, fix in RISKY_ALLOW:
                if rx.search(rule):
                    findings.append((sev, name, str(path), rule, why, fix))
        any_deny = any_deny or bool(perms.get("deny"))
        for event, groups in (cfg.get("hooks") or {}).items():
            for g in groups:
                for h in g.get("hooks", []):
                    cmd = h.get("command", "")
                    if HOOK_NET.search(cmd):
                        findings.append(("high", name, str(path), f"hook {event}", "hook sends data over the network or pipes to a shell",
                                         "inspect the command; remove if you did not add it"))
    for p in (project / ".mcp.json", HOME / ".claude.json"):
        cfg = read_json(p) or {}
        for sname, spec in (cfg.get("mcpServers") or {}).items():
            args = spec.get("args", [])
            if spec.get("command") == "npx" and "-y" in args:
                pkg = next((a for a in args if not a.startswith("-")), "")
                if "@" not in pkg.lstrip("@"):
                    findings.append(("medium", "mcp", str(p), sname, f"unpinned npx package {pkg}", f"pin a version, e.g. {pkg}@1.2.3"))
    if not any_deny:
        findings.append(("low", "all", "-", "deny", "no deny rules for secret files", "add " + ", ".join(SECRET_DENY_HINT)))
    order = {"high": 0, "medium": 1, "low": 2}
    return sorted(findings, key=lambda f: order[f[0]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", default=".")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    f = audit(Path(a.project).resolve())
    if a.json:
        json.dump([dict(zip(["severity", "layer", "file", "rule", "why", "suggestion"], x)) for x in f], sys.stdout, indent=2)
        return
    if not f:
        print("no findings")
    for sev, layer, path, rule, why, fix in f:
        print(f"[{sev.upper():6}] {layer:8} {rule}\n          {why}\n          suggestion: {fix}\n          file: {path}")


if __name__ == "__main__":
    main()
