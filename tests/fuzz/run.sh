#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one fuzz target under libFuzzer with AddressSanitizer + UndefinedBehaviorSanitizer.
#   tests/fuzz/run.sh TARGET SECONDS       (tests/fuzz/run.sh --list: the targets)
# Builds the fuzz build folder when needed (clang; -DMEMVIZ_FUZZ=ON), then fuzzes for SECONDS
# with the format's dictionary and its seed corpora (corpora.txt, plus small valid cuts of the
# shared fixtures made by make_seeds.py). Findings (crash, hang > 10 s, more than 2 GB, a
# sanitizer report) are written to $FUZZ_WORK/TARGET/findings/. The last line printed, also
# appended to $FUZZ_WORK/summary.log, is the run's executions, coverage and corpus size.
# Environment: FUZZ_WORK (default: ${XDG_CACHE_HOME:-~/.cache}/memviz/fuzz-runs, outside the repository),
# FUZZ_BUILD (default: build-fuzz), FUZZ_NO_BUILD=1 (use the programs in FUZZ_BUILD as they
# are), FUZZ_FIXTURES (default: ../shared/fixtures), FUZZ_NICE (default 19), FUZZ_ARGS (more
# libFuzzer flags).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/fuzz"

targets="alloclog_csv alloclog_jsonl chrome_trace memtimeline_raw memtimeline_json pickle snapshot heaptrack
heaptrack_raw heaptrack_live massif probe oom_message model_spec safetensors_header hf_config input_file sniff_import budgets store_chunks
slurm_output"
if [ "${1:-}" = "--list" ]; then echo $targets | tr ' ' '\n'; exit 0; fi
if [ $# -ne 2 ]; then echo "usage: $0 TARGET SECONDS | --list" >&2; exit 2; fi
target=$1
seconds=$2
case " $(echo $targets) " in *" $target "*) ;; *) echo "no fuzz target named $target ($0 --list)" >&2; exit 2 ;; esac

# Per format: the longest input (real files are larger, but a parser's states show in the
# first tens of KiB and short inputs run many times faster) and the dictionaries.
case $target in
  alloclog_csv)     max_len=16384;  dicts="alloclog_csv" ;;
  alloclog_jsonl)   max_len=16384;  dicts="alloclog_jsonl json" ;;
  chrome_trace)     max_len=65536;  dicts="chrome_trace json" ;;
  memtimeline_raw|memtimeline_json) max_len=32768; dicts="memtimeline json" ;;
  pickle)           max_len=65536;  dicts="pickle" ;;
  snapshot)         max_len=131072; dicts="pickle" ;;
  heaptrack)        max_len=32768;  dicts="heaptrack" ;;
  heaptrack_raw)    max_len=16384;  dicts="heaptrack_raw" ;;
  heaptrack_live)   max_len=32768;  dicts="heaptrack" ;;
  massif)           max_len=32768;  dicts="massif" ;;
  probe)            max_len=16384;  dicts="probe json" ;;
  oom_message)      max_len=8192;   dicts="oom_message" ;;
  model_spec)       max_len=16384;  dicts="model_spec json" ;;
  safetensors_header) max_len=65536; dicts="safetensors json" ;;
  hf_config)        max_len=16384;  dicts="hf_config json" ;;
  input_file)       max_len=65536;  dicts="input_file" ;;
  budgets)          max_len=4096;   dicts="json" ;;
  store_chunks)     max_len=65536;  dicts="store_chunks" ;;
  slurm_output)     max_len=16384;  dicts="slurm_output" ;;
  sniff_import)     max_len=65536;  dicts="alloclog_csv alloclog_jsonl chrome_trace memtimeline json pickle heaptrack massif input_file" ;;
esac

work=${FUZZ_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/memviz/fuzz-runs}
build=${FUZZ_BUILD:-$root/build-fuzz}
case $build in /*) ;; *) build="$root/$build" ;; esac
fixtures=${FUZZ_FIXTURES:-$(cd "$root/.." && pwd)/shared/fixtures}
mkdir -p "$work/$target/corpus" "$work/$target/findings"

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DMEMVIZ_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  fi
  if ! nice -n "${FUZZ_NICE:-19}" cmake --build "$build" --target "fuzz_$target" >"$work/$target/build.log" 2>&1; then
    # Said in the summary like a run, so that a round of run-all.sh does not pass over it.
    line="$(date -Is) $target seconds=0 build failed: $work/$target/build.log"
    echo "$line" >> "$work/summary.log"; echo "$line"
    exit 3
  fi
fi

# Fixture cuts, once (they depend only on the fixtures).
if [ -d "$fixtures" ] && [ ! -f "$work/fixture-seeds/.done" ]; then
  rm -rf "$work/fixture-seeds"
  python3 "$here/make_seeds.py" fixtures "$work/fixture-seeds" "$fixtures"
  touch "$work/fixture-seeds/.done"
fi

seeds=()
while read -r t path; do
  [ "$t" = "$target" ] || continue
  path=${path/\$FIXTURES/$fixtures}
  case $path in /*) ;; *) path="$root/$path" ;; esac
  if [ -d "$path" ]; then seeds+=("$path"); elif [ -f "$path" ]; then
    mkdir -p "$work/$target/seed-files"; cp -f "$path" "$work/$target/seed-files/"; fi
done < <(grep -E '^[a-z]' "$here/corpora.txt")
[ -d "$work/$target/seed-files" ] && seeds+=("$work/$target/seed-files")
[ -d "$work/fixture-seeds/$target" ] && seeds+=("$work/fixture-seeds/$target")
[ -d "$root/tests/data/fuzz-regressions/$target" ] && seeds+=("$root/tests/data/fuzz-regressions/$target")

dict="$work/$target/$target.dict"
for d in $dicts; do cat "$here/dict/$d.dict"; done > "$dict"

log="$work/$target/fuzz-$(date +%Y%m%d-%H%M%S).log"
export ASAN_OPTIONS=${ASAN_OPTIONS:-"abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-"halt_on_error=1:print_stacktrace=1"}
status=0
# shellcheck disable=SC2086
nice -n "${FUZZ_NICE:-19}" "$build/tests/fuzz/fuzz_$target" \
  -max_len=$max_len -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_total_time="$seconds" \
  -dict="$dict" -artifact_prefix="$work/$target/findings/" -print_final_stats=1 -reload=0 \
  ${FUZZ_ARGS:-} "$work/$target/corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?

execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
corpus=$(ls "$work/$target/corpus" | wc -l)
findings=$(ls "$work/$target/findings" | wc -l)
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
line="$(date -Is) $target seconds=$seconds execs=${execs:-?} exec/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=$corpus peak_rss_mb=${rss:-?} findings=$findings exit=$status log=$log"
echo "$line" >> "$work/summary.log"
echo "$line"
exit $status
