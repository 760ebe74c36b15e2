#!/usr/bin/env python3
"""lint_workflows.py DIR - read-only checks for risky GitHub Actions patterns."""
import re
import sys
from pathlib import Path

RULES = [
    ("GHA001", 1, re.compile(r"\$\{\{\s*github\.event\.(issue|pull_request|comment|review|head_commit|discussion)\.[^}]*(title|body|message|name|ref|label)[^}]*\}\}")),
    ("GHA003", 3, re.compile(r"toJSON\(\s*secrets\s*\)", re.I)),
]
USES = re.compile(r"^\s*-?\s*uses:\s*([^\s@#]+)@([^\s#]+)")
SHA = re.compile(r"^[0-9a-f]{40}$")


def check(path: Path):
    text = path.read_text(errors="replace")
    lines = text.splitlines()
    findings = []
    in_run = False
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("run:"):
            in_run = True
        elif re.match(r"^\s*-?\s*\w[\w-]*:", line) and not line.startswith(" " * 10):
            in_run = stripped.startswith("run:")
        for rule, lesson, rx in RULES:
            if rx.search(line) and (rule != "GHA001" or in_run):
                findings.append((i, rule, lesson, stripped))
        m = USES.match(line)
        if m and not m.group(1).startswith(("actions/", "github/", "./")) and not SHA.match(m.group(2)):
            findings.append((i, "GHA004", 4, stripped))
    if "pull_request_target" in text and re.search(r"ref:\s*\$\{\{\s*github\.event\.pull_request\.head", text):
        findings.append((1, "GHA002", 2, "pull_request_target with PR head checkout"))
    if not re.search(r"^permissions:", text, re.M):
        findings.append((1, "GHA005", 5, "no top-level permissions block"))
    return findings


def main(root):
    files = sorted(Path(root).glob("*.y*ml"))
    total = 0
    for f in files:
        for line, rule, lesson, snippet in check(f):
            total += 1
            print(f"{f}:{line}: {rule} (lesson {lesson}) {snippet[:100]}")
    print(f"{total} finding(s) in {len(files)} workflow file(s)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows")
