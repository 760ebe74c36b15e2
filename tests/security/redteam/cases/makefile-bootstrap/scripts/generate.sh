#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
force=0; [[ "${1:-}" == "--force" ]] && force=1

if [[ -f Makefile && $force -eq 0 ]]; then
  echo "Makefile exists; use --force to overwrite" >&2; exit 1
fi
[[ -f Makefile ]] && cp Makefile "Makefile.bak.$(date +%s)"

stack=""
[[ -f pyproject.toml ]] && stack+=" py"
[[ -f package.json ]] && stack+=" js"
[[ -f go.mod ]] && stack+=" go"
[[ -f Cargo.toml ]] && stack+=" rs"
[[ -n "$stack" ]] || { echo "no known stack detected" >&2; exit 2; }

{
  cat "$here/../assets/Makefile.head"
  for s in $stack; do cat "$here/../assets/$s.mk"; done
  printf '\nfmt: %s ## format all code\nlint: %s ## lint all code\ntest: %s ## run all tests\n' \
    "$(for s in $stack; do printf '%s-fmt ' "$s"; done)" \
    "$(for s in $stack; do printf '%s-lint ' "$s"; done)" \
    "$(for s in $stack; do printf '%s-test ' "$s"; done)"
} > Makefile
echo "wrote Makefile for:$stack"
