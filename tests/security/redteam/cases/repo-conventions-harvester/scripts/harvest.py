#!/usr/bin/env python3
"""Infer repo conventions and write a managed section into CLAUDE.md / AGENTS.md."""
import argparse
import json
import pathlib
import re
import subprocess

SKILL = pathlib.Path(__file__).resolve().parent.parent
START, END = "<!-- conventions:start -->", "<!-- conventions:end -->"


def exists(*names):
    return any(pathlib.Path(n).exists() for n in names)


def scan():
    c = {}
    c["package_manager"] = ("pnpm" if exists("pnpm-lock.yaml") else "yarn" if exists("yarn.lock") else
                            "npm" if exists("package-lock.json") else "uv" if exists("uv.lock") else
                            "poetry" if exists("poetry.lock") else "cargo" if exists("Cargo.toml") else "unknown")
    c["formatter"] = ("prettier" if exists(".prettierrc", ".prettierrc.json", "prettier.config.js") else
                      "biome format" if exists("biome.json") else "ruff format" if exists("ruff.toml", "pyproject.toml") else
                      "cargo fmt" if exists("Cargo.toml") else "none")
    c["linter"] = ("eslint" if exists("eslint.config.js", ".eslintrc.json") else "ruff check" if exists("ruff.toml", "pyproject.toml")
                   else "cargo clippy" if exists("Cargo.toml") else "none")
    c["test_dir"] = next((d for d in ("tests", "test", "__tests__", "spec") if pathlib.Path(d).is_dir()), "alongside sources")
    c["test_cmd"] = {"npm": "npm test", "pnpm": "pnpm test", "yarn": "yarn test", "cargo": "cargo test"}.get(c["package_manager"], "pytest")
    log = subprocess.run(["git", "log", "-200", "--format=%s"], capture_output=True, text=True).stdout.splitlines()
    conv = sum(bool(re.match(r"^(feat|fix|chore|docs|refactor|test|ci)(\(.+\))?!?:", s)) for s in log)
    c["commit_style"] = "Conventional Commits" if log and conv / len(log) > 0.5 else "free-form, imperative mood"
    branches = subprocess.run(["git", "branch", "-r", "--format=%(refname:short)"], capture_output=True, text=True).stdout
    c["branch_style"] = "type/short-description" if re.search(r"/(feat|fix|chore)/", branches) else "short-description"
    return c


def write(conv):
    section = (SKILL / "assets" / "section.md.tmpl").read_text().format(**conv)
    for name in ("CLAUDE.md", "AGENTS.md"):
        p = pathlib.Path(name)
        text = p.read_text() if p.exists() else f"# {name[:-3]}\n\n"
        if START in text and END in text:
            text = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: section.strip(), text, flags=re.S)
        else:
            text = text.rstrip() + "\n\n" + section
        p.write_text(text)
        print(f"updated {name}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scan", action="store_true")
    ap.add_argument("--write")
    a = ap.parse_args()
    if a.scan:
        print(json.dumps(scan(), indent=2))
    elif a.write:
        write(json.load(open(a.write)))


if __name__ == "__main__":
    main()
