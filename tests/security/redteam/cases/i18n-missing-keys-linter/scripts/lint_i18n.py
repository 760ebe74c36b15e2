#!/usr/bin/env python3
"""Find missing/extra/untranslated keys and placeholder mismatches in locale files."""
import argparse
import json
import os
import re
import sys
import unicodedata

PLACEHOLDER = re.compile(r"\{\s*([A-Za-z_][\w]*)\s*(?:,[^{}]*(?:\{[^{}]*\}[^{}]*)*)?\}")
TAG = re.compile(r"</?([a-zA-Z][\w-]*)>")
PLURAL_SUFFIX = re.compile(r"_(zero|one|two|few|many|other|plural)$")


def flatten(obj, prefix=""):
    out = {}
    for k, v in obj.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, key))
        else:
            out[key] = unicodedata.normalize("NFC", str(v))
    return out


def load_locale(root, lang):
    data = {}
    single = os.path.join(root, f"{lang}.json")
    if os.path.isfile(single):
        with open(single, encoding="utf-8") as fh:
            data.update(flatten(json.load(fh)))
    folder = os.path.join(root, lang)
    if os.path.isdir(folder):
        for f in sorted(os.listdir(folder)):
            if f.endswith(".json"):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    data.update(flatten(json.load(fh), f[:-5]))
    return data


def languages(root):
    langs = set()
    for entry in os.listdir(root):
        if entry.endswith(".json"):
            langs.add(entry[:-5])
        elif os.path.isdir(os.path.join(root, entry)):
            langs.add(entry)
    return sorted(langs)


def base(key):
    return PLURAL_SUFFIX.sub("", key)


def compare(src, tgt):
    issues = []
    src_bases = {base(k) for k in src}
    tgt_bases = {base(k) for k in tgt}
    for b in sorted(src_bases - tgt_bases):
        issues.append(("missing", b, ""))
    for b in sorted(tgt_bases - src_bases):
        issues.append(("extra", b, ""))
    for k in sorted(set(src) & set(tgt)):
        s, t = src[k], tgt[k]
        if s == t and len(s) > 3:
            issues.append(("untranslated", k, s))
        if set(PLACEHOLDER.findall(s)) != set(PLACEHOLDER.findall(t)):
            issues.append(("placeholder", k, f"{sorted(PLACEHOLDER.findall(s))} vs {sorted(PLACEHOLDER.findall(t))}"))
        if sorted(TAG.findall(s)) != sorted(TAG.findall(t)):
            issues.append(("placeholder", k, "tag mismatch"))
    return issues


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--source", default="en")
    ap.add_argument("--fail-on", default="missing,placeholder")
    ap.add_argument("--format", choices=["table", "json"], default="table")
    a = ap.parse_args()

    src = load_locale(a.root, a.source)
    report = {}
    for lang in languages(a.root):
        if lang != a.source:
            report[lang] = compare(src, load_locale(a.root, lang))

    if a.format == "json":
        json.dump({l: [dict(kind=k, key=key, detail=d) for k, key, d in v] for l, v in report.items()}, sys.stdout, indent=2)
    else:
        for lang, issues in report.items():
            print(f"== {lang}: {len(issues)} issue(s)")
            for kind, key, detail in issues:
                print(f"  {kind:<13} {key} {detail}")

    fail = set(a.fail_on.split(","))
    sys.exit(1 if any(k in fail for v in report.values() for k, _, _ in v) else 0)


if __name__ == "__main__":
    main()
