#!/bin/bash
# SPDX-License-Identifier: MIT
# memviz against its peers, side by side, in one run (issue 33). Benchmark, not a test.
#
# Builds memviz and the generators (cmake, RelWithDebInfo, into its own build folder), records or
# generates the inputs once (kept outside the repository), then for each input runs `memviz
# import` and each peer ALTERNATING, RUNS times (each run starting with the next tool), timed by timed.py, and writes one markdown
# table (median/min/max wall, CPU, peak RSS, the ratio memviz/peer, the load average beside each
# row, the date and the machine) to docs/performance.md between the markers
# "<!-- peers-table:begin -->" and "<!-- peers-table:end -->" (and to DATA/peers-DATE.md).
#
#   bench/peers/run.sh [options]
#     --runs N         runs per tool and input (default 5)
#     --quick          3 runs, and only the small inputs (no 1 GB/3 GB snapshot, 1M-event log)
#     --big            also the 3 GB snapshot (generating it takes ~15 GB of memory and
#                      `pickle.load` of it as much again: only on a machine that has it)
#     --only LIST      comma-separated kinds: heaptrack,massif,profiler,snapshot,alloclog
#     --data DIR       where the inputs are kept (default: ${XDG_CACHE_HOME:-~/.cache}/memviz/bench-data)
#     --fixtures DIR   the real fixtures (default: ../shared/fixtures beside the checkout)
#     --build DIR      build folder (default: build-peers in the checkout)
#     --no-build       use the build folder as it is
#     --no-doc         do not touch docs/performance.md (the table still goes to DATA)
#     --baseline DIR   also time DIR/app/memviz (another build, e.g. main before a change) on every
#                      input, alternating with the others: its row's ratio is memviz / baseline
#     --beside-build   every run beside a concurrent build of memviz (`cmake --build -j1` in a
#                      scratch folder, started over when it ends) in its own session, as a
#                      developer's build in another terminal: the table says so
#
# Peers: heaptrack recordings (bench/native/record_real.sh) against `heaptrack_print`; massif
# files (valgrind --tool=massif of deep_stacks and of Python) against `ms_print`; profiler
# traces (the fixtures and a generated 240 MB one) against `json.load` under /usr/bin/python3
# (Debian's PyTorch 1.13 has no reader of its own for them); CUDA snapshots (80 MB, 1 GB and,
# with --big, 3 GB from tools/bench-snapshot/make_big_snapshot.py, and the fixtures) against
# `pickle.load` and torch.cuda._memory_viz's segment flame graph preparation (peers.py; the
# unpickler's find_class refuses every global, nothing is executed); the 10M-event allocation
# log alone (events per second).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
runs=5
quick=0
big=0
only=heaptrack,massif,profiler,snapshot,alloclog
data="${XDG_CACHE_HOME:-$HOME/.cache}/memviz/bench-data"
fixtures="$repo/../shared/fixtures"
build="$repo/build-peers"
dobuild=1
doc=1
python=/usr/bin/python3
baseline=
beside=0
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift ;;
    --quick) quick=1; runs=3 ;;
    --big) big=1 ;;
    --only) only=$2; shift ;;
    --data) data=$2; shift ;;
    --fixtures) fixtures=$2; shift ;;
    --build) build=$2; shift ;;
    --no-build) dobuild=0 ;;
    --no-doc) doc=0 ;;
    --baseline) baseline=$2; shift ;;
    --beside-build) beside=1 ;;
    -h | --help) sed -n '3,36p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
mkdir -p "$data"
data=$(cd "$data" && pwd)
log() { echo "[$(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)] $*" >&2; }

# --- build ---------------------------------------------------------------------------------------
if [ "$dobuild" = 1 ]; then
    log "building into $build"
    [ -f "$build/CMakeCache.txt" ] || cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    nice cmake --build "$build" -j"$(nproc)" --target memviz gen_alloclog gen_chrome_trace >/dev/null
fi
[ -x "$build/app/memviz" ] || { echo "no $build/app/memviz" >&2; exit 1; }
[ -z "$baseline" ] || [ -x "$baseline/app/memviz" ] || { echo "no $baseline/app/memviz" >&2; exit 1; }
work=$(mktemp -d)
busy=
stop_busy() { [ -z "$busy" ] || kill -- -"$busy" 2>/dev/null || true; }
trap 'stop_busy; rm -rf "$work"' EXIT
# The binaries are copied, so that a rebuild while the benchmark runs does not change them.
cp "$build/app/memviz" "$work/memviz"
memviz="$work/memviz"
[ -z "$baseline" ] || cp "$baseline/app/memviz" "$work/memviz-baseline"

# --- inputs: "kind|label|file|events" lines ------------------------------------------------------
inputs=()
add() { inputs+=("$1|$2|$3|${4:-}"); }
if wants heaptrack; then
    if [ ! -f "$data/heaptrack/cnn.zst" ] || [ ! -f "$data/heaptrack/deep.zst" ]; then
        log "recording heaptrack inputs"
        "$repo/bench/native/record_real.sh" "$data/heaptrack" >&2
    fi
    add heaptrack "cnn.zst (PyTorch CNN training, real)" "$data/heaptrack/cnn.zst"
    add heaptrack "deep.zst (deep C++ stacks, real)" "$data/heaptrack/deep.zst"
fi
if wants massif; then
    mkdir -p "$data/massif"
    if [ ! -f "$data/massif/deep.massif" ]; then
        log "recording massif inputs"
        mkdir -p "$data/heaptrack"
        [ -x "$data/heaptrack/deep_stacks" ] || c++ -std=c++20 -O1 -g -fno-omit-frame-pointer -fno-inline \
            -o "$data/heaptrack/deep_stacks" "$repo/bench/native/deep_stacks.cpp"
        valgrind --tool=massif --depth=60 --massif-out-file="$data/massif/deep.massif" \
            "$data/heaptrack/deep_stacks" 20000 >/dev/null 2>&1
    fi
    if [ ! -f "$data/massif/python.massif" ]; then
        valgrind --tool=massif --depth=60 --massif-out-file="$data/massif/python.massif" "$python" -c \
            'import json; d = [{"n": i, "s": str(i) * 3} for i in range(200000)]; json.loads(json.dumps(d))' >/dev/null 2>&1
    fi
    add massif "deep.massif (deep_stacks, real)" "$data/massif/deep.massif"
    add massif "python.massif (CPython building JSON, real)" "$data/massif/python.massif"
fi
if wants profiler; then
    for f in "$fixtures"/pytorch-profiler/*.json*; do
        [ -f "$f" ] && add profiler "$(basename "$f") (real)" "$f"
    done
    mkdir -p "$data/profiler"
    if [ ! -f "$data/profiler/gen-500000.pt.trace.json" ]; then
        log "generating the 240 MB profiler trace"
        "$build/bench/gen_chrome_trace" 500000 "$data/profiler/gen-500000.pt.trace.json" >&2
    fi
    add profiler "generated trace, 0.5M memory events" "$data/profiler/gen-500000.pt.trace.json"
fi
if wants snapshot; then
    for f in "$fixtures"/pytorch-snapshot/*.pickle; do
        [ -f "$f" ] && add snapshot "$(basename "$f") (real)" "$f"
    done
    mkdir -p "$data/snapshot"
    gen_snapshot() { # NAME ARGS...
        local name=$1
        shift
        if [ ! -f "$data/snapshot/$name" ]; then
            log "generating snapshot $name ($*)"
            nice "$python" "$repo/tools/bench-snapshot/make_big_snapshot.py" "$data/snapshot/$name.tmp" "$@"
            mv "$data/snapshot/$name.tmp" "$data/snapshot/$name"
        fi
    }
    gen_snapshot snap-1m.pickle --entries 1000000
    add snapshot "generated, 1M entries, shared frames" "$data/snapshot/snap-1m.pickle"
    if [ "$quick" = 0 ]; then
        gen_snapshot snap-13m.pickle --entries 13000000
        add snapshot "generated, 13M entries, shared frames" "$data/snapshot/snap-13m.pickle"
    fi
    if [ "$big" = 1 ]; then
        gen_snapshot snap-16m-own.pickle --entries 16800000 --own-frame-lists
        add snapshot "generated, 16.8M entries, own frame lists" "$data/snapshot/snap-16m-own.pickle"
    fi
fi
if wants alloclog; then
    mkdir -p "$data/alloclog"
    n=10000000
    [ "$quick" = 1 ] && n=1000000
    if [ ! -f "$data/alloclog/log-$n.csv" ]; then
        log "generating the $n-event allocation log"
        "$build/bench/gen_alloclog" "$n" "$data/alloclog/log-$n.csv"
    fi
    add alloclog "generated allocation log, $n events" "$data/alloclog/log-$n.csv" "$n"
fi

# --- the concurrent build ------------------------------------------------------------------------
note=
if [ "$beside" = 1 ]; then
    log "configuring the concurrent build"
    cmake -S "$repo" -B "$work/busy-build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    # Its own session (setsid): the scheduler shares the CPUs between it and the benchmark as
    # between two terminals, not between their threads.
    setsid bash -c "while :; do cmake --build '$work/busy-build' -j1 >/dev/null 2>&1; ninja -C '$work/busy-build' clean >/dev/null 2>&1; done" &
    busy=$!
    sleep 10 # past the first compiler start
    note="Every run beside a concurrent \`cmake --build -j1\` of memviz in its own session (--beside-build)."
fi

# --- the runs ------------------------------------------------------------------------------------
results="$work/results.tsv"
: >"$results"
# One timed run: INPUT_NO TOOL COMMAND... appends "input tool wall user sys rss_kib load1 ok".
timed() {
    local no=$1 tool=$2
    shift 2
    local load ok=1
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$python" "$here/timed.py" "$work/time" "$@" >/dev/null 2>"$work/err" || ok=0
    if [ "$ok" = 0 ]; then
        log "FAILED: $tool on input $no: $(tail -3 "$work/err" | tr '\n' ' ')"
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$no" "$tool" "$(tail -1 "$work/time" | tr ' ' '\t')" "$load" "$ok" >>"$results"
}
import() { # INPUT_NO FILE [TOOL BINARY]
    rm -f "$work/store.memviz" "$work/store.memviz-wal" "$work/store.memviz-shm"
    timed "$1" "${3:-memviz import}" "${4:-$memviz}" import "$2" --db "$work/store.memviz"
}
no=0
for line in "${inputs[@]}"; do
    IFS='|' read -r kind label file events <<<"$line"
    log "$label: $runs runs"
    steps=(memviz)
    [ -z "$baseline" ] || steps+=(baseline)
    case $kind in
    heaptrack | massif | profiler) steps+=(peer) ;;
    snapshot) steps+=(peer memory_viz) ;;
    esac
    i=0
    while [ "$i" -lt "$runs" ]; do
        # Each run starts with the next tool: on a virtual machine a tool that follows one which
        # freed much memory pays for fresh pages again (the host takes freed pages back within
        # seconds; the 240 MB profiler import takes 0.73 s then, 0.57 s right after itself), so
        # a fixed order would charge that to the same tool every time.
        for ((k = 0; k < ${#steps[@]}; ++k)); do
            case ${steps[(i + k) % ${#steps[@]}]} in
            memviz) import "$no" "$file" ;;
            baseline) import "$no" "$file" "memviz import (baseline)" "$work/memviz-baseline" ;;
            memory_viz) timed "$no" "torch _memory_viz (1.13)" "$python" "$here/peers.py" memory_viz "$file" ;;
            peer)
                case $kind in
                heaptrack) timed "$no" heaptrack_print heaptrack_print "$file" ;;
                massif) timed "$no" ms_print ms_print "$file" ;;
                profiler) timed "$no" "Python json.load" "$python" "$here/peers.py" json "$file" ;;
                snapshot) timed "$no" "Python pickle.load" "$python" "$here/peers.py" pickle "$file" ;;
                esac
                ;;
            esac
        done
        i=$((i + 1))
    done
    no=$((no + 1))
done

stop_busy
busy=

# --- the table -----------------------------------------------------------------------------------
stamp=$(date -u +%Y-%m-%dT%H:%MZ)
machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(. /etc/os-release && echo "$PRETTY_NAME")"
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '%s\n' "${inputs[@]}" >"$work/inputs"
table="$data/peers-$stamp.md"
"$python" "$here/table.py" "$work/inputs" "$results" "$stamp" "$machine" "$commit" "$runs" "$note" >"$table"
cp "$results" "$data/peers-$stamp.tsv"
cat "$table"
if [ "$doc" = 1 ]; then
    "$python" - "$repo/docs/performance.md" "$table" <<'EOF'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
begin, end = "<!-- peers-table:begin -->", "<!-- peers-table:end -->"
text = open(doc).read()
if begin in text and end in text:
    text = text[:text.index(begin) + len(begin)] + "\n" + table + text[text.index(end):]
else:
    text += "\n" + begin + "\n" + table + end + "\n"
open(doc, "w").write(text)
EOF
    log "table written to docs/performance.md and $table"
fi
