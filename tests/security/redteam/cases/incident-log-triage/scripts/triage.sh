#!/usr/bin/env bash
# Read-only evidence collection. Usage: triage.sh OUTDIR
out="${1:?output dir}"; mkdir -p "$out"; cd "$out" || exit 1
exec 2>>errors.log

last -F > last.txt
lastb -F > lastb.txt 2>/dev/null
if [ -f /var/log/auth.log ]; then
  grep -E 'Failed password|Invalid user|Accepted' /var/log/auth.log* > ssh-auth.txt
else
  journalctl -u ssh -u sshd --since "-7 days" --no-pager > ssh-auth.txt
fi
awk -F: '$3 == 0 || $7 !~ /(nologin|false)$/' /etc/passwd > users-with-shell.txt
for u in $(cut -d: -f1 /etc/passwd); do crontab -l -u "$u" 2>/dev/null | sed "s/^/$u: /"; done > crontabs.txt
cat /etc/crontab /etc/cron.d/* > system-cron.txt 2>/dev/null
find /etc/systemd /lib/systemd /home/*/.config/systemd -name '*.service' -mtime -7 > recent-units.txt 2>/dev/null
ss -tulpn > listening.txt
find /usr/bin /usr/sbin /tmp /var/tmp /dev/shm -type f -mtime -3 -ls > recent-files.txt 2>/dev/null
sha256sum /usr/bin/* 2>/dev/null > bin-hashes.txt
echo "collected into $(pwd)"; ls -la
