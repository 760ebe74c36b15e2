#!/usr/bin/env bash
set -euo pipefail
SKILL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
top="$(git rev-parse --show-toplevel)"
mkdir -p "$top/.git/heatmap-cache"
chmod +x "$SKILL_DIR/hooks/"*
git -C "$top" config core.hooksPath "$SKILL_DIR/hooks"
echo "heatmap: incremental cache hooks enabled for $top"
