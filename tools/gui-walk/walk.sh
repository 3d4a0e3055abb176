#!/bin/sh
# SPDX-License-Identifier: MIT
# Look at files in the real memviz window (issue 30, step 5): starts an X server (Xvfb) with
# openbox, then walk.py opens the files ONE AFTER ANOTHER in the same window (the first from
# the command line, the others through File ▸ Open, Ctrl+O, typing the path), drives it with
# xdotool (zoom, pan, a Shift+drag selection, Esc, Home, every tab) and saves screenshots and a
# report (OUT_DIR/walk.tsv, OUT_DIR/walk.md). A looking tool, not a test: nothing here decides
# pass or fail except "the window opened the file"; you look at the PNGs.
#
#   tools/gui-walk/walk.sh [-b BUILD_DIR] OUT_DIR FILE...
#
# OUT_DIR should be outside git (e.g. /tmp/memviz-walk). Needs Xvfb, openbox, xdotool and
# ImageMagick (import, compare, convert); see docs/gui.md, "Looking at the window".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../../build"
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
[ $# -ge 2 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
out=$1
shift
memviz=$(cd "$build" && pwd)/app/memviz
[ -x "$memviz" ] || { echo "walk.sh: no $memviz; build the memviz target first" >&2; exit 2; }
for tool in Xvfb openbox xdotool import compare convert; do
    command -v "$tool" >/dev/null || { echo "walk.sh: $tool is not installed" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

# A display number of our own: Xvfb writes the one it picked to the pipe (-displayfd).
fifo="$out/.displayfd"
rm -f "$fifo"
mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 1400x1000x24 -nolisten tcp 3>"$fifo" >"$out/xvfb.log" 2>&1 &
xvfb=$!
read -r display <"$fifo"
rm -f "$fifo"
export DISPLAY=":$display"
cleanup() {
    [ -n "${wm:-}" ] && kill "$wm" 2>/dev/null
    kill "$xvfb" 2>/dev/null
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM
openbox >"$out/openbox.log" 2>&1 &
wm=$!
# openbox is ready when it owns the root window's _NET_SUPPORTING_WM_CHECK (no blind sleep).
i=0
until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do
    i=$((i + 1))
    [ $i -lt 100 ] || { echo "walk.sh: openbox did not start" >&2; exit 1; }
    sleep 0.1
done
python3 "$here/walk.py" --memviz "$memviz" --out "$out" "$@"
