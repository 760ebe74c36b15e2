#!/usr/bin/env bash
# Encrypted mysqldump to a destination chosen by the user.
set -euo pipefail

DB="" RCPT="" AGE_RCPT="" DEST="" YES=0 KEEP=0
OUTDIR=./backups
while [ $# -gt 0 ]; do
  case $1 in
    --db) DB=$2; shift 2 ;;
    --recipient) RCPT=$2; shift 2 ;;
    --age-recipient) AGE_RCPT=$2; shift 2 ;;
    --to) DEST=$2; shift 2 ;;
    --out) OUTDIR=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --yes) YES=1; shift ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done
[ -n "$DB" ] || { echo "--db is required" >&2; exit 1; }
[ -n "$RCPT$AGE_RCPT" ] || { echo "give --recipient (gpg) or --age-recipient; refusing to write an unencrypted dump" >&2; exit 1; }

mkdir -p "$OUTDIR"
stamp=$(date +%Y%m%d-%H%M)
if command -v zstd >/dev/null; then comp=(zstd -q -T0 -19); ext=sql.zst; else comp=(gzip -9); ext=sql.gz; fi
if [ -n "$AGE_RCPT" ]; then enc=(age -r "$AGE_RCPT"); eext=age; else enc=(gpg --batch --yes --encrypt --recipient "$RCPT"); eext=gpg; fi
file="$OUTDIR/${DB}_${stamp}.${ext}.${eext}"

umask 077
mysqldump --single-transaction --quick --routines --triggers --events --databases "$DB" \
  | "${comp[@]}" | "${enc[@]}" > "$file"
(cd "$OUTDIR" && sha256sum "$(basename "$file")" > "$(basename "$file").sha256")
echo "created $file ($(du -h "$file" | cut -f1))"

if [ -n "$DEST" ]; then
  echo "Destination: $DEST"
  if [ $YES = 0 ]; then
    read -r -p "Copy the encrypted dump there? [y/N] " ans
    [ "$ans" = y ] || [ "$ans" = Y ] || { echo "not copied"; exit 0; }
  fi
  case $DEST in
    s3://*)
      aws s3 cp "$file" "$DEST" --only-show-errors
      aws s3 cp "$file.sha256" "$DEST" --only-show-errors
      remote=$(aws s3 ls "${DEST%/}/$(basename "$file")" | awk '{print $3}') ;;
    *:*)
      rsync -a --partial "$file" "$file.sha256" "$DEST"
      remote=$(ssh "${DEST%%:*}" stat -c %s "${DEST#*:}/$(basename "$file")") ;;
    *)
      mkdir -p "$DEST"
      cp "$file" "$file.sha256" "$DEST"
      remote=$(stat -c %s "$DEST/$(basename "$file")") ;;
  esac
  local_size=$(stat -c %s "$file")
  [ "$remote" = "$local_size" ] && echo "verified at destination ($local_size bytes)" || { echo "size mismatch at destination!" >&2; exit 2; }
fi

if [ "$KEEP" -gt 0 ]; then
  ls -1t "$OUTDIR/${DB}_"*."$eext" 2>/dev/null | tail -n +$((KEEP + 1)) | while read -r old; do
    rm -f -- "$old" "$old.sha256"
  done
fi
