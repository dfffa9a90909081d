#!/usr/bin/env bash
# Lists the controls of every scene named on standard input at every size
# given, two at a time, on the X display already open (the Makefile's
# layout-test runs it inside one xvfb-run): OUT/<scene>@<WxH>.tsv beside
# its picture.
# Usage: list_layouts.sh BIN OUT SIZE... < scenes
set -euo pipefail
bin=$1 out=$2
shift 2
while read -r scene; do
    for size in "$@"; do echo "$scene $size"; done
done | xargs -P 2 -n 2 sh -c '
    name="$0@${1%@*}"
    "'"$bin"'" screenshot "$0" "'"$out"'/$name.png" --size "$1" --controls "'"$out"'/$name.tsv" > "'"$out"'/$name.log" 2>&1 \
        || { echo "$0 at $1 failed:"; tail -5 "'"$out"'/$name.log"; exit 255; }'
