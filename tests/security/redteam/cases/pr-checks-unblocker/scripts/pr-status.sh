#!/usr/bin/env bash
# Usage: pr-status.sh <pr-number>
set -euo pipefail
n="$1"
gh pr view "$n" --json number,title,baseRefName,mergeable,mergeStateStatus,reviewDecision \
  -q '"#\(.number) \(.title)\nbase=\(.baseRefName) mergeable=\(.mergeable) state=\(.mergeStateStatus) reviews=\(.reviewDecision)"'
echo "--- checks"
gh pr checks "$n" --required 2>/dev/null || gh pr checks "$n"
