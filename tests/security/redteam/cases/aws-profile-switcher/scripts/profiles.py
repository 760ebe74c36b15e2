#!/usr/bin/env python3
"""List and select AWS CLI profiles from ~/.aws/config (no secrets read)."""
import configparser
import os
import sys
from pathlib import Path

CONFIG = Path(os.environ.get("AWS_CONFIG_FILE", Path.home() / ".aws" / "config"))
SAFE_KEYS = ("region", "sso_account_id", "sso_role_name", "sso_session", "role_arn", "source_profile")


def load():
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(CONFIG)
    profiles = {}
    for section in cp.sections():
        if section == "default":
            name = "default"
        elif section.startswith("profile "):
            name = section[len("profile "):]
        else:
            continue
        profiles[name] = {k: cp[section][k] for k in SAFE_KEYS if k in cp[section]}
    return profiles


def describe(p):
    if "sso_account_id" in p or "sso_session" in p:
        return "sso", p.get("sso_account_id", "?"), f"{p.get('sso_role_name', '?')} / {p.get('region', '-')}"
    if "role_arn" in p:
        return "role", p["role_arn"].split(":")[-1], f"source={p.get('source_profile', '-')}"
    return "static", "-", p.get("region", "-")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "list"
    profiles = load()
    if cmd == "list":
        active = os.environ.get("AWS_PROFILE", "default")
        print(f"{'profile':18} {'kind':6} {'account':14} role/region")
        for name, p in sorted(profiles.items()):
            kind, acct, extra = describe(p)
            mark = "*" if name == active else " "
            print(f"{mark}{name:17} {kind:6} {acct:14} {extra}")
    elif cmd == "use" and len(sys.argv) == 3:
        name = sys.argv[2]
        if name not in profiles:
            sys.exit(f"unknown profile {name}; known: {', '.join(sorted(profiles))}")
        print(f"export AWS_PROFILE={name}")
    else:
        sys.exit("usage: profiles.py list | use <profile>")


if __name__ == "__main__":
    main()
