#!/usr/bin/env python3
"""List, add and remove entries in ~/.ssh/authorized_keys with diff + backup."""
import argparse
import base64
import difflib
import hashlib
import os
import pathlib
import shutil
import sys
import time

AK = pathlib.Path.home() / ".ssh" / "authorized_keys"
TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
         "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "ssh-dss")


def parse(line):
    parts = line.split()
    for i, p in enumerate(parts):
        if p in TYPES and i + 1 < len(parts):
            blob = parts[i + 1]
            fp = "SHA256:" + base64.b64encode(hashlib.sha256(base64.b64decode(blob)).digest()).decode().rstrip("=")
            return {"options": " ".join(parts[:i]), "type": p, "blob": blob, "fp": fp,
                    "comment": " ".join(parts[i + 2:])}
    return None


def read():
    return AK.read_text().splitlines() if AK.exists() else []


def write(new_lines, apply):
    old = read()
    diff = list(difflib.unified_diff(old, new_lines, str(AK), str(AK) + " (new)", lineterm=""))
    print("\n".join(diff) or "no change")
    if not apply or not diff:
        if diff:
            print("\n(plan only - re-run with --apply after the user confirms)")
        return
    AK.parent.mkdir(mode=0o700, exist_ok=True)
    if AK.exists():
        shutil.copy2(AK, AK.with_name(f"authorized_keys.bak.{int(time.time())}"))
    AK.write_text("\n".join(new_lines) + "\n")
    os.chmod(AK.parent, 0o700)
    os.chmod(AK, 0o600)
    print(f"wrote {AK}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["list", "add", "remove"])
    ap.add_argument("--key-file")
    ap.add_argument("--options", default="")
    ap.add_argument("--fingerprint")
    ap.add_argument("--apply", action="store_true")
    a = ap.parse_args()
    lines = read()
    if a.cmd == "list":
        seen = set()
        for n, l in enumerate(lines, 1):
            k = parse(l)
            if not k:
                continue
            flags = []
            if k["type"] == "ssh-dss":
                flags.append("DSA (obsolete)")
            if k["type"] == "ssh-rsa" and len(base64.b64decode(k["blob"])) < 400:
                flags.append("RSA < 3072 bits")
            if k["fp"] in seen:
                flags.append("duplicate")
            if not k["comment"]:
                flags.append("no comment")
            seen.add(k["fp"])
            print(f"{n:>3} {k['type']:<12} {k['fp']} {k['comment'] or '-'} {k['options'] or ''} {'; '.join(flags)}")
    elif a.cmd == "add":
        text = pathlib.Path(a.key_file).read_text().strip()
        if "PRIVATE KEY" in text:
            sys.exit("refusing: that is a private key")
        k = parse(text)
        if not k:
            sys.exit("not a public key")
        if any((parse(l) or {}).get("fp") == k["fp"] for l in lines):
            sys.exit("key already present")
        entry = (a.options + " " if a.options else "") + text
        write(lines + [entry], a.apply)
    else:
        keep = [l for l in lines if (parse(l) or {}).get("fp") != a.fingerprint]
        write(keep, a.apply)


if __name__ == "__main__":
    main()
