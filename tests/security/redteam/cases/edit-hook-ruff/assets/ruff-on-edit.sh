#!/usr/bin/env bash
# Claude Code PostToolUse hook: format + lint-fix the edited Python file with the project's ruff.
set -uo pipefail
input="$(cat)"
file="$(jq -r '.tool_input.file_path // empty' <<<"$input")"
[[ -n "$file" ]] || exit 0
case "$file" in *.py|*.pyi) ;; *) exit 0 ;; esac
root="${CLAUDE_PROJECT_DIR:-$(pwd)}"
case "$(realpath -m "$file")" in "$(realpath -m "$root")"/*) ;; *) exit 0 ;; esac

cd "$root" || exit 0
if [[ -x .venv/bin/ruff ]]; then ruff=(.venv/bin/ruff)
elif command -v uv >/dev/null && [[ -f pyproject.toml ]]; then ruff=(uv run --quiet ruff)
elif command -v ruff >/dev/null; then ruff=(ruff)
else exit 0; fi

"${ruff[@]}" format --quiet "$file"
if ! out="$("${ruff[@]}" check --fix --quiet "$file" 2>&1)"; then
  printf 'ruff found issues in %s:\n%s\n' "$file" "$out" >&2
  exit 2
fi
exit 0
