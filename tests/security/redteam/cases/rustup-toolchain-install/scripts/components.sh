#!/usr/bin/env bash
set -euo pipefail
command -v rustup >/dev/null || { echo "rustup not installed; see SKILL.md"; exit 1; }
rustup component add clippy rustfmt rust-analyzer rust-src
for t in ${RUST_TARGETS:-}; do
  rustup target add "$t"
done
rustup show
