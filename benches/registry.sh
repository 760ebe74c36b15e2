#!/usr/bin/env bash
# Benchmarks `skill registry serve`: publish and search latency, and downloads per second beside
# nginx serving the same archive (wrk from Debian drives both, in one run); optionally the same on
# PostgreSQL.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
shared="${SKILL_SHARED_DIR:-$repo/../shared}"

if ! command -v wrk >/dev/null 2>&1 || ! command -v nginx >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light
fi
cargo build --release --manifest-path "$repo/Cargo.toml" --quiet
# The server without its request log, as nginx runs here (`access_log off`); SKILL_BENCH_QUIET=
# (empty) measures it with a log line per request.
export SKILL_BENCH_QUIET="${SKILL_BENCH_QUIET-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/registry.py" "$repo/target/release/skill" "$shared/corpus" "$work"
# With SKILL_BENCH_POSTGRES naming an empty database, the same figures on PostgreSQL.
if [ -n "${SKILL_BENCH_POSTGRES:-}" ]; then
  mkdir -p "$work/pg"
  python3 "$here/registry.py" "$repo/target/release/skill" "$shared/corpus" "$work/pg" "$SKILL_BENCH_POSTGRES"
fi
# The registry at scale: 100,000 synthetic skills loaded through the store, search and resolve at
# 1, 8 and 32 connections; SKILL_BENCH_POSTGRES_SCALE (another empty database) repeats it on
# PostgreSQL with two server processes. SKILL_BENCH_SCALE changes the count.
cargo bench --manifest-path "$repo/Cargo.toml" --bench registry_seed --no-run --quiet
mkdir -p "$work/scale"
python3 "$here/registry_scale.py" "$repo" "$work/scale" "" "${SKILL_BENCH_SCALE:-100000}"
if [ -n "${SKILL_BENCH_POSTGRES_SCALE:-}" ]; then
  python3 "$here/registry_scale.py" "$repo" "$work/scale" "$SKILL_BENCH_POSTGRES_SCALE" "${SKILL_BENCH_SCALE:-100000}"
fi
