#!/usr/bin/env python3
"""Churn x ownership heatmap for a git repository."""
import argparse
import collections
import json
import os
import subprocess


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def churn(since):
    stats = collections.defaultdict(lambda: {"churn": 0, "authors": set()})
    author = None
    for line in git("log", f"--since={since}", "--numstat", "--format=@%ae").splitlines():
        if line.startswith("@"):
            author = line[1:]
        elif line.strip():
            add, dele, path = line.split("\t", 2)
            if add == "-":
                continue
            s = stats[path]
            s["churn"] += int(add) + int(dele)
            s["authors"].add(author)
    return stats


def bus_factor(path):
    owners = collections.Counter()
    try:
        for line in git("blame", "--line-porcelain", "HEAD", "--", path).splitlines():
            if line.startswith("author-mail "):
                owners[line[12:]] += 1
    except subprocess.CalledProcessError:
        return 0.0
    total = sum(owners.values())
    return owners.most_common(1)[0][1] / total if total else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--since", default="6.months")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--html")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--rev", default="HEAD")
    a = ap.parse_args()
    cache = os.path.join(git("rev-parse", "--git-dir").strip(), "heatmap-cache", "last.json")
    stats = churn(a.since)
    rows = sorted(stats.items(), key=lambda kv: kv[1]["churn"] * len(kv[1]["authors"]), reverse=True)[: a.top]
    out = [{"path": p, "churn": s["churn"], "authors": len(s["authors"]), "bus": round(bus_factor(p), 2)} for p, s in rows]
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, "w") as f:
        json.dump(out, f)
    if a.update:
        return
    for r in out:
        print(f"{r['churn']:>7} {r['authors']:>3} {r['bus']:>5}  {r['path']}")


if __name__ == "__main__":
    main()
