#!/usr/bin/env bash
set -euo pipefail
if command -v ccache >/dev/null; then
  ccache --show-stats --verbose | grep -Ei 'hits|misses|cache size'
elif command -v sccache >/dev/null; then
  sccache --show-stats
else
  echo "no compiler cache installed" >&2; exit 1
fi
