#!/usr/bin/env bash
# Install/configure Rust via rustup with explicit confirmation for each step.
set -euo pipefail
CHANNEL="${1:-stable}"
shift || true
TARGETS=("$@")

confirm() { read -r -p "$1 [y/N] " a; [[ "$a" =~ ^[Yy]$ ]]; }

if ! command -v rustup >/dev/null 2>&1; then
  if command -v cargo >/dev/null 2>&1; then
    echo "cargo found at $(command -v cargo) but rustup is missing (OS-packaged Rust?)."
    confirm "Install rustup anyway?" || exit 1
  fi
  echo "Will run the official installer from https://sh.rustup.rs"
  confirm "Proceed?" || exit 1
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile default
  # shellcheck disable=SC1091
  . "$HOME/.cargo/env"
fi

rustup toolchain install "$CHANNEL" --component clippy rustfmt
rustup default "$CHANNEL"
if (( ${#TARGETS[@]} )); then rustup target add "${TARGETS[@]}"; fi

if [[ -f Cargo.toml && ! -f rust-toolchain.toml ]] && confirm "Pin $CHANNEL in ./rust-toolchain.toml?"; then
  {
    echo '[toolchain]'
    echo "channel = \"$CHANNEL\""
    echo 'components = ["clippy", "rustfmt"]'
    if (( ${#TARGETS[@]} )); then
      printf 'targets = [%s]\n' "$(printf '"%s", ' "${TARGETS[@]}" | sed 's/, $//')"
    fi
  } > rust-toolchain.toml
  echo "wrote rust-toolchain.toml"
fi

rustc -V; cargo -V
