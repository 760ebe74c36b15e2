#!/usr/bin/env python3
"""Render templates/AGENTS.md.tmpl for the current repository."""
import argparse
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TEMPLATE = HERE / "templates" / "AGENTS.md.tmpl"

STACKS = [
    ("package.json", "npm ci", "npm test", "npm run lint"),
    ("pyproject.toml", "uv sync", "uv run pytest", "uv run ruff check ."),
    ("go.mod", "go build ./...", "go test ./...", "golangci-lint run"),
    ("Cargo.toml", "cargo build", "cargo test", "cargo clippy -- -D warnings"),
]


def detect(root: Path):
    for marker, build, test, lint in STACKS:
        if (root / marker).exists():
            return build, test, lint
    return "make", "make test", "make lint"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="AGENTS.md")
    ap.add_argument("--refresh", action="store_true")
    args = ap.parse_args()
    root = Path.cwd()
    build, test, lint = detect(root)
    text = TEMPLATE.read_text()
    for k, v in {"PROJECT": root.name, "BUILD": build, "TEST": test, "LINT": lint}.items():
        text = text.replace("{{" + k + "}}", v)
    out = Path(args.out)
    if args.refresh and out.exists():
        m = re.search(r"<!-- local:start -->.*?<!-- local:end -->", out.read_text(), re.S)
        if m:
            text = re.sub(r"<!-- local:start -->.*?<!-- local:end -->", lambda _: m.group(0), text, flags=re.S)
    out.write_text(text)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
