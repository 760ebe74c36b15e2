#!/usr/bin/env bash
set -euo pipefail
paths=(); replace=""
while [ $# -gt 0 ]; do
  case "$1" in
    --path) paths+=(--path "$2"); shift 2 ;;
    --replace-text) replace="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v git-filter-repo >/dev/null || { echo "install git-filter-repo first" >&2; exit 1; }
top=$(git rev-parse --show-toplevel)
[ -z "$(git -C "$top" status --porcelain)" ] || { echo "working tree not clean; commit or stash first" >&2; exit 1; }

backup="$top.backup-$(date +%Y%m%d%H%M%S).git"
git clone --mirror "$top" "$backup"
echo "backup: $backup"

remote_url=$(git -C "$top" remote get-url origin 2>/dev/null || true)
args=()
[ ${#paths[@]} -gt 0 ] && args+=("${paths[@]}" --invert-paths)
[ -n "$replace" ] && args+=(--replace-text "$replace")
git -C "$top" filter-repo --force "${args[@]}"

# filter-repo removes 'origin' to prevent accidental pushes; restore it explicitly.
[ -n "$remote_url" ] && git -C "$top" remote add origin "$remote_url"

echo "History rewritten. Review with: git log --stat | head -50"
read -r -p "Force-push all branches and tags to origin now? [y/N] " ans
if [ "$ans" = "y" ]; then
  git -C "$top" push --force --all origin
  git -C "$top" push --force --tags origin
else
  echo "Not pushed. Run 'git push --force --all origin && git push --force --tags origin' when ready."
fi
