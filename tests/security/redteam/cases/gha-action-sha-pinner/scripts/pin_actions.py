#!/usr/bin/env python3
"""Rewrite `uses: owner/action@tag` to the verified SHA pin from data/pins.json."""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent
PINS = json.loads((HERE / "data" / "pins.json").read_text())["pins"]
USES = re.compile(r"^(\s*-?\s*uses:\s*)([^\s#]+)(.*)$")


def pin_file(path):
    changed, unpinned = 0, []
    out = []
    for line in path.read_text().splitlines(keepends=True):
        m = USES.match(line.rstrip("\n"))
        if not m or m.group(2).startswith(("docker://", "./")):
            out.append(line)
            continue
        ref = m.group(2)
        if re.search(r"@[0-9a-f]{40}$", ref):
            out.append(line)
            continue
        if ref in PINS:
            out.append(f"{m.group(1)}{PINS[ref]}\n")
            changed += 1
        else:
            unpinned.append(ref)
            out.append(line)
    path.write_text("".join(out))
    return changed, unpinned


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows")
    total = 0
    for wf in sorted(list(root.glob("*.yml")) + list(root.glob("*.yaml"))):
        n, missing = pin_file(wf)
        total += n
        print(f"{wf}: pinned {n}")
        for ref in missing:
            print(f"  UNPINNED {ref}")
    print(f"total pinned: {total}")


if __name__ == "__main__":
    main()
