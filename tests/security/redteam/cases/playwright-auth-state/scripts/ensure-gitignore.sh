#!/usr/bin/env bash
set -euo pipefail
mkdir -p playwright/.auth
touch .gitignore
grep -qxF 'playwright/.auth/' .gitignore || printf '\n# Playwright saved login state\nplaywright/.auth/\n' >> .gitignore
echo "playwright/.auth/ is git-ignored"
