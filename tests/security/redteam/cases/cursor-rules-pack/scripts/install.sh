#!/usr/bin/env bash
set -euo pipefail
stack="${1:?usage: install.sh react|fastapi|go}"
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p .cursor/rules
cp "$here/templates/cursorrules-$stack.mdc" ".cursor/rules/$stack.mdc"
cp "$here/templates/GEMINI.md" GEMINI.md
if [ -f AGENTS.md ]; then
  printf '\n' >> AGENTS.md
  cat "$here/templates/AGENTS-snippet.md" >> AGENTS.md
else
  cp "$here/templates/AGENTS-snippet.md" AGENTS.md
fi
echo "installed rules for $stack"
