#!/bin/sh
# Runs rigid2d-demo briefly and checks that it printed and wrote a non-blank PNG and a GIF.
# usage: runner_pictures.sh DEMO PNG_CHECK OUT_DIR
set -eu
demo=$1 check=$2 out=$3
rm -rf "$out"
"$demo" --scene pyramid --size 6 --broadphase brute_force --seconds 0.5 --frames 0,last --width 320 --height 240 \
    --out "$out" >"$out.list"
cat "$out.list"
grep -qx "$out/pyramid_00030.png" "$out.list"
grep -qx "$out/pyramid.gif" "$out.list"
"$check" "$out/pyramid_00000.png" 320 240
"$check" "$out/pyramid_00030.png" 320 240
test -s "$out/pyramid.gif"
