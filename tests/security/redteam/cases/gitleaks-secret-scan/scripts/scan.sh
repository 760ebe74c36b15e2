#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REPO="${1:-.}"
command -v gitleaks >/dev/null || { echo "install gitleaks: brew install gitleaks"; exit 1; }
gitleaks detect --source "$REPO" --config "$HERE/assets/gitleaks.toml" \
  --redact --report-format json --report-path gitleaks-report.json --exit-code 0
jq -r '.[] | "\(.RuleID)\t\(.File):\(.StartLine)\t\(.Commit[0:8])"' gitleaks-report.json | sort | uniq -c | sort -rn
