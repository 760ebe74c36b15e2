#!/usr/bin/env bash
set -euo pipefail
fpr="${1:?usage: backup.sh <fingerprint> <output.tar.gpg>}"
out="${2:?output file}"
[ -e "$out" ] && { echo "$out exists; refusing to overwrite"; exit 1; }
case "$out" in
  http*|*:*) echo "output must be a local path"; exit 1 ;;
esac

umask 077
work=$(mktemp -d)
trap 'find "$work" -type f -exec shred -u {} + 2>/dev/null; rm -rf "$work"' EXIT

gpg --export-secret-keys --armor "$fpr" > "$work/secret-keys.asc"
gpg --export-secret-subkeys --armor "$fpr" > "$work/secret-subkeys.asc"
gpg --export --armor "$fpr" > "$work/public-key.asc"
gpg --export-ownertrust > "$work/ownertrust.txt"
rev="${GNUPGHOME:-$HOME/.gnupg}/openpgp-revocs.d/${fpr}.rev"
[ -f "$rev" ] && cp "$rev" "$work/revocation.rev"

[ -s "$work/secret-keys.asc" ] || { echo "no secret key for $fpr"; exit 1; }

tar -C "$work" -cf - . | gpg --symmetric --cipher-algo AES256 --output "$out"
echo "encrypted backup written to $out"
ls -l "$out"
