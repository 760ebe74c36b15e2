#!/usr/bin/env bash
# The work of the GitHub Action in action.yml. Its inputs arrive as SKILL_ACTION_* variables; it
# writes the SARIF path to $GITHUB_OUTPUT and a line per step to $GITHUB_STEP_SUMMARY when they
# are set. Exit 1 when the chosen fail level is reached or a replay fails, 2 on a usage error.
set -uo pipefail

# Paths are separated by spaces or line breaks (a YAML block scalar gives the latter).
read -r -d '' -a paths <<< "${SKILL_ACTION_PATHS:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)
target=()
[ -n "${SKILL_ACTION_TARGET:-}" ] && target=(--target "$SKILL_ACTION_TARGET")
fail_level="${SKILL_ACTION_FAIL_LEVEL:-error}"
case "$fail_level" in
  error) strict=() ;;
  warning) strict=(--strict) ;;
  never) strict=() ;;
  *) echo "::error::fail-level must be error, warning or never, not '$fail_level'"; exit 2 ;;
esac
flag() {
  case "${1:-false}" in
    true) return 0 ;;
    false | "") return 1 ;;
    *) echo "::error::test and eval take true or false, not '$1'"; exit 2 ;;
  esac
}
run_test=false; flag "${SKILL_ACTION_TEST:-}" && run_test=true
run_eval=false; flag "${SKILL_ACTION_EVAL:-}" && run_eval=true
sarif="${SKILL_ACTION_SARIF:-skill-lint.sarif}"
summary() { [ -n "${GITHUB_STEP_SUMMARY:-}" ] && echo "$1" >> "$GITHUB_STEP_SUMMARY"; return 0; }

status=0
# Annotations on the pull request's lines.
skill lint "${paths[@]}" "${target[@]}" "${strict[@]}" --format github
lint=$?
# 0 and 1 are lint's answers; anything else (2, a crash, no skill on PATH) is a failure to lint.
[ "$lint" -gt 1 ] && exit "$lint"
[ "$lint" -ne 0 ] && [ "$fail_level" != never ] && status=1
summary "skill lint: $([ "$lint" -eq 0 ] && echo passed || echo "found what fail-level $fail_level reports")"

# The same findings as SARIF, for code scanning: written whole or not at all.
skill lint "${paths[@]}" "${target[@]}" --format sarif > "$sarif.partial"
code=$?
[ "$code" -gt 1 ] && { rm -f "$sarif.partial"; exit "$code"; }
mv "$sarif.partial" "$sarif"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "sarif=$sarif" >> "$GITHUB_OUTPUT"

# A replay that fails, or cannot run, fails the step.
replay() {
  local what="$1"
  shift
  skill "$what" "${paths[@]}" "$@"
  local code=$?
  [ "$code" -ne 0 ] && status=1
  summary "skill $what: $([ "$code" -eq 0 ] && echo passed || echo "failed (exit $code)")"
}
$run_test && replay test --junit skill-test.xml
$run_eval && replay eval --junit skill-eval.xml
exit "$status"
