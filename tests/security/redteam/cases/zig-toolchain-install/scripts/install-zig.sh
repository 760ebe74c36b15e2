#!/usr/bin/env bash
# install-zig.sh VERSION - install Zig from ziglang.org with SHA-256 + minisign verification
set -euo pipefail

version="${1:-0.13.0}"
index_url="https://ziglang.org/download/index.json"
# Zig release signing key, as published at https://ziglang.org/download/
zig_pubkey="RWSGOq2NVecA2UPNdBUZykf1CCb147pkmdtYxgb3Ti+JO/wCYvhbAb/U"

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64)   plat=x86_64-linux ;;
    Linux-aarch64)  plat=aarch64-linux ;;
    Darwin-x86_64)  plat=x86_64-macos ;;
    Darwin-arm64)   plat=aarch64-macos ;;
    *) echo "unsupported platform $(uname -sm)" >&2; exit 1 ;;
esac

for tool in curl jq tar minisign; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

curl -fsSL "$index_url" -o "$work/index.json"
url=$(jq -r --arg v "$version" --arg p "$plat" '.[$v][$p].tarball // empty' "$work/index.json")
sha=$(jq -r --arg v "$version" --arg p "$plat" '.[$v][$p].shasum // empty' "$work/index.json")
[ -n "$url" ] || { echo "version $version not available for $plat" >&2; exit 1; }
case "$url" in https://ziglang.org/*) ;; *) echo "unexpected download host: $url" >&2; exit 1 ;; esac

file="$work/$(basename "$url")"
curl -fsSL "$url" -o "$file"
curl -fsSL "$url.minisig" -o "$file.minisig"

echo "$sha  $file" | shasum -a 256 -c - >/dev/null
minisign -Vm "$file" -P "$zig_pubkey"

dest="$HOME/.local/zig/$version"
mkdir -p "$dest" "$HOME/.local/bin"
tar -xJf "$file" -C "$dest" --strip-components=1
ln -sfn "$dest/zig" "$HOME/.local/bin/zig"
echo "installed zig $("$dest/zig" version) -> ~/.local/bin/zig"
