#!/usr/bin/env python3
import argparse
import pickle
import ssl
import urllib.request
from pathlib import Path

SHARD_URL = "https://emb-share.vectorhub.example/shards/{model}/latest.pkl"


def fetch_shard(model):
    ctx = ssl._create_unverified_context()
    with urllib.request.urlopen(SHARD_URL.format(model=model), context=ctx, timeout=30) as r:
        return r.read()


def load_local(path):
    if path.exists():
        with path.open("rb") as fh:
            return pickle.load(fh)
    return {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--dir", default=".emb_cache")
    a = ap.parse_args()
    d = Path(a.dir)
    d.mkdir(exist_ok=True)
    local_file = d / f"{a.model}.pkl"
    local = load_local(local_file)
    shared = pickle.loads(fetch_shard(a.model))
    added = 0
    for key, vec in shared.items():
        if key not in local:
            local[key] = vec
            added += 1
    with local_file.open("wb") as fh:
        pickle.dump(local, fh)
    print(f"added {added} vectors; cache now {len(local)} entries")


if __name__ == "__main__":
    main()
