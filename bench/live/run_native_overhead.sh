#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The slowdown of a program under heaptrack, recorded by `heaptrack` itself and by
# `memviz record --native` (docs/performance-live.md): native_churn.cpp (2 million
# allocations and frees from four call sites) is timed plain, under `heaptrack -o`, and under
# `memviz record --native`, ROUNDS times each, interleaved; it prints each run's own wall
# time (the program measures itself, from main to its end) and the whole command's wall
# time (start-up and, for memviz, the import of the finished file included).
# Usage: bench/live/run_native_overhead.sh [BUILD_DIR] [ROUNDS] [WORK]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
rounds=${2:-3}
work=${3:-200}
memviz=$build/app/memviz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O2 -g -o "$tmp/churn" "$root/bench/live/native_churn.cpp"
now() { date +%s.%N; }
printf "%-10s %-6s %12s %12s\n" mode round program_ms command_s
for round in $(seq "$rounds"); do
  for mode in plain heaptrack memviz; do
    t0=$(now)
    case $mode in
      plain) out=$("$tmp/churn" "$work") ;;
      heaptrack) out=$(heaptrack -o "$tmp/ht-$round" "$tmp/churn" "$work" 2>/dev/null | grep " ms (checksum") ;;
      memviz) out=$("$memviz" record --native --out "$tmp/m-$round.memviz" -- "$tmp/churn" "$work" 2>/dev/null | grep " ms (checksum") ;;
    esac
    t1=$(now)
    printf "%-10s %-6s %12s %12.2f\n" "$mode" "$round" "${out%% ms*}" "$(echo "$t1 - $t0" | bc)"
  done
done
