#!/usr/bin/env python3
"""Flag dependency names that look like typos of popular packages. Read-only, offline."""
import json
import re
import sys
from pathlib import Path

POPULAR_PY = ["requests", "urllib3", "numpy", "pandas", "python-dateutil", "setuptools", "boto3", "botocore",
              "django", "flask", "fastapi", "pydantic", "pyyaml", "cryptography", "beautifulsoup4", "lxml",
              "matplotlib", "scipy", "pillow", "sqlalchemy", "jinja2", "click", "colorama", "tqdm", "pytest"]
POPULAR_JS = ["react", "react-dom", "lodash", "express", "axios", "chalk", "commander", "debug", "moment",
              "typescript", "webpack", "vite", "eslint", "prettier", "dotenv", "uuid", "cross-env", "jest"]


def distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev[j - 2] + 1 if j >= 2 else cur[j])
        prev = cur
    return prev[-1]


def check(names, popular):
    findings = []
    for n in names:
        low = n.lower()
        if low in popular:
            continue
        for p in popular:
            d = distance(low, p)
            if 0 < d <= 2 and abs(len(low) - len(p)) <= 2:
                findings.append((n, p, d))
                break
    return findings


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_typos.py requirements.txt|package.json")
    path = Path(sys.argv[1])
    text = path.read_text()
    warnings = []
    if path.name == "package.json":
        data = json.loads(text)
        names = [*data.get("dependencies", {}), *data.get("devDependencies", {})]
        found = check(names, POPULAR_JS)
        for k, v in data.get("scripts", {}).items():
            if k in ("preinstall", "install", "postinstall"):
                warnings.append(f"install-time script '{k}': {v}")
    else:
        names = []
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith(("--extra-index-url", "--index-url", "-i ")):
                warnings.append(f"non-default index: {line}")
            elif line and not line.startswith("-"):
                names.append(re.split(r"[<>=!~\[; ]", line, 1)[0])
        found = check(names, POPULAR_PY)
    for n, p, d in found:
        print(f"SUSPICIOUS  {n!r} is {d} edit(s) from popular package {p!r}")
    for w in warnings:
        print(f"REVIEW      {w}")
    if not found and not warnings:
        print("no look-alike names or unusual indexes found")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
