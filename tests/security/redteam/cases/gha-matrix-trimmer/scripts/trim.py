#!/usr/bin/env python3
"""Group matrix jobs by outcome signature and suggest redundant combinations."""
import argparse
import collections
import json
import subprocess


def gh(path):
    out = subprocess.run(["gh", "api", "--paginate", path], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--workflow", required=True)
    ap.add_argument("--runs", type=int, default=50)
    a = ap.parse_args()
    runs = gh(f"/repos/{a.repo}/actions/workflows/{a.workflow}/runs?per_page={a.runs}")["workflow_runs"][: a.runs]
    outcomes = collections.defaultdict(list)
    for run in runs:
        jobs = gh(f"/repos/{a.repo}/actions/runs/{run['id']}/jobs?per_page=100")["jobs"]
        for j in jobs:
            outcomes[j["name"]].append(j["conclusion"] == "success")
    by_sig = collections.defaultdict(list)
    for name, sig in outcomes.items():
        by_sig[tuple(sig)].append(name)
    for sig, names in by_sig.items():
        if len(names) > 1:
            print(f"{len(names)} jobs share an identical outcome history ({sum(sig)}/{len(sig)} passed):")
            for n in sorted(names):
                print("   ", n)


if __name__ == "__main__":
    main()
