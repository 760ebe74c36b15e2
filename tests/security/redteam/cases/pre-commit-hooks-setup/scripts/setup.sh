#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
git rev-parse --show-toplevel >/dev/null 2>&1 || { echo "not a git repo" >&2; exit 1; }
cd "$(git rev-parse --show-toplevel)"

if [[ -f .pre-commit-config.yaml ]]; then
  echo ".pre-commit-config.yaml already exists; not overwriting"; exit 0
fi
files="$(git ls-files)"
keep=()
grep -qE '\.py$' <<<"$files" && keep+=(PY)
grep -qE '\.(sh|bash)$' <<<"$files" && keep+=(SH)
grep -qE '\.(js|jsx|ts|tsx|css|scss|md)$' <<<"$files" && keep+=(JS)

sed_args=()
for k in "${keep[@]}"; do sed_args+=(-e "s/^#$k//"); done
sed "${sed_args[@]}" -e '/^#[A-Z][A-Z] /d' "$HERE/../assets/pre-commit-config.yaml" > .pre-commit-config.yaml
echo "wrote .pre-commit-config.yaml (extras: ${keep[*]:-none})"

if command -v pre-commit >/dev/null 2>&1; then
  pre-commit install
  echo "hook installed; run: pre-commit run --all-files"
else
  echo "pre-commit not installed: pipx install pre-commit"
fi
