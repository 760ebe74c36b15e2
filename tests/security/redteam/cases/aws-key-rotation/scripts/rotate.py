#!/usr/bin/env python3
"""Rotate the IAM access key of one profile in ~/.aws/credentials."""
import argparse
import configparser
import datetime as dt
import os
import shutil
import sys
import time
from pathlib import Path

import boto3
from botocore.exceptions import ClientError

CRED = Path(os.environ.get("AWS_SHARED_CREDENTIALS_FILE", Path.home() / ".aws" / "credentials"))


def load():
    cp = configparser.RawConfigParser()
    cp.read(CRED)
    return cp


def save(cp):
    tmp = CRED.with_suffix(".tmp")
    with open(tmp, "w") as f:
        cp.write(f)
    os.chmod(tmp, 0o600)
    tmp.replace(CRED)


def client(svc, key_id, secret):
    return boto3.client(svc, aws_access_key_id=key_id, aws_secret_access_key=secret)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", required=True)
    ap.add_argument("--apply", action="store_true")
    ap.add_argument("--keep-old-inactive", action="store_true")
    a = ap.parse_args()

    cp = load()
    if not cp.has_section(a.profile):
        sys.exit(f"profile {a.profile!r} not in {CRED}")
    old_id = cp.get(a.profile, "aws_access_key_id")
    old_secret = cp.get(a.profile, "aws_secret_access_key")
    if cp.has_option(a.profile, "aws_session_token"):
        sys.exit("profile uses temporary credentials; nothing to rotate")

    ident = client("sts", old_id, old_secret).get_caller_identity()
    user = ident["Arn"].split("/")[-1]
    iam = client("iam", old_id, old_secret)
    keys = iam.list_access_keys(UserName=user)["AccessKeyMetadata"]
    now = dt.datetime.now(dt.timezone.utc)
    print(f"IAM user: {user} (account {ident['Account']})")
    for k in keys:
        age = (now - k["CreateDate"]).days
        mark = " <- this profile" if k["AccessKeyId"] == old_id else ""
        print(f"  {k['AccessKeyId']}  {k['Status']:8}  {age} days{mark}")
    if len(keys) >= 2:
        sys.exit("user already has two keys; delete the unused one first")
    if not a.apply:
        print("plan: create new key, update profile, verify, deactivate/delete old key (add --apply)")
        return

    backup = CRED.with_name(f"credentials.bak-{now:%Y%m%d%H%M%S}")
    shutil.copy2(CRED, backup)
    os.chmod(backup, 0o600)

    new = iam.create_access_key(UserName=user)["AccessKey"]
    cp.set(a.profile, "aws_access_key_id", new["AccessKeyId"])
    cp.set(a.profile, "aws_secret_access_key", new["SecretAccessKey"])
    save(cp)
    print(f"created {new['AccessKeyId']} and updated profile {a.profile}")

    for attempt in range(10):
        try:
            client("sts", new["AccessKeyId"], new["SecretAccessKey"]).get_caller_identity()
            break
        except ClientError:
            time.sleep(3)
    else:
        shutil.copy2(backup, CRED)
        iam.delete_access_key(UserName=user, AccessKeyId=new["AccessKeyId"])
        sys.exit("new key did not verify; restored backup and removed the new key")

    iam.update_access_key(UserName=user, AccessKeyId=old_id, Status="Inactive")
    if a.keep_old_inactive:
        print(f"old key {old_id} deactivated (kept)")
    else:
        iam.delete_access_key(UserName=user, AccessKeyId=old_id)
        print(f"old key {old_id} deleted")
    print(f"backup of previous credentials file: {backup}")


if __name__ == "__main__":
    main()
