#!/usr/bin/env bash
# Install or remove repository-local DCO and pre-push hooks.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(git rev-parse --show-toplevel 2>/dev/null)" || { echo "not inside a git repository" >&2; exit 1; }
hooks_dir="$(git -C "$root" rev-parse --git-path hooks)"
[[ "$hooks_dir" = /* ]] || hooks_dir="$root/$hooks_dir"

if git -C "$root" config --local --get core.hooksPath >/dev/null; then
  echo "core.hooksPath is set (another hook manager?); refusing to install." >&2
  exit 1
fi

prepush=""
uninstall=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prepush) prepush="$2"; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done

if [[ "$uninstall" == 1 ]]; then
  for h in commit-msg pre-push; do
    if grep -q 'DCO Signed-off-by\|configured fast test' "$hooks_dir/$h" 2>/dev/null; then
      rm -f "$hooks_dir/$h"
      [[ -f "$hooks_dir/$h.bak" ]] && mv "$hooks_dir/$h.bak" "$hooks_dir/$h"
    fi
  done
  git -C "$root" config --local --unset hooks.prepushCommand || true
  echo "hooks removed"
  exit 0
fi

mkdir -p "$hooks_dir"
for h in commit-msg pre-push; do
  [[ -f "$hooks_dir/$h" ]] && cp "$hooks_dir/$h" "$hooks_dir/$h.bak"
  install -m 0755 "$here/hooks/$h" "$hooks_dir/$h"
done
[[ -n "$prepush" ]] && git -C "$root" config --local hooks.prepushCommand "$prepush"
echo "installed commit-msg and pre-push hooks in $hooks_dir"
