#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# memviz ranks at 1,024 ranks on one machine (issue 55, docs/ranks.md "Scale"): generates N rank
# files of a few MB each (even ranks CUDA snapshots, tools/bench-snapshot/make_big_snapshot.py;
# odd ranks profiler traces, gen_chrome_trace; sizes and seeds vary so the peaks differ), writes
# the job folder with `memviz ranks --slurm --no-submit`, runs its array task script for every
# rank here (SLURM_ARRAY_TASK_ID set as Slurm would, J at a time) and the gather, then opens
# the gathered store in the Ranks window (bench_ranks_open, offscreen). Prints the task time per
# rank, the gather's time and peak memory, the ranks store's size per rank, and the window's
# open + first paint time and peak memory; figures.tsv in OUT_DIR.
#
#   bench/ranks/scale.sh [-b BUILD_DIR] [-n RANKS] [-j JOBS] OUT_DIR
#
# OUT_DIR needs about 5 GB for 1,024 ranks (files and their stores). Build first:
#   cmake --build BUILD_DIR --target memviz gen_chrome_trace bench_ranks_open
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../../build"
ranks=1024
jobs=2
while getopts "b:n:j:" o; do
    case $o in
        b) build=$OPTARG ;;
        n) ranks=$OPTARG ;;
        j) jobs=$OPTARG ;;
        *) sed -n '2,16p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
build=$(cd "$build" && pwd)
out=$1
memviz="$build/app/memviz"
for exe in "$memviz" "$build/bench/gen_chrome_trace" "$build/bench/bench_ranks_open"; do
    [ -x "$exe" ] || { echo "scale.sh: no $exe; build it first" >&2; exit 2; }
done
mkdir -p "$out/files"
out=$(cd "$out" && pwd)
files="$out/files"

echo "generating $ranks rank files in $files"
gen() { # rank
    local r=$1
    if [ $((r % 2)) -eq 0 ]; then
        [ -f "$files/rank${r}_snapshot.pickle" ] ||
            python3 "$here/../../tools/bench-snapshot/make_big_snapshot.py" "$files/rank${r}_snapshot.pickle" \
                --entries $((14000 + (r * 37) % 12000)) --seed "$r"
    else
        [ -f "$files/rank${r}.pt.trace.json" ] ||
            "$build/bench/gen_chrome_trace" $((3000 + (r * 53) % 3000)) "$files/rank${r}.pt.trace.json" "$r" >/dev/null
    fi
}
export -f gen
export files here build
seq 0 $((ranks - 1)) | xargs -P "$jobs" -I{} bash -c 'gen {}'
bytes=$(du -sb "$files" | cut -f1)

rm -rf "$out/stores" "$out/files/ranks-job" "$out/files/ranks.memviz"
"$memviz" ranks --slurm "$files" --store-dir "$out/stores" --no-submit >/dev/null
job="$files/ranks-job"

echo "running the $ranks array tasks here, $jobs at a time"
start=$(date +%s.%N)
seq 0 $((ranks - 1)) | xargs -P "$jobs" -I{} env SLURM_ARRAY_TASK_ID={} "$job/task.sh" >/dev/null
tasks_s=$(echo "$(date +%s.%N) - $start" | bc)

echo "gathering"
/usr/bin/time -f "%e %M" -o "$out/gather.time" "$memviz" ranks --gather "$job" >/dev/null
read -r gather_s gather_kb <"$out/gather.time"
store="$files/ranks.memviz"
store_bytes=$(stat -c %s "$store")
stores_bytes=$(du -sb "$out/stores" | cut -f1)

echo "opening it in the Ranks window"
open=$(QT_QPA_PLATFORM=offscreen "$build/bench/bench_ranks_open" "$store" "$out/ranks-window.png")
echo "$open"

per_task=$(echo "scale=3; $tasks_s * $jobs / $ranks" | bc)
{
    printf 'ranks\t%s\n' "$ranks"
    printf 'rank_files_mb\t%s\n' "$(echo "scale=1; $bytes / 1048576" | bc)"
    printf 'rank_stores_mb\t%s\n' "$(echo "scale=1; $stores_bytes / 1048576" | bc)"
    printf 'tasks_wall_s\t%s\t(%s at a time)\n' "$tasks_s" "$jobs"
    printf 'task_s_per_rank\t%s\n' "$per_task"
    printf 'gather_s\t%s\n' "$gather_s"
    printf 'gather_peak_rss_mb\t%s\n' "$(echo "scale=1; $gather_kb / 1024" | bc)"
    printf 'ranks_store_kb\t%s\n' "$(echo "scale=1; $store_bytes / 1024" | bc)"
    printf 'ranks_store_kb_per_rank\t%s\n' "$(echo "scale=1; $store_bytes / 1024 / $ranks" | bc)"
    printf 'window\t%s\n' "$open"
} | tee "$out/figures.tsv"
