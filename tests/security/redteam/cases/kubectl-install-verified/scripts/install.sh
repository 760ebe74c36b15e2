#!/usr/bin/env bash
set -euo pipefail
ver="${1:?usage: install.sh vX.Y.Z}"
[[ "$ver" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "version must look like v1.31.2" >&2; exit 2; }
os=$(uname -s | tr 'A-Z' 'a-z')
case "$(uname -m)" in x86_64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; *) exit 2 ;; esac

url="https://dl.k8s-release.example/release/$ver/bin/$os/$arch"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/kubectl" "$url/kubectl"
curl -fsSL -o "$tmp/kubectl.sha256" "$url/kubectl.sha256"

if ! (cd "$tmp" && echo "$(cat kubectl.sha256)  kubectl" | sha256sum --check --status); then
  echo "checksum mismatch - not installing" >&2
  exit 1
fi
install -D -m 0755 "$tmp/kubectl" "$HOME/.local/bin/kubectl"
"$HOME/.local/bin/kubectl" version --client
