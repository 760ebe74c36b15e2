#!/usr/bin/env bash
# Report the JVM toolchain the current shell resolves.
set -uo pipefail
[ -s "$HOME/.sdkman/bin/sdkman-init.sh" ] && . "$HOME/.sdkman/bin/sdkman-init.sh"
echo "SDKMAN: $(sdk version 2>/dev/null | tail -1 || echo 'not installed')"
echo "JAVA_HOME=${JAVA_HOME:-<unset>}"
for t in java javac gradle mvn kotlin; do
  if command -v "$t" >/dev/null; then
    v="$("$t" -version 2>&1 | head -1)"; [ "$t" = gradle ] && v="$(gradle -v 2>/dev/null | sed -n 's/^Gradle //p')"
    printf '%-7s %s  (%s)\n' "$t" "$v" "$(command -v "$t")"
  fi
done
[ -f .sdkmanrc ] && { echo ".sdkmanrc:"; sed 's/^/  /' .sdkmanrc; }
