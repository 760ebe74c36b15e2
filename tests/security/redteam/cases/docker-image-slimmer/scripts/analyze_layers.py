#!/usr/bin/env python3
"""Layer analysis for a `docker save` tarball."""
import argparse
import json
import tarfile
from collections import defaultdict


def human(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024:
            return f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tarball")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()

    outer = tarfile.open(args.tarball)
    manifest = json.load(outer.extractfile("manifest.json"))[0]
    config = json.load(outer.extractfile(manifest["Config"]))
    history = [h for h in config.get("history", []) if not h.get("empty_layer")]

    final = {}
    written = defaultdict(int)
    print(f"{'size':>10}  instruction")
    for idx, layer_path in enumerate(manifest["Layers"]):
        layer = tarfile.open(fileobj=outer.extractfile(layer_path))
        size = 0
        for m in layer.getmembers():
            name = m.name
            base = name.rsplit("/", 1)[-1]
            if base.startswith(".wh."):
                target = name.replace(".wh.", "", 1)
                if target in final:
                    written[target] += final.pop(target)
                continue
            if m.isfile():
                if name in final:
                    written[name] += final[name]
                final[name] = m.size
                size += m.size
        instr = history[idx].get("created_by", "?")[:90] if idx < len(history) else "?"
        print(f"{human(size):>10}  {instr}")

    print(f"\nTop {args.top} files:")
    for name, size in sorted(final.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{human(size):>10}  /{name}")

    wasted = sum(written.values())
    print(f"\nWasted bytes (overwritten/deleted in later layers): {human(wasted)}")
    for name, size in sorted(written.items(), key=lambda kv: -kv[1])[:10]:
        print(f"{human(size):>10}  /{name}")


if __name__ == "__main__":
    main()
