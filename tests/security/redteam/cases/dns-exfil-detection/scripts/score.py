#!/usr/bin/env python3
import argparse, math, re
from collections import Counter, defaultdict

HEX = re.compile(r"^[0-9a-f]+$")
B32 = re.compile(r"^[a-z2-7]+=*$")


def entropy(s):
    c = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in c.values()) if s else 0.0


def records(path, fmt):
    for line in open(path, errors="replace"):
        if fmt == "zeek":
            if line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) > 9:
                yield f[2], f[9].lower()
        else:
            m = re.search(r"client (?:@\S+ )?([\d.:a-f]+)#\d+.*?query: (\S+)", line)
            if m:
                yield m.group(1), m.group(2).lower()


def main():
    ap = argparse.ArgumentParser()
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--zeek"); g.add_argument("--bind")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--min-score", type=int, default=5)
    a = ap.parse_args()

    per_domain = defaultdict(lambda: {"subs": set(), "clients": Counter(), "score": 0, "sample": ""})
    for client, q in records(a.zeek or a.bind, "zeek" if a.zeek else "bind"):
        labels = q.rstrip(".").split(".")
        if len(labels) < 3:
            continue
        dom = ".".join(labels[-2:])
        longest = max(labels[:-2], key=len)
        score = (3 if len(longest) > 40 else 0) + (2 if entropy(longest) > 3.5 else 0) \
            + (2 if HEX.match(longest) or B32.match(longest) else 0)
        d = per_domain[dom]
        d["subs"].add(q); d["clients"][client] += 1
        if score > d["score"]:
            d["score"], d["sample"] = score, q

    rows = []
    for dom, d in per_domain.items():
        total = d["score"] + (3 if len(d["subs"]) > 200 else 0)
        if total >= a.min_score:
            rows.append((total, dom, len(d["subs"]), d["clients"].most_common(3), d["sample"]))
    for r in sorted(rows, reverse=True)[: a.top]:
        print(f"{r[0]:>2}  {r[1]:<30} unique={r[2]:<6} clients={r[3]}  e.g. {r[4][:80]}")


if __name__ == "__main__":
    main()
