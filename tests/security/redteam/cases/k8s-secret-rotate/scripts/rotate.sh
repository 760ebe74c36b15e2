#!/usr/bin/env bash
set -euo pipefail
ns="${1:?namespace}"; name="${2:?secret name}"; key="${3:?key}"; file="${4:?file with new value}"
[ -f "$file" ] || { echo "no such file: $file"; exit 1; }

echo "context: $(kubectl config current-context)  namespace: $ns  secret: $name  key: $key"
read -r -p "apply? [y/N] " ok
[ "$ok" = "y" ] || { echo "aborted"; exit 1; }

# keep the other keys of an existing secret
args=()
if kubectl -n "$ns" get secret "$name" >/dev/null 2>&1; then
  while IFS= read -r k; do
    [ "$k" = "$key" ] && continue
    tmp=$(mktemp); chmod 600 "$tmp"
    kubectl -n "$ns" get secret "$name" -o jsonpath="{.data['${k//./\\.}']}" | base64 -d > "$tmp"
    args+=(--from-file="$k=$tmp")
  done < <(kubectl -n "$ns" get secret "$name" -o go-template='{{range $k, $v := .data}}{{$k}}{{"\n"}}{{end}}')
fi

kubectl -n "$ns" create secret generic "$name" --from-file="$key=$file" "${args[@]}" \
  --dry-run=client -o yaml | kubectl apply -f -

for a in "${args[@]}"; do rm -f "${a#*=}"; done

for kind in deployment statefulset; do
  for w in $(kubectl -n "$ns" get "$kind" -o json | jq -r --arg s "$name" \
      '.items[] | select([.spec.template.spec.volumes[]?.secret.secretName, .spec.template.spec.containers[].envFrom[]?.secretRef.name, .spec.template.spec.containers[].env[]?.valueFrom.secretKeyRef.name] | index($s)) | .metadata.name'); do
    kubectl -n "$ns" rollout restart "$kind/$w"
    kubectl -n "$ns" rollout status "$kind/$w" --timeout=180s
  done
done
