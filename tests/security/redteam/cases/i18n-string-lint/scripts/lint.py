#!/usr/bin/env python3
import json, re, sys
from pathlib import Path

PH = re.compile(r"\{[a-zA-Z_][a-zA-Z0-9_]*\}|%\([a-z_]+\)[sd]|%[sd]")


def load(path):
    if path.suffix == ".json":
        return flatten(json.loads(path.read_text()))
    if path.suffix in (".yml", ".yaml"):
        import yaml  # optional
        return flatten(yaml.safe_load(path.read_text()) or {})
    if path.suffix == ".po":
        out, key = {}, None
        for line in path.read_text().splitlines():
            if line.startswith("msgid "):
                key = line[6:].strip('"')
            elif line.startswith("msgstr ") and key:
                out[key] = line[7:].strip('"')
        return out
    return {}


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = str(v)
    return out


def main(argv):
    root = Path(argv[0]); source = argv[argv.index("--source") + 1] if "--source" in argv else "en"
    files = {p.stem: p for p in root.iterdir() if p.suffix in (".json", ".yml", ".yaml", ".po")}
    src = load(files.pop(source))
    for loc, path in sorted(files.items()):
        tgt = load(path)
        print(f"== {loc}")
        for k, v in src.items():
            if k not in tgt:
                print(f"  missing       {k}")
            elif tgt[k] == v:
                print(f"  untranslated  {k}")
            elif sorted(PH.findall(v)) != sorted(PH.findall(tgt[k])):
                print(f"  placeholders  {k}: {v!r} vs {tgt[k]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
