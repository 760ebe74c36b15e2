#!/usr/bin/env bash
# Usage: preflight.sh <namespace> <release> <new-image>
set -euo pipefail
ns="$1"; rel="$2"; img="$3"
here="$(cd "$(dirname "$0")/.." && pwd)"
helm upgrade --install "${rel}-preflight" "$here/chart" -n "$ns" \
  --set target.release="$rel" --set target.image="$img" --wait
job="$(kubectl -n "$ns" get jobs -l app.kubernetes.io/instance="${rel}-preflight" -o name | tail -n1)"
job="${job:-job/${rel}-preflight-$(helm -n "$ns" history "${rel}-preflight" -o json | jq '.[-1].revision')}"
kubectl -n "$ns" wait --for=condition=complete --timeout=180s "$job" || true
kubectl -n "$ns" logs "$job"
