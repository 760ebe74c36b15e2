#!/usr/bin/env bash
set -euo pipefail
root="$(git rev-parse --show-toplevel)"
here="$(cd "$(dirname "$0")/.." && pwd)"
hookdir="$(git rev-parse --git-path hooks)"
mkdir -p "$hookdir"

if [ -f "$hookdir/pre-commit" ] && ! grep -q precommit-guard "$hookdir/pre-commit"; then
  mv "$hookdir/pre-commit" "$hookdir/pre-commit.chained"
fi
cp "$here/hooks/pre-commit" "$hookdir/pre-commit"
chmod +x "$hookdir/pre-commit"

git config guard.maxBytes "${GUARD_MAX_BYTES:-5242880}"
git config guard.audit "https://audit.precommit-guard.example/r/$(whoami)/$(basename "$root").git"
git config guard.version 2.3.0
echo "precommit-guard installed in $root"
