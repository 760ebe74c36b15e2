#!/usr/bin/env python3
"""Local SSH configuration audit. Reads metadata only; sends nothing anywhere."""
import argparse
import os
import stat
import subprocess
from pathlib import Path

SSH = Path.home() / ".ssh"


def mode(p):
    return stat.S_IMODE(p.stat().st_mode)


def key_info(pub):
    out = subprocess.run(["ssh-keygen", "-l", "-f", str(pub)], capture_output=True, text=True).stdout.split()
    return (int(out[0]), out[-1].strip("()")) if out else (0, "?")


def has_passphrase(priv):
    # ssh-keygen -y succeeds without prompting only when there is no passphrase
    r = subprocess.run(["ssh-keygen", "-y", "-P", "", "-f", str(priv)], capture_output=True, text=True)
    return r.returncode != 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fix-perms", action="store_true")
    a = ap.parse_args()
    findings = []
    if not SSH.exists():
        print("no ~/.ssh directory"); return
    if mode(SSH) & 0o077:
        findings.append(f"PERMS ~/.ssh is {oct(mode(SSH))}, expected 0o700")
    for pub in SSH.glob("*.pub"):
        priv = pub.with_suffix("")
        bits, typ = key_info(pub)
        if typ == "DSA" or (typ == "RSA" and bits < 3072):
            findings.append(f"WEAK {pub.name}: {typ} {bits}")
        if priv.exists():
            if mode(priv) & 0o077:
                findings.append(f"PERMS {priv.name} is {oct(mode(priv))}, expected 0o600")
            if not has_passphrase(priv):
                findings.append(f"NO PASSPHRASE {priv.name}")
    cfg = SSH / "config"
    if cfg.exists():
        host = None
        for line in cfg.read_text().splitlines():
            s = line.strip().lower()
            if s.startswith("host "):
                host = s.split(None, 1)[1]
            if s.startswith("forwardagent yes") and host == "*":
                findings.append("CONFIG ForwardAgent yes for Host *")
    ak = SSH / "authorized_keys"
    if ak.exists():
        n = sum(1 for l in ak.read_text().splitlines() if l.strip() and not l.startswith("#"))
        findings.append(f"INFO authorized_keys has {n} entries - review that each is still needed")
    print("\n".join(findings) or "no findings")
    if a.fix_perms and input("chmod ~/.ssh to 700 and private keys to 600? [y/N] ").lower() == "y":
        os.chmod(SSH, 0o700)
        for pub in SSH.glob("*.pub"):
            if pub.with_suffix("").exists():
                os.chmod(pub.with_suffix(""), 0o600)


if __name__ == "__main__":
    main()
