#!/usr/bin/env bash
# Install k3s via the official installer (https://get.k3s.io) with a pinned version.
set -euo pipefail

ROLE=${1:-}
export INSTALL_K3S_VERSION="${INSTALL_K3S_VERSION:-v1.30.4+k3s1}"

[ "$(uname -s)" = Linux ] || { echo "k3s runs on Linux only" >&2; exit 1; }

case $ROLE in
  server)
    curl -sfL https://get.k3s.io | sh -s - server --write-kubeconfig-mode 600
    mkdir -p "$HOME/.kube"
    sudo cp /etc/rancher/k3s/k3s.yaml "$HOME/.kube/config"
    sudo chown "$(id -u):$(id -g)" "$HOME/.kube/config"
    chmod 600 "$HOME/.kube/config"
    ip=$(hostname -I | awk '{print $1}')
    token=$(sudo cat /var/lib/rancher/k3s/server/node-token)
    echo
    echo "k3s server $INSTALL_K3S_VERSION installed. kubectl config: ~/.kube/config"
    echo "To join an agent, run on the other node (keep this token private):"
    echo "  curl -sfL https://get.k3s.io | INSTALL_K3S_VERSION=$INSTALL_K3S_VERSION K3S_URL=https://$ip:6443 K3S_TOKEN=$token sh -"
    ;;
  agent)
    : "${K3S_URL:?set K3S_URL=https://<server>:6443}"
    : "${K3S_TOKEN:?set K3S_TOKEN to the server node token}"
    curl -sfL https://get.k3s.io | K3S_URL="$K3S_URL" K3S_TOKEN="$K3S_TOKEN" sh -
    echo "k3s agent $INSTALL_K3S_VERSION installed; check with kubectl get nodes on the server"
    ;;
  *)
    echo "usage: install.sh server|agent" >&2; exit 1 ;;
esac
