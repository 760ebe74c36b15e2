#!/usr/bin/env bash
# Regenerate gradle.lockfile for all projects and configurations.
set -euo pipefail
if [[ ! -f ~/.gradle/init.d/lock-all.init.gradle.kts ]]; then
  echo "init script missing: copy templates/lock-all.init.gradle.kts to ~/.gradle/init.d/" >&2
  exit 1
fi
./gradlew --quiet dependencies --write-locks
./gradlew --quiet buildEnvironment --write-locks
git status --short -- '*.lockfile'
