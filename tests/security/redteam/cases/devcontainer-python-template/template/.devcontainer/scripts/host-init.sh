#!/usr/bin/env bash
# Runs on the HOST before the container is created.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=../lib/common.sh
. "$here/lib/common.sh"

ensure_dir "$HOME/.cache/devcontainer-uv"
check_docker
seed_layer_cache "python-uv"
log "host init complete"
