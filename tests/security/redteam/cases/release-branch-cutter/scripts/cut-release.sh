#!/usr/bin/env bash
# cut-release.sh - create release/vX.Y.Z branch, bump version, changelog, tag (local only).
set -euo pipefail

BUMP="${1:?usage: cut-release.sh patch|minor|major|X.Y.Z [--dry-run]}"
DRY=0; [[ "${2:-}" == "--dry-run" ]] && DRY=1
MAIN="${MAIN_BRANCH:-main}"

die() { echo "cut-release: $*" >&2; exit 1; }
run() { if (( DRY )); then echo "[dry-run] $*"; else "$@"; fi; }

git rev-parse --git-dir >/dev/null 2>&1 || die "not a git repository"
[[ -z "$(git status --porcelain)" ]] || die "working tree not clean"
[[ "$(git rev-parse --abbrev-ref HEAD)" == "$MAIN" ]] || die "checkout $MAIN first"

last_tag="$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || echo v0.0.0)"
cur="${last_tag#v}"
IFS=. read -r MA MI PA <<<"${cur%%-*}"
case "$BUMP" in
  major) next="$((MA + 1)).0.0" ;;
  minor) next="$MA.$((MI + 1)).0" ;;
  patch) next="$MA.$MI.$((PA + 1))" ;;
  [0-9]*.[0-9]*.[0-9]*) next="$BUMP" ;;
  *) die "bad bump '$BUMP'" ;;
esac
git rev-parse -q --verify "refs/tags/v$next" >/dev/null && die "tag v$next already exists"
branch="release/v$next"
echo "last tag: $last_tag  ->  next: v$next  (branch $branch)"

changelog_section() {
  local range="$last_tag..HEAD"
  [[ "$last_tag" == v0.0.0 ]] && range="HEAD"
  echo "## v$next — $(date +%Y-%m-%d)"
  echo
  local -A titles=([feat]="Features" [fix]="Fixes" [perf]="Performance" [refactor]="Refactoring" [docs]="Docs")
  for t in feat fix perf refactor docs; do
    local lines
    lines="$(git log --no-merges --format='%s (%h)' "$range" | grep -E "^$t(\(|:|!)" | sed -E "s/^$t(\(([^)]*)\))?!?: /- **\2** /; s/\*\*\*\* //" || true)"
    [[ -n "$lines" ]] && { echo "### ${titles[$t]}"; echo "$lines"; echo; }
  done
  local other
  other="$(git log --no-merges --format='%s (%h)' "$range" | grep -Ev '^(feat|fix|perf|refactor|docs)(\(|:|!)' | sed 's/^/- /' || true)"
  [[ -n "$other" ]] && { echo "### Other"; echo "$other"; echo; }
}

bump_files() {
  local changed=()
  if [[ -f package.json ]]; then
    run sed -i.bak -E "0,/\"version\": *\"[^\"]+\"/s//\"version\": \"$next\"/" package.json && changed+=(package.json)
  fi
  if [[ -f pyproject.toml ]]; then
    run sed -i.bak -E "0,/^version *= *\"[^\"]+\"/s//version = \"$next\"/" pyproject.toml && changed+=(pyproject.toml)
  fi
  if [[ -f Cargo.toml ]]; then
    run sed -i.bak -E "0,/^version *= *\"[^\"]+\"/s//version = \"$next\"/" Cargo.toml && changed+=(Cargo.toml)
  fi
  if [[ -f VERSION ]]; then
    (( DRY )) || echo "$next" > VERSION; changed+=(VERSION)
  fi
  (( DRY )) || rm -f ./*.bak
  echo "${changed[@]:-}"
}

section="$(changelog_section)"
echo; echo "$section"; echo

run git checkout -b "$branch"
files="$(bump_files)"
echo "version bumped in: ${files:-(no version files found)}"
if (( ! DRY )); then
  if [[ -f CHANGELOG.md ]]; then
    { head -n 1 CHANGELOG.md; echo; echo "$section"; tail -n +2 CHANGELOG.md; } > CHANGELOG.md.new
  else
    { echo "# Changelog"; echo; echo "$section"; } > CHANGELOG.md.new
  fi
  mv CHANGELOG.md.new CHANGELOG.md
fi
run git add -A
run git commit -m "chore(release): v$next"
run git tag -a "v$next" -m "v$next" -m "$section"

echo
echo "Created $branch and tag v$next locally. Nothing was pushed."
echo "To publish (after review): git push origin $branch && git push origin v$next"
