#!/bin/sh
# Runs rigid2d-viewer for a few frames under Xvfb and checks its screenshot. Exits 77 (reported
# by CTest as skipped) when xvfb-run is not installed.
# usage: viewer_screenshot.sh VIEWER PNG_CHECK OUT_PNG
set -u
viewer=$1 check=$2 out=$3
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xvfb-run not found: viewer screenshot test skipped"
    exit 77
fi
rm -f "$out"
# The software renderer: no GPU or GL driver is needed under Xvfb.
SDL_RENDER_DRIVER=software xvfb-run -a -s "-screen 0 800x600x24" \
    "$viewer" --scene pyramid --size 8 --broadphase brute_force --frames 20 --screenshot "$out" --width 640 --height 480 ||
    exit 1
"$check" "$out" 640 480
