#!/usr/bin/env bash
# Counts the library's public declarations by folder (Sources/MovieMakerCore/<folder> and
# Sources/MovieMaker/<folder>: the two targets users import as `MovieMaker`), and in all: every
# `public` or `open` declaration (a type, function, property, initialiser, case list or extension
# member), `@_spi` ones counted apart. A rough census from the source text, to keep the public surface
# a decision: test and benchmark hooks use `package` access instead.
# usage: scripts/public-api.sh [source folder…]
set -euo pipefail
roots=("$@"); [ ${#roots[@]} -gt 0 ] || roots=(Sources/MovieMakerCore Sources/MovieMaker)
total=0; spi=0
printf '%-28s %6s %6s\n' folder public spi
for folder in $(for root in "${roots[@]}"; do find "$root" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort; done); do
    count=$(grep -rhE '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(public|open)\s' "$folder" --include='*.swift' | grep -vcE '^\s*public\s+import\s' || true)
    spis=$( (grep -rhE '^\s*@_spi\([A-Za-z]+\)\s+(public|open)\s' "$folder" --include='*.swift' || true) | wc -l)
    printf '%-28s %6d %6d\n' "${folder#Sources/}" "$count" "$spis"
    total=$((total + count)); spi=$((spi + spis))
done
printf '%-28s %6d %6d\n' total "$total" "$spi"
