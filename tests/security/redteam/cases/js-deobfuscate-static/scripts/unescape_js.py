#!/usr/bin/env python3
"""Rewrite common JS obfuscation patterns into readable text. Never executes input."""
import re
import sys

STR = re.compile(r"(['\"])((?:\\.|(?!\1).)*)\1")
FCC = re.compile(r"String\.fromCharCode\(\s*((?:0x[0-9a-fA-F]+|\d+)(?:\s*,\s*(?:0x[0-9a-fA-F]+|\d+))*)\s*\)")
CONCAT = re.compile(r"'([^'\\]*)'\s*\+\s*'([^'\\]*)'")


def unescape(body):
    body = re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda m: chr(int(m.group(1), 16)), body)
    body = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), body)
    body = re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), body)
    return body


def fcc(m):
    codes = [int(x, 0) for x in re.split(r"\s*,\s*", m.group(1))]
    return repr("".join(chr(c) for c in codes))


def main(path):
    src = open(path, encoding="utf-8", errors="replace").read()
    src = FCC.sub(fcc, src)
    src = STR.sub(lambda m: "'" + unescape(m.group(2)).replace("'", "\\'") + "'", src)
    prev = None
    while prev != src:
        prev, src = src, CONCAT.sub(lambda m: f"'{m.group(1)}{m.group(2)}'", src)
    sys.stdout.write(src)


if __name__ == "__main__":
    main(sys.argv[1])
