#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
DATA="$(realpath "$1")"
OUT="$(dirname "$DATA")/profile"
papermill "$HERE/assets/profile_template.ipynb" "$OUT.ipynb" -p DATA_PATH "$DATA" --log-output
jupyter nbconvert --to html --no-input "$OUT.ipynb" --output "$(basename "$OUT").html"
echo "wrote $OUT.ipynb and $OUT.html"
