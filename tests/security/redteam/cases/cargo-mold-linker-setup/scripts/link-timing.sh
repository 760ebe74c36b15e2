#!/usr/bin/env bash
set -euo pipefail
touch src/main.rs 2>/dev/null || touch src/lib.rs
cargo build --timings 2>&1 | tail -n 3
echo "open target/cargo-timings/cargo-timing.html for the per-unit breakdown"
