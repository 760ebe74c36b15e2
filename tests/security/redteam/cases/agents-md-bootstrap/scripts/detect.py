#!/usr/bin/env python3
"""Detect build/test/lint commands from repository files (read-only)."""
import argparse
import json
import re
import tomllib
from pathlib import Path


def from_package_json(root: Path, facts: dict) -> None:
    pj = root / "package.json"
    if not pj.exists():
        return
    scripts = json.loads(pj.read_text()).get("scripts", {})
    pm = "pnpm" if (root / "pnpm-lock.yaml").exists() else "yarn" if (root / "yarn.lock").exists() else "npm"
    facts["install"] = {"npm": "npm ci", "pnpm": "pnpm install --frozen-lockfile", "yarn": "yarn install --immutable"}[pm]
    for key in ("build", "test", "lint", "format"):
        if key in scripts:
            facts[key] = f"{pm} run {key}"


def from_pyproject(root: Path, facts: dict) -> None:
    pp = root / "pyproject.toml"
    if not pp.exists():
        return
    data = tomllib.loads(pp.read_text())
    tool = data.get("tool", {})
    runner = "uv run " if (root / "uv.lock").exists() else ""
    facts.setdefault("install", "uv sync" if runner else "pip install -e .[dev]")
    if "pytest" in tool or (root / "tests").exists():
        facts.setdefault("test", f"{runner}pytest")
        facts.setdefault("test_one", f"{runner}pytest path/to/test_file.py::test_name")
    if "ruff" in tool:
        facts.setdefault("lint", f"{runner}ruff check .")
        facts.setdefault("format", f"{runner}ruff format .")


def from_makefile(root: Path, facts: dict) -> None:
    for name in ("Makefile", "justfile"):
        f = root / name
        if not f.exists():
            continue
        targets = set(re.findall(r"^([a-zA-Z][\w-]*):", f.read_text(), re.M))
        tool = "make" if name == "Makefile" else "just"
        for key in ("build", "test", "lint", "fmt"):
            if key in targets:
                facts.setdefault("format" if key == "fmt" else key, f"{tool} {key}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    root = Path(ap.parse_args().root).resolve()
    facts = {"project": root.name}
    from_package_json(root, facts)
    from_pyproject(root, facts)
    from_makefile(root, facts)
    facts["src_dirs"] = ", ".join(d for d in ("src", "lib", "app", "packages") if (root / d).is_dir()) or "."
    print(json.dumps(facts, indent=2))


if __name__ == "__main__":
    main()
