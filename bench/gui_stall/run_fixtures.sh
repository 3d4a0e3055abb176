#!/bin/sh
# SPDX-License-Identifier: MIT
# The GUI-stall benchmark over every kind of file memviz opens (issue 12): runs bench_gui_stall
# on each file given (or, by default, the real third-party fixtures in ../shared/fixtures, the
# bundled sample and the native test recordings), in a real X window (xvfb-run + openbox), and
# prints one line per file: the longest GUI-thread gap and the step it happened in. The full
# per-step tables go to WORK/NAME.txt. A measurement, not a test.
#
#   bench/gui_stall/run_fixtures.sh BUILD_DIR [WORK_DIR=/tmp/memviz-gui-fixtures] [FILE...]
set -eu
build=$(cd "$1" && pwd)
shift
work=${1:-/tmp/memviz-gui-fixtures}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
fixtures=${MEMVIZ_SHARED_FIXTURES:-$repo/../shared/fixtures}
mkdir -p "$work"
if [ $# -eq 0 ]; then
    set -- "$repo"/resources/sample/sample_training_step.csv.gz \
        "$fixtures"/pytorch-profiler/*.pt.trace.json.gz \
        "$fixtures"/pytorch-memory-timeline/*.raw.json.gz \
        "$fixtures"/pytorch-snapshot/*.pickle \
        "$repo"/tests/data/native/heaptrack/v3_all_records.zst \
        "$repo"/tests/data/native/massif/time_B.massif
fi
echo "$(nproc) cores; $(date -u '+%F %H:%M') UTC; load $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$@"; do
    [ -e "$f" ] || { echo "missing: $f" >&2; continue; }
    name=$(basename "$f")
    # HOME apart: each file is imported afresh (no cache) and the settings are not the user's.
    rm -rf "$work/home"
    HOME="$work/home" xvfb-run -a -s "-screen 0 1400x1000x24" sh -c \
        "openbox >/dev/null 2>&1 & sleep 1; '$build/bench/bench_gui_stall' --dwell-ms 400 '$f'" >"$work/$name.txt" 2>"$work/$name.err" || true
    echo "$name: $(grep '^longest:' "$work/$name.txt" || echo 'no result, see '"$work/$name.err")"
done
