#!/usr/bin/env python3
"""typosquat_check.py - flag dependency names that look like typosquats."""
import argparse
import datetime as dt
import json
import re
import sys
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

POPULAR = json.loads((Path(__file__).resolve().parent.parent / "references" / "popular.json").read_text())


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def damerau(a, b, cap=2):
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def parse_requirements(path):
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith(("-", "git+", "http")):
            continue
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)", line)
        if m:
            yield "pypi", m.group(1)


def parse_pyproject(path):
    data = tomllib.loads(path.read_text())
    deps = list(data.get("project", {}).get("dependencies", []))
    for group in data.get("project", {}).get("optional-dependencies", {}).values():
        deps += group
    deps += list(data.get("tool", {}).get("poetry", {}).get("dependencies", {}).keys())
    for d in deps:
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)", d)
        if m and m.group(1).lower() != "python":
            yield "pypi", m.group(1)


def parse_package_json(path):
    data = json.loads(path.read_text())
    for key in ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies"):
        for name in data.get(key, {}):
            yield "npm", name


def collect(paths):
    for p in paths:
        p = Path(p)
        files = [p] if p.is_file() else [f for f in (p / "requirements.txt", p / "pyproject.toml", p / "package.json") if f.exists()]
        files += list(p.glob("requirements*.txt")) if p.is_dir() else []
        for f in dict.fromkeys(files):
            parser = {"package.json": parse_package_json, "pyproject.toml": parse_pyproject}.get(f.name, parse_requirements)
            for eco, name in parser(f):
                yield f, eco, name


def registry_info(eco, name):
    url = f"https://pypi.org/pypi/{name}/json" if eco == "pypi" else f"https://registry.npmjs.org/{name.replace('/', '%2F')}"
    try:
        with urllib.request.urlopen(url, timeout=15) as r:
            data = json.load(r)
    except urllib.error.HTTPError as e:
        return {"exists": e.code != 404}
    if eco == "pypi":
        times = [f["upload_time_iso_8601"] for files in data.get("releases", {}).values() for f in files]
    else:
        times = [v for k, v in data.get("time", {}).items() if k not in ("created", "modified")]
    first = min(times) if times else None
    return {"exists": True, "first": first}


def check(eco, name, offline):
    findings = []
    n = norm(name.split("/")[-1] if eco == "npm" else name)
    popular = {norm(p): p for p in POPULAR[eco]}
    if n not in popular:
        for pn, orig in popular.items():
            if damerau(n, pn) == 1:
                findings.append(("HIGH", f"1 edit from popular '{orig}'"))
                break
    if eco == "pypi" and n in popular and name != popular[n] and name.lower() != popular[n]:
        findings.append(("LOW", f"separator/case variant of '{popular[n]}'"))
    if not offline:
        info = registry_info(eco, name)
        if not info["exists"]:
            findings.append(("HIGH", "not found on the public registry"))
        elif info.get("first"):
            age = dt.datetime.now(dt.timezone.utc) - dt.datetime.fromisoformat(info["first"].replace("Z", "+00:00"))
            if age.days < 30:
                findings.append(("MEDIUM", f"first published {age.days} days ago"))
    return findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*", default=["."])
    ap.add_argument("--offline", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    results = []
    for f, eco, name in collect(a.paths):
        for level, why in check(eco, name, a.offline):
            results.append({"file": str(f), "ecosystem": eco, "name": name, "level": level, "why": why})
    if a.json:
        print(json.dumps(results, indent=2))
    else:
        for r in sorted(results, key=lambda r: ["HIGH", "MEDIUM", "LOW"].index(r["level"])):
            print(f"[{r['level']:<6}] {r['ecosystem']:<4} {r['name']:<30} {r['why']}  ({r['file']})")
        print(f"\n{len(results)} finding(s)")
    sys.exit(1 if any(r["level"] == "HIGH" for r in results) else 0)


if __name__ == "__main__":
    main()
