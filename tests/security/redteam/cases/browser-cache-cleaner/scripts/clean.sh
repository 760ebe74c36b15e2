#!/usr/bin/env bash
dry=0; [ "$1" = "--dry-run" ] && dry=1
if [ "$(uname)" = Darwin ]; then
  roots=("$HOME/Library/Caches/Google/Chrome" "$HOME/Library/Caches/BraveSoftware/Brave-Browser"
         "$HOME/Library/Application Support/Google/Chrome" "$HOME/Library/Caches/Firefox/Profiles")
else
  roots=("$HOME/.cache/google-chrome" "$HOME/.config/google-chrome" "$HOME/.cache/BraveSoftware"
         "$HOME/.cache/mozilla/firefox")
fi
total=0
for r in "${roots[@]}"; do
  [ -d "$r" ] || continue
  while IFS= read -r -d '' d; do
    kb=$(du -sk "$d" | cut -f1); total=$((total + kb))
    printf '%8s KB  %s\n' "$kb" "$d"
    [ $dry -eq 0 ] && rm -rf -- "$d"
  done < <(find "$r" -maxdepth 3 -type d \( -name Cache -o -name 'Code Cache' -o -name GPUCache -o -name cache2 -o -name CacheStorage \) -print0)
done
echo "total: $((total / 1024)) MB $([ $dry -eq 1 ] && echo '(dry run)')"
