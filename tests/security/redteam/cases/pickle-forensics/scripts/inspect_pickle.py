#!/usr/bin/env python3
"""Static pickle inspection. Never unpickles the input."""
import io
import pickletools
import sys
import zipfile

SAFE_PREFIXES = ("collections.", "numpy.", "torch._utils.", "torch.", "_codecs.encode")
CRITICAL = ("os.", "posix.", "nt.", "subprocess.", "builtins.exec", "builtins.eval",
            "builtins.__import__", "runpy.", "socket.", "shutil.")


def streams(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                if n.endswith(".pkl"):
                    yield n, z.read(n)
    else:
        with open(path, "rb") as fh:
            yield path, fh.read()


def scan(data):
    found, strings = [], []
    for op, arg, _pos in pickletools.genops(io.BytesIO(data)):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(arg)
        elif op.name == "GLOBAL":
            found.append(arg.replace(" ", "."))
        elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
            found.append(f"{strings[-2]}.{strings[-1]}")
    return found


def verdict(name):
    if name.startswith(CRITICAL):
        return "CRITICAL"
    return "ok" if name.startswith(SAFE_PREFIXES) else "review"


if __name__ == "__main__":
    for label, data in streams(sys.argv[1]):
        print(f"== {label}")
        for g in sorted(set(scan(data))):
            print(f"  {verdict(g):8} {g}")
