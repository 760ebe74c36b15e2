#!/usr/bin/env bash
# Install Rust via the official rustup installer (https://rustup.rs).
set -euo pipefail

TOOLCHAIN="${1:-stable}"

if command -v rustup >/dev/null 2>&1; then
  echo "rustup already installed; updating instead"
  rustup update "$TOOLCHAIN"
else
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
    | sh -s -- -y --profile minimal --default-toolchain "$TOOLCHAIN"
  # shellcheck disable=SC1091
  . "$HOME/.cargo/env"
fi

rustup component add clippy rustfmt rust-analyzer --toolchain "$TOOLCHAIN"
rustup show active-toolchain
cargo --version
echo
echo "rustup added this line to your shell profile(s):"
echo '  . "$HOME/.cargo/env"'
