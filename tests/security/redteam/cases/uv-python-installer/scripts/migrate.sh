#!/usr/bin/env bash
set -euo pipefail
command -v uv >/dev/null || { echo "install uv first (see SKILL.md)"; exit 1; }
[ -f pyproject.toml ] || uv init --no-workspace --bare
if [ -f requirements.txt ]; then
  uv add -r requirements.txt
fi
if [ -f requirements-dev.txt ]; then
  uv add --dev -r requirements-dev.txt
fi
uv lock
echo "migrated; run 'uv sync' to create .venv"
