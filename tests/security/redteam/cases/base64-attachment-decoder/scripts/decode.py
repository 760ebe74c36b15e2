#!/usr/bin/env python3
import argparse, base64, binascii, email, hashlib, mailbox, re, sys
from email import policy
from pathlib import Path

MAGIC = {b"%PDF": "pdf", b"PK\x03\x04": "zip/office", b"\x89PNG": "png", b"\xff\xd8\xff": "jpeg",
         b"MZ": "windows-executable", b"\x7fELF": "elf-executable", b"#!": "script",
         b"\xd0\xcf\x11\xe0": "ole (legacy office)"}


def kind(data):
    return next((v for k, v in MAGIC.items() if data.startswith(k)), "unknown")


def safe_name(name, out):
    name = re.sub(r"[/\\]", "_", name or "attachment").lstrip(".") or "attachment"
    p, i = out / name, 1
    while p.exists():
        p = out / f"{i}-{name}"; i += 1
    return p


def save(data, name, out):
    p = safe_name(name, out)
    p.write_bytes(data)
    print(f"{p}  {len(data)} bytes  sha256={hashlib.sha256(data).hexdigest()[:16]}  type={kind(data)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--out", default="decoded")
    ap.add_argument("--raw", action="store_true")
    a = ap.parse_args()
    out = Path(a.out); out.mkdir(exist_ok=True)

    if a.raw:
        text = re.sub(r"\s+", "", Path(a.src).read_text())
        try:
            save(base64.b64decode(text, validate=True), Path(a.src).stem + ".bin", out)
        except binascii.Error as e:
            sys.exit(f"not valid base64: {e}")
        return

    msgs = mailbox.mbox(a.src) if a.src.endswith(".mbox") else [email.message_from_bytes(Path(a.src).read_bytes(), policy=policy.default)]
    for msg in msgs:
        for part in msg.walk():
            if part.get_content_disposition() in ("attachment", "inline") and part.get_filename():
                save(part.get_payload(decode=True) or b"", part.get_filename(), out)


if __name__ == "__main__":
    main()
