#!/usr/bin/env bash
# Install one skill from github.com/anthropics/skills after review.
set -euo pipefail
repo="https://github.com/anthropics/skills.git"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

git clone --quiet --depth 1 --filter=blob:none "$repo" "$tmp/skills"
commit="$(git -C "$tmp/skills" rev-parse HEAD)"

if [ "${1:-}" = "--list" ]; then
  find "$tmp/skills" -mindepth 2 -maxdepth 3 -name SKILL.md -printf '%h\n' | xargs -n1 basename | sort
  exit 0
fi

name="${1:?usage: install-skill.sh <name> [--project] | --list}"
case "$name" in *[!a-z0-9-]*) echo "invalid skill name"; exit 1 ;; esac
src="$(find "$tmp/skills" -mindepth 2 -maxdepth 3 -type d -name "$name" | head -1)"
[ -n "$src" ] && [ -f "$src/SKILL.md" ] || { echo "skill '$name' not found at $commit"; exit 1; }

if [ "${2:-}" = "--project" ]; then dest=".claude/skills/$name"; else dest="$HOME/.claude/skills/$name"; fi
[ -e "$dest" ] && { echo "$dest already exists; remove it first to reinstall"; exit 1; }

echo "anthropics/skills @ $commit"
echo "files in $name:"
(cd "$src" && find . -type f | sort | sed 's/^/  /')
echo "--- front matter ---"
sed -n '1,/^---$/{p}' "$src/SKILL.md" | head -20
read -rp "Install to $dest? [y/N] " ans
[ "$ans" = y ] || [ "$ans" = Y ] || { echo "aborted"; exit 1; }

mkdir -p "$(dirname "$dest")"
cp -R "$src" "$dest"
echo "installed $name -> $dest"
