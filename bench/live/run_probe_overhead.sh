#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the probe's overhead on a small CPU training loop (docs/performance-live.md):
# plain, probe with nobody listening, probe in op and module mode streaming to
# `memviz record --listen`. Usage: bench/live/run_probe_overhead.sh [BUILD_DIR] [STEPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
steps=${2:-300}
memviz=$build/app/memviz
python=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PYTHONPATH=$root/python/memviz_probe OMP_NUM_THREADS=1
run() { "$python" "$root/bench/live/probe_train.py" --steps "$steps" "$@"; }

echo "| model | configuration | aten ops/step | median step (ms) | mean step (ms) |"
echo "|---|---|---|---|---|"
for model in mlp cnn; do
  for round in 1 2; do # the best of two rounds per configuration, against machine noise
    for config in plain absent op module; do
      case $config in
        plain) line=$(run --model "$model") ;;
        absent) line=$(run --model "$model" --probe op --connect "unix:$tmp/nobody.sock" 2>/dev/null) ;;
        *)
          sock="unix:$tmp/$config-$model-$round.sock"
          "$memviz" record --listen "$sock" --out "$tmp/$config-$model-$round.memviz" --wait 60 >/dev/null 2>&1 &
          pid=$!
          sleep 0.5
          line=$(run --model "$model" --probe "$config" --connect "$sock")
          wait $pid
          ;;
      esac
      case $config in plain) rank=1 ;; absent) rank=2 ;; module) rank=3 ;; op) rank=4 ;; esac
      echo "$round $rank$config $line"
    done
  done
done | sort -k3,3r -k2,2 -k6,6n | awk '
  { sub(/^[0-9]/, "", $2); key = $3 " " $2; if (!(key in best)) { best[key] = $0; order[n++] = key } }
  END {
    names["plain"] = "no probe"; names["absent"] = "probe, memviz not listening";
    names["op"] = "probe, op mode, streaming"; names["module"] = "probe, module mode, streaming";
    for (i = 0; i < n; ++i) { split(best[order[i]], f, " ");
      printf "| %s | %s | %s | %s | %s |\n", f[3], names[f[2]], f[5], f[6], f[7] } }'
