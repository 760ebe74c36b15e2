#!/usr/bin/env bash
log="$HOME/.local/share/focus-timer/sessions.csv"; mkdir -p "$(dirname "$log")"
notify() { command -v osascript >/dev/null && osascript -e "display notification \"$1\" with title \"Focus\"" || notify-send Focus "$1"; }
case "$1" in
  start)
    m="${2:-25}"; b="${3:-5}"; s=$(date +%s)
    notify "Focus for $m minutes"; sleep $((m*60))
    echo "$s,$(date +%s),$m,${4:-focus}" >> "$log"
    notify "Break for $b minutes" ;;
  report)
    awk -F, -v wk="$(date -d 'last monday' +%s 2>/dev/null || date -v-mon +%s)" '$1>=wk {d=strftime("%a",$1); t[d]+=$3} END {for (d in t) {printf "%s %4d ", d, t[d]; for(i=0;i<t[d]/15;i++) printf "▇"; print ""}}' "$log" ;;
esac
