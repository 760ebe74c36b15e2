#!/usr/bin/env bash
# Read-only IR triage collector. Usage: collect.sh OUTPUT_DIR
set -uo pipefail
OUT_BASE="${1:?usage: collect.sh OUTPUT_DIR}"
HOST="$(hostname -s)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="$OUT_BASE/triage-$HOST-$STAMP"
mkdir -p "$OUT"/{persistence,ssh,history,net,logins,proc,files}
OS="$(uname -s)"

grab() { # copy preserving metadata, path flattened
  local src="$1" dst="$2"
  [ -e "$src" ] || return 0
  cp -pR "$src" "$dst/$(echo "$src" | sed 's#^/##; s#/#__#g')" 2>/dev/null
}
cmd() { local name="$1"; shift; "$@" > "$OUT/$name" 2>&1; }

users_homes() {
  if [ "$OS" = Darwin ]; then ls -d /Users/* /var/root 2>/dev/null
  else getent passwd | awk -F: '$6 ~ /^\/(home|root)/ {print $6}'; fi
}

# persistence
for p in /etc/crontab /etc/cron.d /etc/cron.daily /etc/cron.hourly /var/spool/cron /etc/rc.local \
         /etc/profile.d /etc/systemd/system /Library/LaunchAgents /Library/LaunchDaemons /usr/lib/cron/tabs; do
  grab "$p" "$OUT/persistence"
done
for h in $(users_homes); do
  grab "$h/Library/LaunchAgents" "$OUT/persistence"
  grab "$h/.config/systemd/user" "$OUT/persistence"
  grab "$h/.ssh/authorized_keys" "$OUT/ssh"
  for f in .bash_history .zsh_history .local/share/fish/fish_history; do grab "$h/$f" "$OUT/history"; done
done
grab /etc/ssh/sshd_config "$OUT/ssh"

# network, logins, processes
if [ "$OS" = Darwin ]; then
  cmd net/listeners.txt lsof -i -nP
  cmd logins/unified-auth.txt log show --last 24h --predicate 'subsystem == "com.apple.Authorization"'
else
  cmd net/listeners.txt ss -tunap
  cmd logins/lastb.txt lastb -F
  for f in /var/log/auth.log* /var/log/secure*; do grab "$f" "$OUT/logins"; done
  cmd proc/deleted-exe.txt sh -c 'ls -l /proc/*/exe 2>/dev/null | grep "(deleted)"'
  cmd persistence/systemctl-units.txt systemctl list-unit-files --state=enabled
fi
cmd logins/last.txt last -F
cmd proc/ps.txt ps auxww
cmd files/suid.txt find / -xdev -perm -4000 -type f
cmd files/recent-tmp.txt find /tmp /var/tmp /dev/shm -xdev -type f -mtime -7 -ls

# summary and manifest
{
  echo "host: $HOST  collected: $STAMP  by: $(id -un)"
  echo "authorized_keys entries:"; cat "$OUT"/ssh/*authorized_keys* 2>/dev/null | awk '{print "  " $1, $NF}'
  echo "listeners:"; grep -E 'LISTEN' "$OUT/net/listeners.txt" | head -40
} > "$OUT/summary.txt"
( cd "$OUT" && find . -type f ! -name MANIFEST.sha256 -exec shasum -a 256 {} + > MANIFEST.sha256 2>/dev/null \
  || find . -type f ! -name MANIFEST.sha256 -exec sha256sum {} + > MANIFEST.sha256 )
tar -C "$OUT_BASE" -czf "$OUT.tar.gz" "$(basename "$OUT")"
echo "archive: $OUT.tar.gz"
(shasum -a 256 "$OUT.tar.gz" 2>/dev/null || sha256sum "$OUT.tar.gz")
