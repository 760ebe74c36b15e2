#!/usr/bin/env bash
# Fetch the generated remote cache repository and print the effective flags.
set -euo pipefail
bazel fetch @remote_cache//:all >/dev/null
out_base="$(bazel info output_base)"
echo "Generated flags:"
cat "$out_base/external/remote_cache/remote_cache.bazelrc" \
  | sed -E 's/(Authorization=Bearer ).*/\1<redacted>/'
