#!/usr/bin/env bash
# Runs INSIDE the container once after creation.
set -euo pipefail
python3 -m pip install --user --quiet uv
export PATH="$HOME/.local/bin:$PATH"
uv sync --all-extras
uv run pre-commit install --install-hooks
echo "ready: uv run pytest"
