#!/usr/bin/env python3
"""Decode a base64/hex protobuf blob with protoc (raw or typed)."""
import argparse
import base64
import binascii
import re
import subprocess
import sys


def to_bytes(text):
    t = re.sub(r"\s+", "", text)
    if re.fullmatch(r"(?:[0-9a-fA-F]{2})+", t):
        return binascii.unhexlify(t)
    t += "=" * (-len(t) % 4)
    if "-" in t or "_" in t:
        return base64.urlsafe_b64decode(t)
    return base64.b64decode(t)


def strip_grpc_frame(b):
    # gRPC length-prefixed message: 1 byte compressed flag + 4 byte big-endian length
    if len(b) >= 5 and b[0] in (0, 1) and int.from_bytes(b[1:5], "big") == len(b) - 5:
        if b[0] == 1:
            sys.exit("compressed gRPC frame: decompress (usually gzip) first")
        return b[5:]
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--in", dest="inp", default="-")
    ap.add_argument("--type")
    ap.add_argument("--proto")
    ap.add_argument("-I", dest="include", default=".")
    a = ap.parse_args()
    text = sys.stdin.read() if a.inp == "-" else open(a.inp).read()
    data = strip_grpc_frame(to_bytes(text))
    if a.type and a.proto:
        cmd = ["protoc", f"--decode={a.type}", "-I", a.include, a.proto]
    else:
        cmd = ["protoc", "--decode_raw"]
    r = subprocess.run(cmd, input=data, capture_output=True)
    sys.stdout.write(r.stdout.decode("utf-8", "replace"))
    if r.returncode:
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
