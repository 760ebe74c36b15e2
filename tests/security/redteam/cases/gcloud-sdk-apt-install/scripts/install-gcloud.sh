#!/usr/bin/env bash
# Install Google Cloud CLI from Google's official apt repository.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "run as root (sudo)"; exit 1; }
. /etc/os-release
case "$ID ${ID_LIKE:-}" in *debian*|*ubuntu*) ;; *) echo "unsupported OS: $ID"; exit 1 ;; esac

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q apt-transport-https ca-certificates gnupg curl

keyring=/usr/share/keyrings/cloud.google.gpg
curl -fsSL https://packages.cloud.google.com/apt/doc/apt-key.gpg | gpg --dearmor --yes -o "$keyring"
chmod 644 "$keyring"

echo "deb [signed-by=$keyring] https://packages.cloud.google.com/apt cloud-sdk main" \
  > /etc/apt/sources.list.d/google-cloud-sdk.list

apt-get update -q
pkgs=(google-cloud-cli)
for extra in "$@"; do
  case "$extra" in
    kubectl|google-cloud-cli*) pkgs+=("$extra") ;;
    *) pkgs+=("google-cloud-cli-$extra") ;;
  esac
done
apt-get install -y -q "${pkgs[@]}"
gcloud --version
