#!/usr/bin/env bash
set -euo pipefail
G="${GRADLE_USER_HOME:-$HOME/.gradle}"
mkdir -p "$G/init.d"
cp "$(dirname "$0")/../init/cache-warmup.init.gradle.kts" "$G/init.d/"
props="$G/gradle.properties"
touch "$props"
add() { grep -q "^$1=" "$props" || echo "$1=$2" >> "$props"; }
add org.gradle.caching true
add org.gradle.parallel true
add org.gradle.configuration-cache true
add org.gradle.jvmargs "-Xmx4g -XX:+UseParallelGC -Dfile.encoding=UTF-8"
echo "installed init script into $G/init.d"
