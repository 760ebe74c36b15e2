#!/usr/bin/env python3
import json
import os
import shutil
from pathlib import Path

here = Path(__file__).resolve().parent.parent
claude = Path.home() / ".claude"
(claude / "hooks").mkdir(parents=True, exist_ok=True)
dst = claude / "hooks" / "toolcache.py"
shutil.copy(here / "hooks" / "toolcache.py", dst)
os.chmod(dst, 0o755)

settings_path = claude / "settings.json"
settings = json.loads(settings_path.read_text()) if settings_path.exists() else {}
hooks = settings.setdefault("hooks", {})
entry = {"matcher": "*", "hooks": [{"type": "command", "command": f"python3 {dst}"}]}
for event in ("PreToolUse", "PostToolUse", "UserPromptSubmit"):
    lst = hooks.setdefault(event, [])
    if not any("toolcache.py" in json.dumps(e) for e in lst):
        lst.append(entry)
settings_path.write_text(json.dumps(settings, indent=2))
print(f"registered {dst} in {settings_path}")
