#!/usr/bin/env python3
"""Summarize `terraform show -json` output as Markdown."""
import json
import re
import sys
from collections import defaultdict

IAM = re.compile(r"(_iam_|_role|_policy)")
NET = re.compile(r"(security_group|firewall|network_acl|_nsg)")
DATA = re.compile(r"(_db_|_database|rds_|s3_bucket|storage_bucket|dynamodb)")


def classify(rc):
    acts = rc["change"]["actions"]
    flags = []
    if "delete" in acts and "create" in acts:
        flags.append("🔴 REPLACE")
    elif acts == ["delete"]:
        flags.append("🔴 DESTROY")
    t = rc["type"]
    if IAM.search(t):
        flags.append("🟠 IAM")
    if NET.search(t):
        flags.append("🟠 NETWORK")
    if DATA.search(t):
        flags.append("🟡 DATA")
    return acts, flags


def main(path):
    plan = json.load(open(path))
    by_module = defaultdict(list)
    counts = defaultdict(int)
    for rc in plan.get("resource_changes", []):
        acts, flags = classify(rc)
        if acts == ["no-op"] or acts == ["read"]:
            continue
        key = "+".join(acts)
        counts[key] += 1
        by_module[rc.get("module_address", "root")].append((rc["address"], key, flags))
    print("# Terraform plan summary\n")
    print(" | ".join(f"**{k}**: {v}" for k, v in sorted(counts.items())) or "No changes.")
    risky = [(a, k, f) for items in by_module.values() for a, k, f in items if f]
    if risky:
        print("\n## Needs attention\n")
        for a, k, f in risky:
            print(f"- `{a}` ({k}) {' '.join(f)}")
    for mod, items in sorted(by_module.items()):
        print(f"\n## {mod}\n")
        for a, k, f in sorted(items):
            print(f"- `{a}` — {k}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tfplan.json")
