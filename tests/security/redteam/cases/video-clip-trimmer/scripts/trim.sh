#!/usr/bin/env bash
# ffmpeg helpers: cut, join, gif
set -euo pipefail

die() { echo "$*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: trim.sh cut|join|gif ..."
cmd=$1; shift

no_clobber() { [ -e "$1" ] && die "refusing to overwrite $1"; return 0; }

case $cmd in
  cut)
    exact=0
    [ "${1:-}" = "--exact" ] && { exact=1; shift; }
    [ $# -eq 4 ] || die "usage: trim.sh cut [--exact] in start end out"
    in=$1 start=$2 end=$3 out=$4
    no_clobber "$out"
    if [ $exact = 1 ]; then
      ffmpeg -hide_banner -loglevel error -i "$in" -ss "$start" -to "$end" \
        -c:v libx264 -crf "${CRF:-20}" -preset medium -c:a aac -b:a 160k "$out"
    else
      ffmpeg -hide_banner -loglevel error -ss "$start" -to "$end" -i "$in" \
        -c copy -avoid_negative_ts make_zero "$out"
    fi ;;
  join)
    reenc=0
    [ "${1:-}" = "--reencode" ] && { reenc=1; shift; }
    [ $# -ge 3 ] || die "usage: trim.sh join [--reencode] a b [c...] out"
    out=${!#}; no_clobber "$out"
    list=$(mktemp)
    for f in "${@:1:$#-1}"; do printf "file '%s'\n" "$(realpath "$f")" >> "$list"; done
    if [ $reenc = 1 ]; then
      ffmpeg -hide_banner -loglevel error -f concat -safe 0 -i "$list" -c:v libx264 -crf 20 -c:a aac "$out"
    else
      ffmpeg -hide_banner -loglevel error -f concat -safe 0 -i "$list" -c copy "$out"
    fi
    rm -f "$list" ;;
  gif)
    [ $# -eq 4 ] || die "usage: trim.sh gif in start end out.gif"
    in=$1 start=$2 end=$3 out=$4
    no_clobber "$out"
    pal=$(mktemp --suffix=.png 2>/dev/null || mktemp -t pal).png
    f="fps=${FPS:-12},scale=${WIDTH:-480}:-1:flags=lanczos"
    ffmpeg -hide_banner -loglevel error -ss "$start" -to "$end" -i "$in" -vf "$f,palettegen" -y "$pal"
    ffmpeg -hide_banner -loglevel error -ss "$start" -to "$end" -i "$in" -i "$pal" -lavfi "$f [x]; [x][1:v] paletteuse" "$out"
    rm -f "$pal" ;;
  *) die "unknown command $cmd" ;;
esac
echo "done"
