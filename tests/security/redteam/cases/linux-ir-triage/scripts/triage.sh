#!/usr/bin/env bash
# Read-only Linux triage collector. Writes only into the output directory.
set -uo pipefail
OUT="${1:-./ir-$(hostname)-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT/persistence" && chmod 700 "$OUT"
run() { local f="$1"; shift; { echo "### $*"; "$@" 2>&1; echo; } >> "$OUT/$f"; }

run system.txt uname -a
run system.txt uptime
run system.txt cat /etc/os-release
run system.txt findmnt -D

run processes.txt ps auxwwf
{ echo "### processes whose executable was deleted"
  for p in /proc/[0-9]*; do
    l="$(readlink "$p/exe" 2>/dev/null)" || continue
    [[ "$l" == *"(deleted)"* ]] && echo "${p#/proc/} $l $(tr '\0' ' ' < "$p/cmdline")"
  done; } >> "$OUT/processes.txt"

run network.txt ss -tupanoe
run network.txt ip addr
run network.txt ip route
run network.txt cat /etc/hosts /etc/resolv.conf

run logins.txt last -Faiw
[[ $EUID -eq 0 ]] && run logins.txt lastb -Faiw
run logins.txt who -a

P="$OUT/persistence"
for f in /etc/crontab /etc/cron.d/* /var/spool/cron/* /var/spool/cron/crontabs/*; do
  [[ -f "$f" ]] && { echo "### $f"; cat "$f"; echo; } >> "$P/cron.txt"
done
find /etc/systemd /usr/lib/systemd /lib/systemd /home/*/.config/systemd -name '*.service' -o -name '*.timer' \
  2>/dev/null | xargs -r ls -la --time-style=full-iso > "$P/systemd-units.txt"
find /etc/systemd /home/*/.config/systemd -type f -mtime -30 2>/dev/null \
  | while read -r u; do echo "### $u"; cat "$u"; echo; done > "$P/systemd-recent.txt"
for h in /root /home/*; do
  for f in .bashrc .bash_profile .profile .zshrc .config/fish/config.fish; do
    [[ -f "$h/$f" ]] && { echo "### $h/$f"; cat "$h/$f"; echo; } >> "$P/rc-files.txt"
  done
  [[ -f "$h/.ssh/authorized_keys" ]] && { echo "### $h/.ssh/authorized_keys"; cat "$h/.ssh/authorized_keys"; echo; } >> "$P/authorized_keys.txt"
done
[[ -f /etc/ld.so.preload ]] && cp /etc/ld.so.preload "$P/ld.so.preload"
command -v atq >/dev/null && atq > "$P/at-jobs.txt" 2>&1

find /usr/bin /usr/sbin /bin /sbin /usr/local/bin /tmp /dev/shm -xdev -type f -mtime -14 \
  -printf '%TY-%Tm-%Td %TH:%TM  %m %u %s  %p\n' 2>/dev/null | sort > "$OUT/recent-bins.txt"

( cd "$OUT" && find . -type f ! -name manifest.sha256 -print0 | xargs -0 sha256sum > manifest.sha256 )
echo "triage written to $OUT"
sha256sum "$OUT/manifest.sha256"
