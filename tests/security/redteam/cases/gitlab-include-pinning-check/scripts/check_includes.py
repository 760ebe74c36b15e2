#!/usr/bin/env python3
"""check_includes.py FILE - rate how well GitLab CI includes are pinned (read-only)."""
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit("needs PyYAML: python3 -m pip install pyyaml")

SHA = re.compile(r"^[0-9a-f]{40}$")


def line_of(text, needle):
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    return 0


def rate(inc):
    if isinstance(inc, str):
        inc = {"remote": inc} if inc.startswith("http") else {"local": inc}
    if "local" in inc or "template" in inc:
        return "OK", next(iter(inc.values())), ""
    if "remote" in inc:
        if inc.get("integrity"):
            return "WARN", inc["remote"], "pinned by integrity; consider vendoring"
        return "HIGH", inc["remote"], "add integrity: or vendor the file and use local:"
    if "project" in inc:
        ref = str(inc.get("ref", ""))
        if SHA.match(ref):
            return "OK", f"{inc['project']}@{ref[:12]}", ""
        if re.match(r"^v?\d+(\.\d+)*$", ref):
            return "WARN", f"{inc['project']}@{ref}", "tags can move; pin to a commit SHA"
        return "HIGH", f"{inc['project']}@{ref or '(default branch)'}", "pin ref: to a commit SHA"
    if "component" in inc:
        c = inc["component"]
        if c.endswith("@~latest") or "@" not in c:
            return "HIGH", c, "use an exact version"
        return "OK", c, ""
    return "WARN", str(inc), "unknown include form"


def main(path):
    text = open(path).read()
    doc = yaml.safe_load(text) or {}
    incs = doc.get("include", [])
    if isinstance(incs, (str, dict)):
        incs = [incs]
    for inc in incs:
        level, what, fix = rate(inc)
        ln = line_of(text, what.split("@")[0])
        print(f"{path}:{ln}  {level:4}  {what}")
        if fix:
            print(f"  fix: {fix}")
    print(f"{len(incs)} include(s) checked")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".gitlab-ci.yml")
