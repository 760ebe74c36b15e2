#!/usr/bin/env bash
# onboard.sh - add/remove a user with the provided SSH public key on a server.
set -euo pipefail

die() { echo "onboard: $*" >&2; exit 1; }
usage() {
  cat >&2 <<U
usage: onboard.sh add    ADMIN@HOST USER --key FILE [--sudo] [--docker] [--yes]
       onboard.sh remove ADMIN@HOST USER [--yes]
       onboard.sh list   ADMIN@HOST
U
  exit 2
}

valid_user() { [[ "$1" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] || die "invalid username '$1'"; }

confirm() {
  (( YES )) && return 0
  read -r -p "$1 [y/N] " ans
  [[ "$ans" == [yY]* ]] || die "aborted"
}

ACTION="${1:-}"; HOST="${2:-}"; USERNAME="${3:-}"
[[ -n "$ACTION" && -n "$HOST" ]] || usage
shift $(( $# >= 3 ? 3 : $# ))
KEY=""; SUDO=0; DOCKER=0; YES=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --key) KEY="$2"; shift 2 ;;
    --sudo) SUDO=1; shift ;;
    --docker) DOCKER=1; shift ;;
    --yes) YES=1; shift ;;
    *) usage ;;
  esac
done

case "$ACTION" in
  add)
    valid_user "$USERNAME"
    [[ -f "$KEY" ]] || die "--key FILE required"
    [[ "$(grep -cv '^\s*$' "$KEY")" == 1 ]] || die "$KEY must contain exactly one public key"
    ssh-keygen -l -f "$KEY" >/dev/null 2>&1 || die "$KEY is not a valid public key"
    PUB="$(grep -v '^\s*$' "$KEY")"
    echo "host:        $HOST"
    echo "user:        $USERNAME"
    echo "key:         $(ssh-keygen -l -f "$KEY")"
    echo "sudo:        $([[ $SUDO == 1 ]] && echo yes || echo no)"
    echo "docker:      $([[ $DOCKER == 1 ]] && echo yes || echo no)"
    confirm "Proceed?"
    ssh "$HOST" "sudo bash -s -- $(printf '%q ' "$USERNAME" "$PUB" "$SUDO" "$DOCKER")" <<'REMOTE'
set -euo pipefail
U="$1"; PUB="$2"; SUDO="$3"; DOCKER="$4"
id "$U" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$U"
passwd -l "$U" >/dev/null
install -d -m 700 -o "$U" -g "$U" "/home/$U/.ssh"
AK="/home/$U/.ssh/authorized_keys"
touch "$AK"
grep -qxF "$PUB" "$AK" || printf '%s\n' "$PUB" >> "$AK"
chown "$U:$U" "$AK"; chmod 600 "$AK"
if [[ "$SUDO" == 1 ]]; then usermod -aG sudo "$U" 2>/dev/null || usermod -aG wheel "$U"; fi
if [[ "$DOCKER" == 1 ]] && getent group docker >/dev/null; then usermod -aG docker "$U"; fi
echo "ok: $U ($(wc -l < "$AK") key(s)); groups: $(id -nG "$U")"
REMOTE
    ;;
  remove)
    valid_user "$USERNAME"
    confirm "Lock $USERNAME on $HOST, remove their SSH keys and end their sessions?"
    ssh "$HOST" "sudo bash -s -- $(printf '%q' "$USERNAME")" <<'REMOTE'
set -euo pipefail
U="$1"
id "$U" >/dev/null 2>&1 || { echo "no such user $U"; exit 0; }
usermod -L -e 1 "$U"
: > "/home/$U/.ssh/authorized_keys" 2>/dev/null || true
gpasswd -d "$U" sudo 2>/dev/null || true
gpasswd -d "$U" docker 2>/dev/null || true
pkill -KILL -u "$U" 2>/dev/null || true
echo "locked $U; home directory kept at /home/$U"
REMOTE
    ;;
  list)
    ssh "$HOST" 'sudo bash -s' <<'REMOTE'
awk -F: '$3>=1000 && $3<65000 {print $1":"$6}' /etc/passwd | while IFS=: read -r u h; do
  printf '%-16s %s\n' "$u" "$(id -nG "$u" | tr ' ' ',')"
  [[ -f "$h/.ssh/authorized_keys" ]] && ssh-keygen -l -f "$h/.ssh/authorized_keys" 2>/dev/null | sed 's/^/    /'
done
REMOTE
    ;;
  *) usage ;;
esac
