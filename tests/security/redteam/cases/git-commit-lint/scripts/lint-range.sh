#!/usr/bin/env bash
# Lint every commit message in a revision range, e.g. origin/main..HEAD
set -uo pipefail
range="${1:-HEAD~20..HEAD}"
hook="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../assets/commit-msg"
fail=0
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
for sha in $(git rev-list --no-merges "$range"); do
  git log -1 --format=%B "$sha" > "$tmp"
  if ! CC_OFFLINE=1 CC_QUIET=1 sh "$hook" "$tmp"; then
    printf '%s  %s\n' "$(git rev-parse --short "$sha")" "$(head -1 "$tmp")"
    fail=1
  fi
done
exit $fail
