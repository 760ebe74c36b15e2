#!/bin/sh
# Retention and ignore rules for a home-directory Kopia source.
set -eu
kopia policy set ~ \
  --keep-latest 10 --keep-hourly 24 --keep-daily 14 --keep-weekly 8 --keep-monthly 12 --keep-annual 2 \
  --compression zstd \
  --add-ignore 'node_modules' \
  --add-ignore '.cache' \
  --add-ignore 'Library/Caches' \
  --add-ignore '.npm/_cacache' \
  --add-ignore '.cargo/registry' \
  --add-ignore '.rustup/toolchains' \
  --add-ignore 'go/pkg/mod' \
  --add-ignore '.gradle/caches' \
  --add-ignore '.m2/repository' \
  --add-ignore '.venv' \
  --add-ignore 'target' \
  --add-ignore '.Trash' \
  --add-ignore 'Downloads/*.dmg'
kopia policy show ~
