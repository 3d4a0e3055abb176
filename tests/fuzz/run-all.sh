#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every fuzz target, one after another, SECONDS each (tests/fuzz/run.sh), and appends
# each run's executions, coverage, corpus size and findings to LOG (default:
# $FUZZ_WORK/run-all.log). ROUNDS (default 1) repeats the whole list; corpora carry over from
# run to run, so a long campaign is many rounds. A target that finds something stops early
# (libFuzzer stops at its first finding); the others go on.
#   tests/fuzz/run-all.sh SECONDS [LOG] [ROUNDS]
# For a campaign that outlives the shell (FUZZ_WORK: any folder with room for the corpora):
#   export FUZZ_WORK=${XDG_CACHE_HOME:-~/.cache}/memviz/fuzz-runs
#   mkdir -p "$FUZZ_WORK" && cd "$FUZZ_WORK" && \
#     nohup nice -n 19 /path/to/checkout/tests/fuzz/run-all.sh 14400 \
#     "$FUZZ_WORK/run-all.log" 1000 > run-all.out 2>&1 &
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ]; then echo "usage: $0 SECONDS [LOG] [ROUNDS]" >&2; exit 2; fi
seconds=$1
export FUZZ_WORK=${FUZZ_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/memviz/fuzz-runs}
log=${2:-$FUZZ_WORK/run-all.log}
rounds=${3:-1}
mkdir -p "$FUZZ_WORK"
for ((round = 1; round <= rounds; ++round)); do
  for target in $("$here/run.sh" --list); do
    echo "$(date -Is) round $round: $target for $seconds s" >> "$log"
    "$here/run.sh" "$target" "$seconds" >> "$log" 2>&1
  done
done
echo "$(date -Is) done: $rounds round(s)" >> "$log"
