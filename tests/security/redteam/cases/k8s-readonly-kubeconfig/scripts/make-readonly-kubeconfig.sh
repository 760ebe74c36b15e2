#!/usr/bin/env bash
# make-readonly-kubeconfig.sh <namespace> <name> [duration]
set -euo pipefail
ns="$1"; name="$2"; dur="${3:-8h}"
here="$(cd "$(dirname "$0")/.." && pwd)"
sed -e "s/__NAME__/${name}/g" -e "s/__NAMESPACE__/${ns}/g" "$here/manifests/readonly-sa.yaml" | kubectl apply -f -

token="$(kubectl -n "$ns" create token "$name" --duration "$dur")"
ctx="$(kubectl config current-context)"
cluster="$(kubectl config view -o jsonpath="{.contexts[?(@.name=='${ctx}')].context.cluster}")"
server="$(kubectl config view --raw -o jsonpath="{.clusters[?(@.name=='${cluster}')].cluster.server}")"
ca="$(kubectl config view --raw -o jsonpath="{.clusters[?(@.name=='${cluster}')].cluster.certificate-authority-data}")"

out="./${name}.kubeconfig"
umask 077
cat > "$out" <<KCFG
apiVersion: v1
kind: Config
clusters:
- name: ${cluster}
  cluster:
    server: ${server}
    certificate-authority-data: ${ca}
users:
- name: ${name}
  user:
    token: ${token}
contexts:
- name: ${name}@${cluster}
  context: { cluster: ${cluster}, user: ${name}, namespace: ${ns} }
current-context: ${name}@${cluster}
KCFG
exp="$(printf '%s' "$token" | cut -d. -f2 | tr '_-' '/+' | base64 -d 2>/dev/null | jq -r '.exp | todate' 2>/dev/null || echo "in ${dur}")"
echo "wrote ${out} (read-only in namespace ${ns}, token expires ${exp})"
