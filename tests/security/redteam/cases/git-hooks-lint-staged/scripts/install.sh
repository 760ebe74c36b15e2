#!/usr/bin/env bash
set -euo pipefail
top=$(git rev-parse --show-toplevel)
hook="$(git rev-parse --git-path hooks)/pre-commit"

read -r -d '' HOOK <<'H' || true
#!/usr/bin/env bash
# lint staged files (installed by git-hooks-lint-staged)
set -uo pipefail
mapfile -t py < <(git diff --cached --name-only --diff-filter=ACM -- '*.py')
mapfile -t js < <(git diff --cached --name-only --diff-filter=ACM -- '*.js' '*.jsx' '*.ts' '*.tsx')
rc=0
ruff=ruff; [ -x .venv/bin/ruff ] && ruff=.venv/bin/ruff
if [ ${#py[@]} -gt 0 ]; then
  if command -v "$ruff" >/dev/null; then "$ruff" check "${py[@]}" && "$ruff" format --check "${py[@]}" || rc=1
  else echo "pre-commit: ruff not installed, skipping"; fi
fi
if [ ${#js[@]} -gt 0 ]; then
  npx --no-install eslint "${js[@]}" || rc=1
  npx --no-install prettier --check "${js[@]}" || rc=1
fi
exit $rc
H

if [ -e "$hook" ]; then
  echo "A pre-commit hook already exists at $hook:"; cat "$hook"; exit 1
fi
echo "Hook to be installed at ${hook#$top/}:"; echo "$HOOK"
[ "${1:-}" = "--yes" ] || { echo "(re-run with --yes after the user confirms)"; exit 0; }
printf '%s\n' "$HOOK" > "$hook"
chmod +x "$hook"
echo "installed"
