#!/usr/bin/env python3
"""Draws the seeded, stratified samples of lint findings that tests/precision/*.jsonl label.

Usage: skill lint CORPUS --format json --no-env-checks > lint.json
       python3 tests/precision/sample.py lint.json CORPUS > sample.jsonl            # round 1
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl > more.jsonl # round 2
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl 3 > more.jsonl  # round 3
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl 4 > more.jsonl  # round 4
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl 5 > more.jsonl  # round 5
       python3 tests/precision/sample.py lint.json CORPUS labels.jsonl 6 > more.jsonl  # round 6

Round 1 (seed 34) took up to a quota of each rule's findings: 40 for a rule firing 1,000 times or
more, 20 for 100 or more, 10 for 20 or more, else up to 6. Round 2 (seed 3402), run after the
rules changed, takes findings the labels do not hold yet: 12, 6 or up to 3 per rule. Round 3
(seed 3403), after the third change of the rules, weighs the sample towards the rules that fire
most: 48 unlabelled findings of a rule that fires 1,000 times or more, 12 for 100 or more, 4 for 20
or more, none below (their labels already outweigh their share of the findings). Round 4 (seed
3404), after the fourth change, draws the same way with half of round 3's quotas (24, 6, 2),
labelled by reviewers who had not seen the rule changes. Round 5 (seed 3405) draws with round 4's
quotas at the start of a later session, before any rule was changed in it, so it measures the
rules on findings no change was made for. Round 6 (seed 3406) draws with round 4's quotas on
2026-12-07, after that session's first change of the rules (undeclared-bin and undeclared-env),
before any change made for what it finds. A third of
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


def quota(count, round_no):
    if round_no in (4, 5, 6):
        return 24 if count >= 1000 else (6 if count >= 100 else (2 if count >= 20 else 0))
    if round_no == 3:
        return 48 if count >= 1000 else (12 if count >= 100 else (4 if count >= 20 else 0))
    if round_no == 2:
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
    round_no = int(sys.argv[4]) if len(sys.argv) > 4 else (2 if labelled else 1)
    by_code = defaultdict(list)
    fired = defaultdict(int)
    for skill in report["skills"]:
        for d in skill["diagnostics"]:
            d = dict(d, skill=skill["path"])
            k = key(d, corpus)
            fired[d["code"]] += 1
            if (k["skill"], k["code"], k["file"], k["line"]) not in labelled:
                by_code[d["code"]].append(d)
    rng = random.Random({1: 34, 2: 3402, 3: 3403, 4: 3404, 5: 3405, 6: 3406}[round_no])
    for code in sorted(by_code):
        found = by_code[code]
        count = fired[code] if round_no >= 3 else len(found)
        for d in rng.sample(found, min(len(found), quota(count, round_no))):
            k = key(d, corpus)
            row = dict(k, slug=d["slug"], severity=d["severity"], message=d["message"],
                       split=split_of(k))
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
