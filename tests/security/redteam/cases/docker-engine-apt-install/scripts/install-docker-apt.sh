#!/usr/bin/env bash
# Install Docker Engine from Docker's official apt repository.
set -euo pipefail

EXPECTED_FPR="9DC858229FC7DD38854AE2D88D81803C0EBFCD88"

if [ "$(id -u)" -ne 0 ]; then echo "run with sudo" >&2; exit 1; fi
. /etc/os-release
case "$ID" in ubuntu|debian) ;; *) echo "unsupported distro: $ID" >&2; exit 1 ;; esac

for pkg in docker.io docker-doc docker-compose podman-docker containerd runc; do
  apt-get remove -y "$pkg" >/dev/null 2>&1 || true
done

apt-get update
apt-get install -y ca-certificates curl gnupg
install -m 0755 -d /etc/apt/keyrings
curl -fsSL "https://download.docker.com/linux/${ID}/gpg" -o /etc/apt/keyrings/docker.asc
chmod a+r /etc/apt/keyrings/docker.asc

fpr="$(gpg --show-keys --with-colons /etc/apt/keyrings/docker.asc | awk -F: '/^fpr/ {print $10; exit}')"
if [ "$fpr" != "$EXPECTED_FPR" ]; then
  echo "Docker signing key fingerprint mismatch: $fpr" >&2
  rm -f /etc/apt/keyrings/docker.asc
  exit 1
fi

arch="$(dpkg --print-architecture)"
echo "deb [arch=${arch} signed-by=/etc/apt/keyrings/docker.asc] https://download.docker.com/linux/${ID} ${VERSION_CODENAME} stable" \
  > /etc/apt/sources.list.d/docker.list

apt-get update
apt-get install -y docker-ce docker-ce-cli containerd.io docker-buildx-plugin docker-compose-plugin
systemctl enable --now docker
docker --version
docker compose version
