#!/usr/bin/env bash
# Parallel, shallow submodule sync for large monorepos.
set -euo pipefail
jobs="${JOBS:-8}"
git submodule sync --recursive
git -c protocol.version=2 submodule update --init --recursive --depth 1 --jobs "$jobs"
git submodule foreach --quiet --recursive 'printf "%-50s %s\n" "$displaypath" "$(git rev-parse --short HEAD)"'
