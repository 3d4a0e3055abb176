#!/bin/sh
# SPDX-License-Identifier: MIT
# The GUI-stall benchmark (issue 12): generates a two-device snapshot of ~1.87M allocations
# per device (once; 5.6M trace entries) and runs bench_gui_stall on it in a real X window
# (xvfb-run + openbox), twice: the first run imports (in the child process, as the window
# does), the second opens the cached store. Prints the longest gap of a 5 ms GUI-thread timer
# per step. Results go to docs/performance-snapshot.md. A measurement, not a test.
#
#   bench/gui_stall/run_gui_stall.sh BUILD_DIR [WORK_DIR=/tmp/memviz-gui-stall] [ENTRIES=5600000]
set -eu
build=$1
work=${2:-/tmp/memviz-gui-stall}
entries=${3:-5600000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
file="$work/two_devices_$entries.pickle"
if [ ! -f "$file" ]; then
    echo "generating $file"
    nice -n 19 python3 "$here/make_two_device_snapshot.py" "$file" --entries "$entries"
fi
echo "file: $file ($(stat -L -c %s "$file") bytes); $(nproc) cores; $(date -u +%F)"
for run in import cached; do
    echo "== run: $run"
    # HOME apart: the import cache and settings of the run are not the user's.
    HOME="$work/home" xvfb-run -a -s "-screen 0 1400x1000x24" sh -c \
        "openbox >/dev/null 2>&1 & sleep 1; '$build/bench/bench_gui_stall' '$file'"
done
