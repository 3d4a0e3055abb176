#!/bin/sh
# SPDX-License-Identifier: MIT
# Times `memviz import` of a snapshot against Python's C unpickler reading the same file, and
# reports peak RSS of both. Benchmark, not a test; results go to docs/performance-snapshot.md.
#
#   tools/bench-snapshot/run_bench.sh BUILD_DIR SNAPSHOT.pickle [RUNS]
#
# WHOLE=1 also times memviz reading the whole value tree first (MEMVIZ_SNAPSHOT_STREAM=0, the
# import before it streamed). The load average is printed before each run.
# Generate inputs with make_big_snapshot.py (keep them out of the repository, e.g. in /tmp).
set -eu
build=$1
file=$2
runs=${3:-3}
python=${PYTHON:-/usr/bin/python3}
store=$(mktemp -u /tmp/memviz-bench-XXXXXX.memviz)
echo "file: $file ($(stat -c %s "$file") bytes)"
i=1
while [ "$i" -le "$runs" ]; do
    echo "run $i, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    if [ "${WHOLE:-0}" = 1 ]; then
        rm -f "$store" "$store-wal" "$store-shm"
        MEMVIZ_SNAPSHOT_STREAM=0 /usr/bin/time -f "memviz import (whole tree): %e s wall, %U s user, %S s sys, %M KB peak RSS" \
            "$build/app/memviz" import "$file" --db "$store" > /dev/null
    fi
    rm -f "$store" "$store-wal" "$store-shm"
    /usr/bin/time -f "memviz import: %e s wall, %U s user, %S s sys, %M KB peak RSS" "$build/app/memviz" import "$file" --db "$store" > /dev/null
    /usr/bin/time -f "python pickle.load: %e s wall, %U s user, %S s sys, %M KB peak RSS" "$python" -c \
        "import pickle,sys; pickle.load(open(sys.argv[1],'rb'))" "$file"
    i=$((i + 1))
done
echo "store: $(stat -c %s "$store") bytes"
rm -f "$store" "$store-wal" "$store-shm"
