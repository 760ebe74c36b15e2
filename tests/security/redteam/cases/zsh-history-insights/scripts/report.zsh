#!/usr/bin/env zsh
# report.zsh [DAYS] - summarise ~/.local/state/zsh-insights/log.tsv
days=${1:-7}
log=${XDG_STATE_HOME:-$HOME/.local/state}/zsh-insights/log.tsv
[[ -r $log ]] || { print "no data yet"; exit 0 }
since=$(( $(date +%s) - days * 86400 ))

print "== slowest (median seconds) =="
awk -F'\t' -v s=$since '$1>=s {split($4,a," "); d[a[1]]=d[a[1]] " " $3} END {for (k in d) {n=split(d[k],v," "); asort(v); print v[int((n+1)/2)], k}}' $log | sort -rn | head -10

print "\n== most failing (rate, runs>=5) =="
awk -F'\t' -v s=$since '$1>=s {split($4,a," "); r[a[1]]++; if ($2!=0) f[a[1]]++} END {for (k in r) if (r[k]>=5) printf "%.0f%% %s (%d)\n", 100*f[k]/r[k], k, r[k]}' $log | sort -rn | head -10

print "\n== most used =="
awk -F'\t' -v s=$since '$1>=s {split($4,a," "); c[a[1]]++} END {for (k in c) print c[k], k}' $log | sort -rn | head -15
