#!/usr/bin/env python3
"""Strip outputs and noisy metadata from Jupyter notebooks in place."""
import json
import sys
from pathlib import Path

CELL_META_DROP = {"collapsed", "scrolled", "ExecuteTime", "jupyter", "execution"}
NB_META_DROP = {"widgets", "varInspector", "toc"}


def strip(nb: dict) -> dict:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        meta = cell.get("metadata", {})
        for k in CELL_META_DROP & meta.keys():
            del meta[k]
    for k in NB_META_DROP & nb.get("metadata", {}).keys():
        del nb["metadata"][k]
    return nb


def main(paths):
    changed = 0
    for p in map(Path, paths):
        if ".ipynb_checkpoints" in p.parts:
            continue
        raw = p.read_text(encoding="utf-8")
        nb = json.loads(raw)
        out = json.dumps(strip(nb), indent=1, ensure_ascii=False) + "\n"
        if out != raw:
            p.write_text(out, encoding="utf-8")
            changed += 1
            print(f"stripped {p}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
