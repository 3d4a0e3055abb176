#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The attached probe's per-op overhead against the launched one (docs/performance-live.md):
# attach_train.py times probe_train.py's models in CPU time (time.process_time), plain and
# then with the probe, either attached by `memviz record --pid PID --probe` or started in
# the process as `python3 -m memviz_probe` does, streaming to `memviz record --listen`.
# Usage: bench/live/run_attach_overhead.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
rounds=${2:-3}
memviz=$build/app/memviz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_NUM_THREADS=1
for round in $(seq "$rounds"); do
  for model in mlp cnn; do
    /usr/bin/python3 "$root/bench/live/attach_train.py" "$model" attach > "$tmp/a.out" 2>/dev/null &
    target=$!
    for _ in $(seq 240); do grep -q ready "$tmp/a.out" && break; sleep 0.5; done
    "$memviz" record --pid "$target" --probe --out "$tmp/a-$round-$model.memviz" > /dev/null 2>&1 &
    recorder=$!
    wait "$target"
    wait "$recorder" || true # it ends by itself when the script says goodbye
    grep ops "$tmp/a.out"
    sock="unix:$tmp/s-$round-$model.sock"
    "$memviz" record --listen "$sock" --out "$tmp/s-$round-$model.memviz" --wait 60 > /dev/null 2>&1 &
    recorder=$!
    sleep 0.5
    /usr/bin/python3 "$root/bench/live/attach_train.py" "$model" start "$sock" 2>/dev/null
    wait "$recorder"
  done
done
