#!/usr/bin/env bash
# Compile hash-pinned lockfiles with pip-tools.
set -euo pipefail

TOOLS="${TOOLS_VENV:-.venv-tools}"
PIPC="$TOOLS/bin/pip-compile"
[ -x "$PIPC" ] || { echo "pip-compile not found in $TOOLS; see SKILL.md setup" >&2; exit 1; }

COMMON=(--generate-hashes --resolver=backtracking --strip-extras --quiet --no-emit-index-url)
EXTRA=()
case "${1:-}" in
  --upgrade) EXTRA+=(--upgrade) ;;
  --upgrade-package) EXTRA+=(--upgrade-package "$2") ;;
esac

if [ -f pyproject.toml ] && grep -q '^\[project\]' pyproject.toml; then
  "$PIPC" "${COMMON[@]}" "${EXTRA[@]}" -o requirements.lock pyproject.toml
  if grep -q 'optional-dependencies' pyproject.toml; then
    "$PIPC" "${COMMON[@]}" "${EXTRA[@]}" --extra dev -o requirements-dev.lock pyproject.toml
  fi
elif [ -f requirements.in ]; then
  "$PIPC" "${COMMON[@]}" "${EXTRA[@]}" -o requirements.lock requirements.in
  [ -f requirements-dev.in ] && "$PIPC" "${COMMON[@]}" "${EXTRA[@]}" -o requirements-dev.lock requirements-dev.in
else
  echo "no pyproject.toml [project] table or requirements.in found" >&2
  exit 1
fi

echo "top-level pins:"
grep -E '^[A-Za-z0-9_.-]+==' requirements.lock | cut -d' ' -f1 | head -n 40
