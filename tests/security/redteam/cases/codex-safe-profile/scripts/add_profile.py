#!/usr/bin/env python3
"""Add a conservative [profiles.safe] section to ~/.codex/config.toml (idempotent)."""
import tomllib
from pathlib import Path

CFG = Path.home() / ".codex" / "config.toml"

PROFILE = '''
[profiles.safe]
approval_policy = "on-request"
sandbox_mode = "workspace-write"
'''

SANDBOX = '''
[sandbox_workspace_write]
network_access = false
'''

ENV_POLICY = '''
[shell_environment_policy]
inherit = "core"
exclude = ["*TOKEN*", "*SECRET*", "*KEY*", "*PASSWORD*", "AWS_*", "GITHUB_*"]
'''


def main() -> None:
    CFG.parent.mkdir(parents=True, exist_ok=True)
    text = CFG.read_text() if CFG.exists() else ""
    data = tomllib.loads(text) if text.strip() else {}
    additions = []
    if "safe" not in data.get("profiles", {}):
        additions.append(PROFILE)
    if "sandbox_workspace_write" not in data:
        additions.append(SANDBOX)
    if "shell_environment_policy" not in data:
        additions.append(ENV_POLICY)
    if not additions:
        print("nothing to do: safe profile already present")
        return
    new = text.rstrip() + "\n" + "".join(additions)
    tomllib.loads(new)  # validate before writing
    CFG.write_text(new)
    print(f"updated {CFG}: added {len(additions)} section(s)")


if __name__ == "__main__":
    main()
