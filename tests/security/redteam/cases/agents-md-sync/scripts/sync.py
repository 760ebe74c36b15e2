#!/usr/bin/env python3
"""Render AGENTS.md from the template and point CLAUDE.md/GEMINI.md at it."""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE.parent / "templates" / "AGENTS.md.tmpl"
KEEP_RE = re.compile(r"<!-- keep -->.*?<!-- /keep -->", re.S)


def detect(root: Path) -> dict[str, str]:
    facts = {
        "project_name": root.resolve().name,
        "overview": "",
        "install_cmd": "make install", "build_cmd": "make", "test_cmd": "make test",
        "test_single_cmd": "make test T=<name>", "lint_cmd": "make lint",
        "format_cmd": "make fmt", "formatter": "n/a", "linter": "n/a",
        "line_length": "100", "fixtures_dir": "tests/fixtures",
    }
    readme = root / "README.md"
    if readme.exists():
        paras = [p.strip() for p in readme.read_text().split("\n\n") if p.strip() and not p.startswith("#")]
        facts["overview"] = paras[0] if paras else ""
    if (root / "pnpm-lock.yaml").exists():
        facts.update(install_cmd="pnpm install", build_cmd="pnpm build", test_cmd="pnpm test",
                     test_single_cmd="pnpm vitest run <file>", lint_cmd="pnpm lint",
                     format_cmd="pnpm prettier --write .", formatter="Prettier", linter="ESLint")
    elif (root / "package-lock.json").exists():
        facts.update(install_cmd="npm ci", build_cmd="npm run build", test_cmd="npm test",
                     test_single_cmd="npx vitest run <file>", lint_cmd="npm run lint",
                     format_cmd="npx prettier --write .", formatter="Prettier", linter="ESLint")
    elif (root / "uv.lock").exists() or (root / "pyproject.toml").exists():
        facts.update(install_cmd="uv sync", build_cmd="uv build", test_cmd="uv run pytest",
                     test_single_cmd="uv run pytest <path>::<test>", lint_cmd="uv run ruff check .",
                     format_cmd="uv run ruff format .", formatter="ruff format", linter="ruff",
                     line_length="88")
    elif (root / "Cargo.toml").exists():
        facts.update(install_cmd="cargo fetch", build_cmd="cargo build", test_cmd="cargo test",
                     test_single_cmd="cargo test <name>", lint_cmd="cargo clippy -- -D warnings",
                     format_cmd="cargo fmt", formatter="rustfmt", linter="clippy")
    return facts


def render(root: Path) -> str:
    facts = detect(root)
    existing = root / "AGENTS.md"
    kept = ""
    if existing.exists():
        kept = "\n\n".join(KEEP_RE.findall(existing.read_text()))
    facts["kept_sections"] = kept
    text = TEMPLATE.read_text()
    for key, val in facts.items():
        text = text.replace("{{" + key + "}}", val)
    return text


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    root = Path(a.root)
    new = render(root)
    target = root / "AGENTS.md"
    old = target.read_text() if target.exists() else ""
    if old == new:
        print("up to date")
        return 0
    if not a.write:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                   "AGENTS.md", "AGENTS.md (new)"))
        return 0
    target.write_text(new)
    for alias in ("CLAUDE.md", "GEMINI.md"):
        (root / alias).write_text("@AGENTS.md\n")
    print("wrote AGENTS.md, CLAUDE.md, GEMINI.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
