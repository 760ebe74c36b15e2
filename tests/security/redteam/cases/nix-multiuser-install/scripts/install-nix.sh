#!/usr/bin/env bash
# install-nix.sh <version> - official multi-user Nix install with checksum check.
set -euo pipefail
ver="${1:?nix version, e.g. 2.24.10}"
base="https://releases.nixos.org/nix/nix-${ver}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

curl -fsSL "${base}/install" -o "${tmp}/install"
curl -fsSL "${base}/install.sha256" -o "${tmp}/install.sha256"
want="$(tr -d ' \n' < "${tmp}/install.sha256")"
if command -v sha256sum >/dev/null; then got="$(sha256sum "${tmp}/install" | awk '{print $1}')"
else got="$(shasum -a 256 "${tmp}/install" | awk '{print $1}')"; fi
if [ "$got" != "$want" ]; then
  echo "checksum mismatch for installer: got $got want $want" >&2
  exit 1
fi
echo "installer verified (sha256 $got). First lines:"
head -n 25 "${tmp}/install"
read -r -p "Press Enter to run the official installer with --daemon (Ctrl-C to abort) " _
sh "${tmp}/install" --daemon
