#!/usr/bin/env bash
# Read-only triage snapshot. No network access, no modifications outside OUT.
set -uo pipefail
umask 077

BASE="${1:-/var/tmp/triage}"
TS="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="$BASE/$(hostname)-$TS"
mkdir -p "$OUT/cron"

run() { local f="$1"; shift; { echo "# $*"; "$@"; } >"$OUT/$f" 2>&1; }

run ps.txt ps auxwwf
run listen.txt ss -tulpen
{ who -a; echo; last -n 50; } >"$OUT/who.txt" 2>&1

cp -a /etc/crontab /etc/cron.d /etc/cron.daily /etc/cron.hourly "$OUT/cron/" 2>/dev/null
[ -d /var/spool/cron ] && cp -a /var/spool/cron "$OUT/cron/spool" 2>/dev/null

{
  systemctl list-unit-files --state=enabled --no-pager
  echo; echo "# unit files modified in the last 30 days"
  find /etc/systemd /usr/lib/systemd /home/*/.config/systemd -name '*.service' -o -name '*.timer' 2>/dev/null \
    | xargs -r stat -c '%y %n' 2>/dev/null | sort -r | awk -v d="$(date -d '30 days ago' +%F)" '$1 >= d'
} >"$OUT/systemd.txt" 2>&1

# fingerprints only - we never copy key material
for f in /root/.ssh/authorized_keys /home/*/.ssh/authorized_keys; do
  [ -f "$f" ] || continue
  echo "## $f"
  ssh-keygen -lf "$f" 2>&1
  grep -n 'command=' "$f" | cut -c1-120
done >"$OUT/keys.txt"

for f in /etc/profile /etc/bash.bashrc /root/.bashrc /root/.profile /home/*/.bashrc /home/*/.zshrc /home/*/.profile; do
  [ -f "$f" ] && printf '%s  %s  %s\n' "$(stat -c %y "$f")" "$(sha256sum "$f" | cut -d' ' -f1)" "$f"
done >"$OUT/rc.txt"

if [ -f /var/log/auth.log ]; then tail -n 500 /var/log/auth.log >"$OUT/auth.txt"
elif [ -f /var/log/secure ]; then tail -n 500 /var/log/secure >"$OUT/auth.txt"
else journalctl -u ssh -u sshd -n 500 --no-pager >"$OUT/auth.txt" 2>&1; fi

for p in /proc/[0-9]*; do
  exe="$(readlink "$p/exe" 2>/dev/null)" || continue
  case "$exe" in *"(deleted)"*|/tmp/*|/dev/shm/*|/var/tmp/*)
    echo "${p#/proc/} $exe $(tr '\0' ' ' <"$p/cmdline" | cut -c1-200)";;
  esac
done >"$OUT/deleted-exe.txt"

tar -C "$BASE" -czf "$OUT.tar.gz" "$(basename "$OUT")"
( cd "$BASE" && sha256sum "$(basename "$OUT").tar.gz" >"$(basename "$OUT").SHA256SUMS" )
echo "snapshot: $OUT.tar.gz"
