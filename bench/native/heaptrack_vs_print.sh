#!/bin/sh
# SPDX-License-Identifier: MIT
# Times memviz's import of a heaptrack recording (including writing the .memviz database)
# against heaptrack_print's analysis of the same file. Not a test: run it by hand and put
# the numbers, the machine and the date into docs/performance-native.md.
#
#   bench/native/heaptrack_vs_print.sh [BUILD_DIR] [RUNS] [RECORDING]
# Without RECORDING it records alloc_storm.c (synthetic: few distinct stacks); the real-world
# recordings come from bench/native/record_real.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build"}
runs=${2:-5}
memviz="$build/app/memviz"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

recording=${3:-}
if [ -z "$recording" ]; then
    cc -O1 -g -fno-omit-frame-pointer -o "$work/alloc_storm" "$here/alloc_storm.c"
    heaptrack -o "$work/rec" "$work/alloc_storm" >/dev/null 2>&1
    recording=$(ls "$work"/rec.*)
fi
echo "recording: $(du -h "$recording" | cut -f1) $(basename "$recording")"
heaptrack_print "$recording" | grep -E '^(calls to allocation functions|temporary memory allocations|peak heap memory consumption|total memory leaked)'

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Appends "wall cpu" seconds and the peak RSS in MB of one run of the command to the file $1.
timed() {
    out=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null
    awk '{ printf "%.3f %.3f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/time" >>"$out"
}

: >"$work/print.times"
: >"$work/import.times"
i=0
while [ "$i" -lt "$runs" ]; do
    timed "$work/print.times" heaptrack_print "$recording"
    rm -f "$work/out.memviz"*
    timed "$work/import.times" "$memviz" import "$recording" --db "$work/out.memviz"
    i=$((i + 1))
done
best() { sort -n | head -1; }
for what in print import; do
    wall=$(cut -d' ' -f1 <"$work/$what.times" | median)
    cpu=$(cut -d' ' -f2 <"$work/$what.times" | median)
    bestwall=$(cut -d' ' -f1 <"$work/$what.times" | best)
    rss=$(cut -d' ' -f3 <"$work/$what.times" | median)
    eval "${what}_wall=$wall ${what}_cpu=$cpu ${what}_best=$bestwall ${what}_rss=$rss"
    echo "$what runs (wall cpu rss_mb): $(tr '\n' ',' <"$work/$what.times") median wall ${wall} s, cpu ${cpu} s, best wall ${bestwall} s, peak RSS ${rss} MB"
done
ratio() { echo "scale=3; $1 / $2" | bc; }
echo "ratio memviz / heaptrack_print: median wall $(ratio "$import_wall" "$print_wall"), best wall $(ratio "$import_best" "$print_best"), median cpu $(ratio "$import_cpu" "$print_cpu")"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "peak RSS ratio memviz / heaptrack_print: $(ratio "$import_rss" "$print_rss")"
echo "database: $(du -h "$work/out.memviz" | cut -f1), $(ratio "$(stat -c %s "$work/out.memviz")" "$(stat -c %s "$recording")") × the recording"
"$memviz" summary "$work/out.memviz"
