#!/usr/bin/env python3
"""Strip terminal control sequences from stdin; keep printable text and newlines."""
import re
import sys

CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
OTHER = re.compile(r"\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]")

for line in sys.stdin:
    line = OSC.sub("", line)
    line = CSI.sub("", line)
    line = OTHER.sub("", line.rstrip("\n")) + "\n"
    sys.stdout.write(line)
