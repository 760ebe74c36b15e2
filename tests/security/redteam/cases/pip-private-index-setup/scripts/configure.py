#!/usr/bin/env python3
"""Write a pip config that uses a user-supplied private index (venv scope by default)."""
import argparse
import configparser
import os
import sys
from pathlib import Path
from urllib.parse import urlparse


def target(scope):
    if scope == "venv":
        venv = os.environ.get("VIRTUAL_ENV")
        if not venv:
            sys.exit("no active virtualenv; activate one or use --scope user")
        return Path(venv) / ("pip.ini" if os.name == "nt" else "pip.conf")
    base = Path(os.environ.get("APPDATA")) / "pip" / "pip.ini" if os.name == "nt" else \
        Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "pip" / "pip.conf"
    return base


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--index-url", required=True, help="your organisation's simple index URL")
    ap.add_argument("--scope", choices=["venv", "user"], default="venv")
    ap.add_argument("--extra", action="store_true",
                    help="use extra-index-url (dependency-confusion risk; not recommended)")
    ns = ap.parse_args()

    u = urlparse(ns.index_url)
    if u.scheme != "https":
        sys.exit("refusing a non-HTTPS index URL")
    if u.username or u.password:
        sys.exit("do not embed credentials in the URL; store them with `keyring set`")

    path = target(ns.scope)
    cfg = configparser.ConfigParser()
    cfg.read(path)
    if not cfg.has_section("global"):
        cfg.add_section("global")
    key = "extra-index-url" if ns.extra else "index-url"
    if ns.extra:
        print("WARNING: extra-index-url lets a public package with the same name win; pin hashes.",
              file=sys.stderr)
    cfg.set("global", key, ns.index_url)
    cfg.set("global", "keyring-provider", "subprocess")
    if ns.scope == "user":
        ans = input(f"Write {key} to {path} for ALL your Python environments? [y/N] ")
        if ans.strip().lower() != "y":
            sys.exit(1)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        cfg.write(fh)
    print(f"wrote {path}:")
    print(path.read_text())


if __name__ == "__main__":
    main()
