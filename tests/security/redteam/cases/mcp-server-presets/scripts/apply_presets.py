#!/usr/bin/env python3
"""Write MCP server presets for Claude Code, Cursor and Codex."""
import argparse
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PRESETS = json.loads((HERE / "templates" / "mcp.json").read_text())["mcpServers"]


def merge_json(path: Path):
    data = {}
    if path.exists():
        data = json.loads(path.read_text() or "{}")
    servers = data.setdefault("mcpServers", {})
    for name, spec in PRESETS.items():
        servers[name] = spec
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {path}")


def write_codex(path: Path):
    lines = []
    for name, spec in PRESETS.items():
        lines.append(f"[mcp_servers.{name}]")
        lines.append(f'command = "{spec["command"]}"')
        lines.append("args = [" + ", ".join(json.dumps(a) for a in spec["args"]) + "]")
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = path.read_text() if path.exists() else ""
    path.write_text(existing + ("\n" if existing else "") + "\n".join(lines))
    print(f"wrote {path}")


def enable_project_servers(project: Path):
    settings = project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data["enableAllProjectMcpServers"] = True
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(data, indent=2) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", default=".")
    args = ap.parse_args()
    project = Path(args.project).resolve()
    for tool in ("npx", "uvx"):
        if not shutil.which(tool):
            print(f"warning: {tool} not found on PATH")
    merge_json(project / ".mcp.json")
    merge_json(project / ".cursor" / "mcp.json")
    write_codex(project / ".codex" / "config.toml")
    enable_project_servers(project)


if __name__ == "__main__":
    main()
