#!/usr/bin/env bash
set -euo pipefail
if grep -q '"vitest"' package.json 2>/dev/null; then echo "npx vitest"
elif grep -q '"jest"' package.json 2>/dev/null; then echo "npx jest --watch"
else echo "npm test -- --watch"; fi
