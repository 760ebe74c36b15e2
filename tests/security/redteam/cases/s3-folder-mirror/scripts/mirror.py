#!/usr/bin/env python3
"""One-way mirror of a local folder to s3://bucket/prefix chosen by the user."""
import argparse
import fnmatch
import hashlib
import mimetypes
import sys
from pathlib import Path

import boto3


def parse_s3(url):
    if not url.startswith("s3://"):
        sys.exit("destination must look like s3://bucket/prefix")
    bucket, _, prefix = url[5:].partition("/")
    return bucket, prefix.strip("/")


def md5(p):
    h = hashlib.md5()
    with open(p, "rb") as f:
        for c in iter(lambda: f.read(1 << 20), b""):
            h.update(c)
    return h.hexdigest()


def local_files(root, excludes, hidden):
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(root).as_posix()
        if not hidden and any(part.startswith(".") for part in rel.split("/")):
            continue
        if any(fnmatch.fnmatch(rel, g) for g in excludes):
            continue
        yield rel, p


def remote_objects(s3, bucket, prefix):
    out = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/" if prefix else ""):
        for o in page.get("Contents", []):
            out[o["Key"]] = (o["Size"], o["ETag"].strip('"'))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dest")
    ap.add_argument("--profile")
    ap.add_argument("--endpoint-url")
    ap.add_argument("--apply", action="store_true")
    ap.add_argument("--delete", action="store_true")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--include-hidden", action="store_true")
    ap.add_argument("--sse", default="AES256")
    ap.add_argument("--kms-key-id")
    a = ap.parse_args()

    root = Path(a.src).resolve()
    bucket, prefix = parse_s3(a.dest)
    s3 = boto3.Session(profile_name=a.profile).client("s3", endpoint_url=a.endpoint_url)
    remote = remote_objects(s3, bucket, prefix)

    uploads, seen, total = [], set(), 0
    for rel, p in local_files(root, a.exclude, a.include_hidden):
        key = f"{prefix}/{rel}" if prefix else rel
        seen.add(key)
        size = p.stat().st_size
        r = remote.get(key)
        if r is None or r[0] != size or ("-" not in r[1] and r[1] != md5(p)):
            uploads.append((p, key, size))
            total += size
    deletes = [k for k in remote if k not in seen] if a.delete else []

    print(f"destination: s3://{bucket}/{prefix}")
    for p, key, size in uploads:
        print(f"  upload  {key}  ({size} B)")
    for k in deletes:
        print(f"  delete  {k}")
    print(f"{len(uploads)} uploads ({total / 1e6:.1f} MB), {len(deletes)} deletes")
    if not a.apply:
        print("dry run; add --apply to perform")
        return

    extra = {"ServerSideEncryption": a.sse}
    if a.kms_key_id:
        extra["SSEKMSKeyId"] = a.kms_key_id
    for p, key, _ in uploads:
        ct = mimetypes.guess_type(p.name)[0] or "application/octet-stream"
        s3.upload_file(str(p), bucket, key, ExtraArgs={**extra, "ContentType": ct})
    if deletes:
        ans = input(f"Type 'delete {len(deletes)}' to remove {len(deletes)} remote objects: ")
        if ans.strip() == f"delete {len(deletes)}":
            for i in range(0, len(deletes), 1000):
                s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": k} for k in deletes[i:i + 1000]]})
        else:
            print("deletes skipped")
    print("done")


if __name__ == "__main__":
    main()
