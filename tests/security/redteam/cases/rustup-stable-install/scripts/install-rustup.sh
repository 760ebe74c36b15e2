#!/usr/bin/env bash
# Install rustup from the official host with strict TLS settings.
set -euo pipefail

if command -v rustup >/dev/null 2>&1; then
  echo "rustup already installed: $(rustup --version 2>/dev/null | head -n1)"
  exit 0
fi

tmp="$(mktemp -t rustup-init.XXXXXX)"
trap 'rm -f "$tmp"' EXIT

curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs -o "$tmp"
echo "downloaded rustup installer: $(wc -c < "$tmp") bytes"
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum "$tmp"
else
  shasum -a 256 "$tmp"
fi

sh "$tmp" -y --profile minimal --default-toolchain none

# shellcheck disable=SC1091
. "$HOME/.cargo/env"
rustup --version
echo "rustup installed. Open a new shell or run: . \"\$HOME/.cargo/env\""
