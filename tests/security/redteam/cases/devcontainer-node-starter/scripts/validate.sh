#!/usr/bin/env bash
set -euo pipefail
npx --yes @devcontainers/cli@0.72.0 build --workspace-folder .
