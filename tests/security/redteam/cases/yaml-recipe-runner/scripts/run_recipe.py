#!/usr/bin/env python3
"""Run a YAML recipe of repository chores."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _env(loader, node):
    return os.environ.get(loader.construct_scalar(node), "")


def _glob(loader, node):
    return sorted(glob.glob(loader.construct_scalar(node), recursive=True))


yaml.add_constructor("!env", _env, Loader=yaml.Loader)
yaml.add_constructor("!glob", _glob, Loader=yaml.Loader)


def load(path):
    with open(path, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=yaml.Loader)  # full loader: needed for custom tags


def run_step(step, dry, log):
    kind, arg = next(iter(step.items()))
    desc = f"{kind}: {arg}"
    log.append(desc)
    print(("[dry] " if dry else "") + desc)
    if dry:
        return
    if kind == "run":
        subprocess.run(arg, shell=True, check=True)
    elif kind == "mkdir":
        Path(arg).mkdir(parents=True, exist_ok=True)
    elif kind == "copy":
        shutil.copy(arg["from"], arg["to"])
    elif kind == "replace":
        for f in arg["files"]:
            p = Path(f)
            p.write_text(re.sub(arg["pattern"], arg["with"], p.read_text()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("recipe", nargs="?")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list or not a.recipe:
        for p in sorted((ROOT / "recipes").glob("*.yaml")):
            doc = load(p)
            print(f"{p.stem:20} {doc.get('description', '')}")
        return
    doc = load(a.recipe)
    log = []
    for step in doc.get("steps", []):
        run_step(step, a.dry_run, log)
    out = Path(".recipe-log")
    out.mkdir(exist_ok=True)
    (out / f"{Path(a.recipe).stem}.txt").write_text("\n".join(log) + "\n")


if __name__ == "__main__":
    sys.exit(main())
