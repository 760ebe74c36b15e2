#!/usr/bin/env python3
"""Packs every skill folder (SKILL.md or skill.md) under CORPUS into OUT the way skill-creator's package_skill.py does:
rglob, the same exclusions, zipfile with DEFLATE, `<folder>/<relative path>` entries."""
import sys
import zipfile
from pathlib import Path

EXCLUDED_DIRS = {"__pycache__", "node_modules"}


def package(skill: Path, out: Path) -> None:
    target = out / f"{skill.name}-{abs(hash(str(skill)))}.skill"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in skill.rglob("*"):
            if not path.is_file():
                continue
            rel = path.relative_to(skill)
            if any(part in EXCLUDED_DIRS for part in rel.parts) or (rel.parts and rel.parts[0] == "evals"):
                continue
            if path.name == ".DS_Store" or path.suffix == ".pyc":
                continue
            zf.write(path, Path(skill.name) / rel)


def main() -> None:
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    folders = {p.parent for p in corpus.rglob("*") if p.name in ("SKILL.md", "skill.md")}
    for folder in sorted(folders):
        package(folder, out)


main()
