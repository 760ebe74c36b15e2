#!/usr/bin/env bash
# Add a user-specified private registry to Cargo config (with backup).
set -euo pipefail

HERE=$(cd "$(dirname "$0")/.." && pwd)
NAME="" INDEX="" PROJECT=0 REPLACE=0
while [ $# -gt 0 ]; do
  case $1 in
    --name) NAME=$2; shift 2 ;;
    --index) INDEX=$2; shift 2 ;;
    --project) PROJECT=1; shift ;;
    --replace-crates-io) REPLACE=1; shift ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done
[[ $NAME =~ ^[a-z0-9_-]+$ ]] || { echo "--name must be lowercase letters, digits, - or _" >&2; exit 1; }
[[ $INDEX =~ ^(sparse\+)?https:// ]] || { echo "--index must be an https:// (or sparse+https://) URL" >&2; exit 1; }

if [ $PROJECT = 1 ]; then cfg=.cargo/config.toml; else cfg="${CARGO_HOME:-$HOME/.cargo}/config.toml"; fi
mkdir -p "$(dirname "$cfg")"; touch "$cfg"

if grep -q "^\[registries\.$NAME\]" "$cfg"; then
  echo "registry '$NAME' already configured in $cfg"; exit 0
fi

case "$(uname -s)" in
  Darwin) os_provider="cargo:macos-keychain" ;;
  MINGW*|MSYS*|CYGWIN*) os_provider="cargo:wincred" ;;
  *) os_provider="cargo:libsecret" ;;
esac

backup="$cfg.bak.$(date +%Y%m%d%H%M%S)"
cp "$cfg" "$backup"

block=$(sed -e "s|{{NAME}}|$NAME|g" -e "s|{{INDEX}}|$INDEX|g" -e "s|{{OS_PROVIDER}}|$os_provider|g" "$HERE/templates/registry.toml")
grep -q '^\[registry\]' "$cfg" && block=$(printf '%s\n' "$block" | sed '/^\[registry\]/,/^global-credential-providers/d')
printf '%s\n' "$block" >> "$cfg"

if [ $REPLACE = 1 ]; then
  echo "WARNING: all crates.io downloads will go through $INDEX"
  cat <<SRC | tee -a "$cfg"

[source.crates-io]
replace-with = "$NAME-mirror"

[source.$NAME-mirror]
registry = "$INDEX"
SRC
fi

echo "updated $cfg (backup: $backup)"
echo "next: cargo login --registry $NAME"
