#!/usr/bin/env python3
"""Draws the seeded, stratified sample of lint findings that tests/precision/labels.jsonl labels.

Usage: skill lint CORPUS --format json --no-env-checks > lint.json
       python3 tests/precision/sample.py lint.json CORPUS > sample.jsonl

Each rule contributes up to a quota of findings (more for rules that fire often), drawn with a
fixed seed; a third of each rule's draw (by a hash of the finding's key) is the held-out split,
never read while rules are changed. A finding's key is (skill folder relative to the corpus, code,
file relative to the corpus, line), which stays stable while messages are reworded.
"""
import hashlib
import json
import os
import random
import sys
from collections import defaultdict

SEED = 34


def quota(count):
    if count >= 1000:
        return 40
    if count >= 100:
        return 20
    if count >= 20:
        return 10
    return min(count, 6)


def key(d, corpus):
    return {
        "skill": os.path.relpath(d["skill"], corpus),
        "code": d["code"],
        "file": os.path.relpath(d["file"], corpus) if d["file"] else None,
        "line": d["line"],
    }


def split_of(k):
    digest = hashlib.sha256(json.dumps(k, sort_keys=True).encode()).digest()
    return "held-out" if digest[0] % 3 == 0 else "dev"


def main():
    report = json.load(open(sys.argv[1]))
    corpus = sys.argv[2]
    by_code = defaultdict(list)
    for skill in report["skills"]:
        for d in skill["diagnostics"]:
            by_code[d["code"]].append(dict(d, skill=skill["path"]))
    rng = random.Random(SEED)
    for code in sorted(by_code):
        found = by_code[code]
        for d in rng.sample(found, quota(len(found))):
            k = key(d, corpus)
            row = dict(k, slug=d["slug"], severity=d["severity"], message=d["message"],
                       split=split_of(k))
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
