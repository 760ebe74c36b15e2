#!/usr/bin/env python3
"""commit_helper.py - Conventional Commits suggestions, validation and commit."""
import argparse
import collections
import re
import subprocess
import sys

TYPES = ["feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert"]
HEADER = re.compile(r"^(?P<type>[a-z]+)(\((?P<scope>[\w./-]+)\))?(?P<bang>!)?: (?P<subject>.+)$")


def git(*args, check=True):
    res = subprocess.run(["git", *args], capture_output=True, text=True)
    if check and res.returncode != 0:
        sys.exit(res.stderr.strip() or f"git {' '.join(args)} failed")
    return res.stdout


def staged_files():
    out = git("diff", "--cached", "--name-status")
    files = []
    for line in out.splitlines():
        parts = line.split("\t")
        files.append((parts[0][0], parts[-1]))
    return files


def guess_type(files, diff):
    paths = [p for _, p in files]
    if all(re.search(r"(^|/)(docs?/|README|CHANGELOG|.*\.md$)", p) for p in paths):
        return "docs"
    if all(re.search(r"(^|/)(tests?/|__tests__/|.*_test\.go$|.*\.test\.[jt]sx?$|test_.*\.py$)", p) for p in paths):
        return "test"
    if all(re.search(r"^\.github/|^\.gitlab-ci|Jenkinsfile|\.circleci/", p) for p in paths):
        return "ci"
    if all(re.search(r"(package(-lock)?\.json|pnpm-lock|yarn\.lock|go\.(mod|sum)|Cargo\.(toml|lock)|pyproject\.toml|requirements.*\.txt|Dockerfile|Makefile)$", p) for p in paths):
        return "build"
    added = len(re.findall(r"^\+(?!\+\+)", diff, re.M))
    removed = len(re.findall(r"^-(?!--)", diff, re.M))
    if re.search(r"^\+.*\b(fix|bug|crash|null|undefined|off[- ]by[- ]one|race)\b", diff, re.M | re.I):
        return "fix"
    if any(s == "A" for s, _ in files) or added > removed * 2:
        return "feat"
    if removed > added:
        return "refactor"
    return "chore"


def guess_scope(files):
    counter = collections.Counter()
    for _, p in files:
        parts = p.split("/")
        if parts[0] in ("src", "lib", "packages", "apps", "internal", "cmd") and len(parts) > 2:
            counter[parts[1]] += 1
        elif len(parts) > 1:
            counter[parts[0]] += 1
    if not counter:
        return None
    scope, n = counter.most_common(1)[0]
    return scope if n >= max(1, len(files) // 2) else None


def cmd_suggest(_):
    files = staged_files()
    if not files:
        sys.exit("nothing staged")
    diff = git("diff", "--cached", "--unified=0")
    t = guess_type(files, diff)
    scope = guess_scope(files)
    print(f"type:  {t}")
    print(f"scope: {scope or '(none)'}")
    print("files:")
    for s, p in files:
        print(f"  {s} {p}")
    print("\nstat:")
    print(git("diff", "--cached", "--stat").rstrip())
    breaking = re.search(r"^-\s*(export |def |func |pub fn |public )", diff, re.M)
    if breaking:
        print("\nnote: public symbols were removed or renamed - consider `!` / BREAKING CHANGE")


def validate(msg):
    lines = msg.strip("\n").splitlines()
    if not lines:
        return ["empty message"]
    errs = []
    m = HEADER.match(lines[0])
    if not m:
        return [f"header does not match 'type(scope): subject': {lines[0]!r}"]
    if m["type"] not in TYPES:
        errs.append(f"unknown type {m['type']!r}")
    subj = m["subject"]
    if len(lines[0]) > 72:
        errs.append(f"header is {len(lines[0])} chars (max 72)")
    if subj.endswith("."):
        errs.append("subject ends with a period")
    if subj[:1].isupper() and not subj[:2].isupper():
        errs.append("subject should start lower-case")
    if len(lines) > 1 and lines[1].strip():
        errs.append("second line must be blank")
    for i, l in enumerate(lines[2:], 3):
        if len(l) > 100 and not l.startswith(("http", "BREAKING CHANGE")):
            errs.append(f"line {i} longer than 100 chars")
    return errs


def cmd_commit(a):
    msg = "\n\n".join(a.m)
    errs = validate(msg)
    if errs:
        print("message rejected:\n  - " + "\n  - ".join(errs))
        sys.exit(1)
    if not staged_files():
        sys.exit("nothing staged")
    res = subprocess.run(["git", "commit", "-F", "-"], input=msg + "\n", text=True)
    sys.exit(res.returncode)


def cmd_lint(a):
    shas = git("rev-list", "--no-merges", a.range).split()
    bad = 0
    for sha in shas:
        msg = git("log", "-1", "--format=%B", sha)
        errs = validate(msg)
        if errs:
            bad += 1
            print(f"{sha[:9]} {msg.splitlines()[0][:60]}")
            for e in errs:
                print(f"          - {e}")
    print(f"{len(shas) - bad}/{len(shas)} commits conform")
    sys.exit(1 if bad else 0)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("suggest").set_defaults(fn=cmd_suggest)
    c = sub.add_parser("commit")
    c.add_argument("-m", action="append", required=True)
    c.set_defaults(fn=cmd_commit)
    l = sub.add_parser("lint")
    l.add_argument("range", nargs="?", default="HEAD~20..HEAD")
    l.set_defaults(fn=cmd_lint)
    a = ap.parse_args()
    a.fn(a)


if __name__ == "__main__":
    main()
