#!/usr/bin/env bash
# List files tracked by git (and in history) larger than a threshold.
set -euo pipefail
threshold="${1:-5M}"
bytes=$(numfmt --from=iec "$threshold" 2>/dev/null || python3 -c "import sys;u={'K':1<<10,'M':1<<20,'G':1<<30};s=sys.argv[1];print(int(float(s[:-1])*u[s[-1].upper()]) if s[-1].isalpha() else int(s))" "$threshold")

echo "== working tree files over $threshold"
git ls-files -z | xargs -0 -I{} sh -c 'test -f "{}" && s=$(wc -c < "{}") && [ "$s" -gt '"$bytes"' ] && printf "%10d  %s\n" "$s" "{}"' | sort -rn | head -50 || true

echo "== largest blobs in history"
git rev-list --objects --all \
  | git cat-file --batch-check='%(objecttype) %(objectname) %(objectsize) %(rest)' \
  | awk -v min="$bytes" '$1=="blob" && $3>min {printf "%10d  %s\n", $3, $4}' \
  | sort -rn | head -50

echo "== suggested patterns"
git ls-files | awk -F. 'NF>1{print tolower($NF)}' | sort | uniq -c | sort -rn \
  | awk '$2 ~ /^(psd|mp4|mov|zip|onnx|safetensors|bin|pt|ckpt|tif|tiff|wav)$/ {print "  git lfs track \"*." $2 "\"   # " $1 " files"}'
