#!/bin/sh
# Read-only audit of git configuration for risky, command-executing keys.
# Usage: audit-git-config.sh [dir-to-scan-for-repos]
RISKY='^(core\.hookspath|core\.sshcommand|core\.fsmonitor|core\.pager|core\.editor|core\.askpass|credential\..*helper|url\..*\.(pushinsteadof|insteadof)|filter\..*\.(clean|smudge|process)|diff\..*\.(textconv|command)|merge\..*\.driver|sequence\.editor|include\.path|includeif\..*\.path|http\..*proxy|http\.proxy|protocol\.ext\.allow|uploadpack\.packobjectshook|alias\..*)$'
out="${TMPDIR:-/tmp}/git-audit.$$"
trap 'rm -f "$out"' EXIT

{
  git config --system --show-origin --get-regexp "$RISKY" 2>/dev/null | sed 's/^/system	/'
  git config --global --show-origin --get-regexp "$RISKY" 2>/dev/null | sed 's/^/global	/'
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git config --local --show-origin --get-regexp "$RISKY" 2>/dev/null | sed "s|^|local($(pwd))	|"
  fi
  if [ -n "$1" ]; then
    find "$1" -maxdepth 4 -type d -name .git 2>/dev/null | while read -r g; do
      git --git-dir="$g" config --local --show-origin --get-regexp "$RISKY" 2>/dev/null | sed "s|^|repo(${g%/.git})	|"
    done
  fi
} | sort -u > "$out"

if [ -s "$out" ]; then
  echo "Risky git configuration keys (review each against references/risky-keys.md):"
  cat "$out"
  exit 1
fi
echo "No risky git configuration keys found."
