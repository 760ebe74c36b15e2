#!/usr/bin/env python3
"""Collect build/test facts from repository files (read-only)."""
import json
import re
from pathlib import Path

root = Path.cwd()
facts = {"package_scripts": {}, "pyproject_tools": [], "make_targets": [], "ci_runs": [], "contributing": []}

pj = root / "package.json"
if pj.exists():
    facts["package_scripts"] = json.loads(pj.read_text()).get("scripts", {})

pp = root / "pyproject.toml"
if pp.exists():
    facts["pyproject_tools"] = sorted(set(re.findall(r"^\[tool\.([\w-]+)", pp.read_text(), re.M)))

mk = root / "Makefile"
if mk.exists():
    facts["make_targets"] = re.findall(r"^([a-zA-Z][\w-]*):", mk.read_text(), re.M)

for wf in sorted((root / ".github" / "workflows").glob("*.y*ml")):
    for m in re.finditer(r"^\s*(?:-\s*)?run:\s*(.+)$", wf.read_text(), re.M):
        cmd = m.group(1).strip()
        if cmd not in ("|", ">"):
            facts["ci_runs"].append({"workflow": wf.name, "run": cmd})

cg = root / "CONTRIBUTING.md"
if cg.exists():
    facts["contributing"] = re.findall(r"^#+\s+(.*)$", cg.read_text(), re.M)

print(json.dumps(facts, indent=2))
