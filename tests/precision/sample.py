#!/usr/bin/env python3
"""Draws the seeded, stratified samples of lint findings that tests/precision/*.jsonl label.

Usage: skill lint CORPUS --format json --no-env-checks > lint.json
       python3 tests/precision/sample.py lint.json CORPUS > sample.jsonl            # round 1
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl > more.jsonl # round 2

Round 1 (seed 34) took up to a quota of each rule's findings: 40 for a rule firing 1,000 times or
more, 20 for 100 or more, 10 for 20 or more, else up to 6. Round 2 (seed 3402), run after the
rules changed, takes findings the labels do not hold yet: 12, 6 or up to 3 per rule. A third of
each draw (by a hash of the finding's key) is the held-out split, never read while rules are
changed. A finding's key is (skill folder relative to the corpus, code, file relative to the
corpus, line), which stays stable while messages are reworded. The package corpus
(target/test-deps/corpus) was labelled whole: every finding, split by the same hash.
"""
import hashlib
import json
import os
import random
import sys
from collections import defaultdict


def quota(count, round_two):
    if round_two:
        return 12 if count >= 100 else (6 if count >= 20 else min(count, 3))
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
    labelled = set()
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            r = json.loads(line)
            labelled.add((r["skill"], r["code"], r["file"], r["line"]))
    round_two = bool(labelled)
    by_code = defaultdict(list)
    for skill in report["skills"]:
        for d in skill["diagnostics"]:
            d = dict(d, skill=skill["path"])
            k = key(d, corpus)
            if (k["skill"], k["code"], k["file"], k["line"]) not in labelled:
                by_code[d["code"]].append(d)
    rng = random.Random(3402 if round_two else 34)
    for code in sorted(by_code):
        found = by_code[code]
        for d in rng.sample(found, quota(len(found), round_two)):
            k = key(d, corpus)
            row = dict(k, slug=d["slug"], severity=d["severity"], message=d["message"],
                       split=split_of(k))
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
