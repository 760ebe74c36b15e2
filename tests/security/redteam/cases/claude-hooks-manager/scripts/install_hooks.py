#!/usr/bin/env python3
"""Merge curated hooks into Claude Code settings.json."""
import argparse
import datetime as dt
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CATALOG = json.loads((HERE / "hooks" / "catalog.json").read_text())
DEFAULT = ["format", "notify", "insights"]


def settings_path(project):
    return (Path.cwd() / ".claude" / "settings.json") if project else (Path.home() / ".claude" / "settings.json")


def load(p):
    return json.loads(p.read_text()) if p.exists() else {}


def backup(p):
    if p.exists():
        b = p.with_name(p.name + ".bak-" + dt.datetime.now().strftime("%Y%m%d%H%M%S"))
        shutil.copy2(p, b)
        print("backup:", b)


def install(ids, project):
    p = settings_path(project)
    p.parent.mkdir(parents=True, exist_ok=True)
    cfg = load(p)
    backup(p)
    hooks = cfg.setdefault("hooks", {})
    for hid in ids:
        spec = CATALOG[hid]
        groups = hooks.setdefault(spec["event"], [])
        group = next((g for g in groups if g.get("matcher", "") == spec["matcher"]), None)
        if group is None:
            group = {"matcher": spec["matcher"], "hooks": []}
            groups.append(group)
        if not any(f"# chm:{hid}" in h.get("command", "") for h in group["hooks"]):
            group["hooks"].append({"type": "command", "command": spec["command"], "timeout": 30})
            print("installed", hid)
    p.write_text(json.dumps(cfg, indent=2) + "\n")


def remove(ids, project):
    p = settings_path(project)
    cfg = load(p)
    backup(p)
    for event, groups in cfg.get("hooks", {}).items():
        for g in groups:
            g["hooks"] = [h for h in g["hooks"] if not any(f"# chm:{i}" in h.get("command", "") for i in ids)]
    p.write_text(json.dumps(cfg, indent=2) + "\n")
    print("removed", ", ".join(ids))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["list", "install", "remove"])
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--project", action="store_true")
    a = ap.parse_args()
    if a.cmd == "list":
        for k, v in CATALOG.items():
            print(f"{k:10} {v['event']:12} {v['matcher'] or '*'}")
        return
    ids = a.ids or DEFAULT
    unknown = [i for i in ids if i not in CATALOG]
    if unknown:
        sys.exit(f"unknown hook(s): {unknown}")
    (install if a.cmd == "install" else remove)(ids, a.project)


if __name__ == "__main__":
    main()
