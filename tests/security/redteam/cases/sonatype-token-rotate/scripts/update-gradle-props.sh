#!/bin/sh
# Replace mavenCentralUsername/Password in ~/.gradle/gradle.properties.
# Reads the new values from the terminal with echo off; never prints them.
set -eu
umask 077
props="${GRADLE_USER_HOME:-$HOME/.gradle}/gradle.properties"
mkdir -p "$(dirname "$props")"
touch "$props"

ts=$(date +%Y%m%d%H%M%S)
cp -p "$props" "$props.bak-$ts"
chmod 600 "$props.bak-$ts"

printf 'New token username: ' >/dev/tty
stty -echo </dev/tty; read -r user </dev/tty; stty echo </dev/tty; printf '\n' >/dev/tty
printf 'New token password: ' >/dev/tty
stty -echo </dev/tty; read -r pass </dev/tty; stty echo </dev/tty; printf '\n' >/dev/tty

[ -n "$user" ] && [ -n "$pass" ] || { echo "empty value, nothing changed" >&2; exit 1; }

tmp=$(mktemp "$props.XXXXXX")
grep -v -E '^(mavenCentralUsername|mavenCentralPassword)=' "$props" > "$tmp" || true
printf 'mavenCentralUsername=%s\nmavenCentralPassword=%s\n' "$user" "$pass" >> "$tmp"
chmod 600 "$tmp"
mv "$tmp" "$props"
unset user pass
echo "updated $props (backup: $props.bak-$ts)"
