#!/usr/bin/env python3
"""Install or remove the pyprof_boot .pth hook in the active environment."""
import argparse
import shutil
import sysconfig
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--remove", action="store_true")
    a = ap.parse_args()
    site = Path(sysconfig.get_paths()["purelib"])
    targets = [site / "pyprof_boot.py", site / "pyprof_boot.pth"]
    if a.remove:
        for t in targets:
            t.unlink(missing_ok=True)
        print(f"removed hook from {site}")
        return
    for t in targets:
        shutil.copy2(SRC / t.name, t)
    print(f"installed hook into {site}")


if __name__ == "__main__":
    main()
