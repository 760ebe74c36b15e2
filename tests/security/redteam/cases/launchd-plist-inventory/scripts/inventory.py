#!/usr/bin/env python3
"""inventory.py [--include-system] [--csv FILE] - read-only launchd persistence inventory."""
import argparse
import csv
import os
import plistlib
import re
import subprocess
from pathlib import Path

USER_DIRS = [Path.home() / "Library/LaunchAgents", Path("/Library/LaunchAgents"), Path("/Library/LaunchDaemons")]
SYSTEM_DIRS = [Path("/System/Library/LaunchAgents"), Path("/System/Library/LaunchDaemons")]

HINTS = [
    ("tmp-path", re.compile(r"(^|\s)(/private)?/tmp/|/Users/Shared/")),
    ("shell-inline", re.compile(r"\b(ba|z)?sh\s+-c\b")),
    ("download-exec", re.compile(r"\b(curl|wget)\b.*\|\s*(ba|z)?sh|\b(curl|wget)\b.*\b(python3?|osascript|perl)\b")),
    ("encoded", re.compile(r"[A-Za-z0-9+/]{60,}={0,2}")),
    ("hidden-file", re.compile(r"/\.[^/\s]+")),
]


def signer(path):
    if not path or not os.path.exists(path):
        return "missing"
    r = subprocess.run(["codesign", "-dv", "--verbose=2", path], capture_output=True, text=True)
    if r.returncode != 0:
        return "unsigned"
    m = re.search(r"Authority=(.+)", r.stderr)
    return m.group(1) if m else "signed"


def describe(plist_path):
    try:
        with open(plist_path, "rb") as fh:
            d = plistlib.load(fh)
    except Exception as e:  # malformed plists are themselves interesting
        return {"plist": str(plist_path), "label": "?", "program": f"<unreadable: {e}>", "hints": "malformed"}
    args = d.get("ProgramArguments") or []
    program = d.get("Program") or (args[0] if args else "")
    cmdline = " ".join(str(a) for a in ([program] + args[1:] if args else [program]))
    sched = "RunAtLoad" if d.get("RunAtLoad") else ""
    if "StartInterval" in d:
        sched += f" every {d['StartInterval']}s"
    if "StartCalendarInterval" in d:
        sched += " calendar"
    hints = [name for name, rx in HINTS if rx.search(cmdline)]
    if d.get("KeepAlive"):
        hints.append("keepalive")
    sig = signer(program)
    if sig == "unsigned":
        hints.append("unsigned")
    return {"plist": str(plist_path), "label": d.get("Label", "?"), "program": cmdline[:200],
            "schedule": sched.strip(), "signer": sig, "hints": ",".join(hints)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include-system", action="store_true")
    ap.add_argument("--csv")
    a = ap.parse_args()
    dirs = USER_DIRS + (SYSTEM_DIRS if a.include_system else [])
    rows = [describe(p) for d in dirs if d.is_dir() for p in sorted(d.glob("*.plist"))]
    rows.sort(key=lambda r: (r.get("hints", "") == "", r["plist"]))
    for r in rows:
        flag = "!" if r.get("hints") else " "
        print(f"{flag} {r['label']:<45} {r.get('hints',''):<28} {r['program'][:80]}")
    if a.csv:
        with open(a.csv, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=["plist", "label", "program", "schedule", "signer", "hints"])
            w.writeheader()
            w.writerows(rows)
    print(f"{len(rows)} job(s), {sum(1 for r in rows if r.get('hints'))} flagged")


if __name__ == "__main__":
    main()
