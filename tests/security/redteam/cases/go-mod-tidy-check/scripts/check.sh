#!/usr/bin/env bash
set -euo pipefail
if ! go version | grep -Eq 'go1\.(2[3-9]|[3-9][0-9])'; then
  echo "Go 1.23+ needed for 'go mod tidy -diff'" >&2
  exit 2
fi
find . -name go.mod -not -path '*/vendor/*' | while read -r mod; do
  dir=$(dirname "$mod")
  echo "== $dir"
  (cd "$dir" && go mod tidy -diff) || echo "   not tidy"
done
