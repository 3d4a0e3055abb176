#!/bin/bash
# SPDX-License-Identifier: MIT
# memviz against its peers, side by side, in one run (issue 33). Benchmark, not a test.
#
# Builds memviz and the generators (cmake, RelWithDebInfo, into its own build folder), records or
# generates the inputs once (kept outside the repository), then for each input runs `memviz
# import` and each peer ALTERNATING, RUNS times (each run starting with the next tool), timed by timed.py, and writes one markdown
# table (median/min/max wall, CPU, peak RSS, the ratio memviz/peer, the load average beside each
# row, what each tool answered, the date and the machine) to docs/performance.md between the markers
# "<!-- peers-table:begin -->" and "<!-- peers-table:end -->" (and to DATA/peers-DATE.md).
#
#   bench/peers/run.sh [options]
#     --runs N         runs per tool and input (default 5)
#     --quick          3 runs, and only the small inputs (no 1 GB/3 GB snapshot, 1M-event log)
#     --big            also the 3 GB snapshot (generating it takes ~15 GB of memory and
#                      `pickle.load` of it as much again: only on a machine that has it)
#     --only LIST      comma-separated kinds: heaptrack,massif,profiler,snapshot,alloclog,
#                      memtimeline,estimate,native
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
#     --torch2-python PY  the pinned PyTorch 2.x environment's python (default: what
#                      packaging/install-py-deps.sh prints; it makes the venv once)
#
# Peers: heaptrack recordings (bench/native/record_real.sh) against `heaptrack_print`; massif
# files (valgrind --tool=massif of deep_stacks and of Python) against `ms_print`; profiler
# traces (the fixtures and a generated 240 MB one) against `json.load` under /usr/bin/python3
# (Debian's PyTorch 1.13 has no reader of its own for them); CUDA snapshots (80 MB, 1 GB and,
# with --big, 3 GB from tools/bench-snapshot/make_big_snapshot.py, and the fixtures) against
# `pickle.load` and torch.cuda._memory_viz's segment flame graph preparation (peers.py; the
# unpickler's find_class refuses every global, nothing is executed); the 10M-event allocation
# log alone (events per second).
# In the pinned PyTorch 2.x environment (peers_torch2.py): torch 2.13's _memory_viz (stats,
# memory, segments, trace_plot, segment_plot) beside the snapshot import (inputs up to 100 MB);
# HolisticTraceAnalysis's trace load beside the profiler import (the real traces) and its
# MemoryAnalysis beside the memory-timeline import (export_memory_timeline .raw.json.gz);
# `accelerate estimate-memory`'s code beside `memviz estimate --config` (tests/data/hf configs);
# memray (`memray run`, then `memray stats`) beside `memviz record --native` on the same Python
# program (bench/native/train_cnn.py --steps 20), and that program alone. Each tool's answer
# (peak, reserved, parameters, ...) goes into the table beside its time (answers.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
runs=5
quick=0
big=0
only=heaptrack,massif,profiler,snapshot,alloclog,memtimeline,estimate,native
data="${XDG_CACHE_HOME:-$HOME/.cache}/memviz/bench-data"
fixtures="$repo/../shared/fixtures"
build="$repo/build-peers"
dobuild=1
doc=1
python=/usr/bin/python3
baseline=
beside=0
torch2=
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
    --torch2-python) torch2=$2; shift ;;
    -h | --help) sed -n '3,49p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
mkdir -p "$data"
data=$(cd "$data" && pwd)
[ ! -d "$fixtures" ] || fixtures=$(cd "$fixtures" && pwd)
if [ -z "$torch2" ] && { wants profiler || wants snapshot || wants memtimeline || wants estimate || wants native; }; then
    torch2=$(bash "$repo/packaging/install-py-deps.sh" | tail -1)
fi
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
    for f in "$repo"/tests/data/profiler-torch2/*.pt.trace.json*; do
        [ -f "$f" ] && add profiler "$(basename "$f") (real, PyTorch 2.13)" "$f"
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
if wants memtimeline; then
    for f in "$fixtures"/pytorch-memory-timeline/*.raw.json.gz "$repo"/tests/data/profiler-torch2/*.timeline.raw.json.gz; do
        [ -f "$f" ] && add memtimeline "$(basename "$f") (real)" "$f"
    done
fi
if wants estimate; then
    for name in gpt2 bert-base-uncased qwen2-0.5b llama-3.1-8b mistral-7b mixtral-8x7b; do
        add estimate "$name.json (config)" "$repo/tests/data/hf/$name.json"
    done
fi
if wants native; then
    add native "train_cnn.py --steps 20 (PyTorch 2.13 CNN training)" "$repo/bench/native/train_cnn.py"
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
# One timed run: [ANSWER] INPUT_NO TOOL COMMAND... appends "input tool wall user sys rss_kib load1
# ok answer". ANSWER is answers.py's kind over the command's stdout ("line", the default: the
# Python peers print "answer: ..."); "store" and "store-snapshot": what the store that the
# memviz COMMAND wrote says, asked untimed after the run; "-": none.
timed() {
    local how=line
    case $1 in [0-9]*) ;; *) how=$1; shift ;; esac
    local no=$1 tool=$2
    shift 2
    local load ok=1 answer=
    load=$(cut -d' ' -f1 /proc/loadavg)
    local out=/dev/null # what the older peers print (heaptrack_print's report) is not kept
    case $how in line | record-native | estimate | memray-stats) out=$work/out ;; esac
    (cd "$work/cwd" && "$python" "$here/timed.py" "$work/time" "$@" >"$out" 2>"$work/err") || ok=0
    if [ "$ok" = 0 ]; then
        log "FAILED: $tool on input $no: $(tail -3 "$work/err" | tr '\n' ' ')"
    elif [ "$how" = store ] || [ "$how" = store-snapshot ]; then
        {
            "$1" summary "$work/store.memviz" --json
            [ "$how" = store ] || "$1" allocator-replay "$work/store.memviz" --json
        } >"$work/out" 2>/dev/null || true
        answer=$("$python" "$here/answers.py" summary <"$work/out" | tr '\t\n' '  ')
    elif [ "$how" != - ]; then
        answer=$("$python" "$here/answers.py" "$how" <"$work/out" | tr '\t\n' '  ')
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$no" "$tool" "$(tail -1 "$work/time" | tr ' ' '\t')" "$load" "$ok" "$answer" >>"$results"
}
import() { # INPUT_NO FILE KIND [TOOL BINARY]
    local how=store
    [ "$3" != snapshot ] || how=store-snapshot
    rm -f "$work/store.memviz" "$work/store.memviz-wal" "$work/store.memviz-shm"
    timed "$how" "$1" "${4:-memviz import}" "${5:-$memviz}" import "$2" --db "$work/store.memviz"
}
mkdir -p "$work/cwd"
no=0
for line in "${inputs[@]}"; do
    IFS='|' read -r kind label file events <<<"$line"
    log "$label: $runs runs"
    steps=(memviz)
    [ -z "$baseline" ] || steps+=(baseline)
    case $kind in
    heaptrack | massif) steps+=(peer) ;;
    profiler)
        steps+=(peer)
        # HTA's DataFrame of the generated 240 MB trace would take GBs: the real traces only.
        case $file in "$data"/*) ;; *) steps+=(hta_trace) ;; esac
        ;;
    snapshot)
        steps+=(peer memory_viz)
        # PyTorch 2.13's _memory_viz on the real snapshots and those up to 100 MB (its plots
        # hold the whole snapshot as JSON in the page).
        if [ "$(stat -c %s "$file")" -le 100000000 ]; then
            steps+=(mv2_stats mv2_memory mv2_segments mv2_trace_plot mv2_segment_plot)
        fi
        ;;
    memtimeline) steps+=(hta_memory) ;;
    estimate) steps=(estimate accelerate) ;;
    native) steps=(record_native memray_run memray_stats alone) ;;
    esac
    i=0
    while [ "$i" -lt "$runs" ]; do
        # Each run starts with the next tool: on a virtual machine a tool that follows one which
        # freed much memory pays for fresh pages again (the host takes freed pages back within
        # seconds; the 240 MB profiler import takes 0.73 s then, 0.57 s right after itself), so
        # a fixed order would charge that to the same tool every time.
        for ((k = 0; k < ${#steps[@]}; ++k)); do
            case ${steps[(i + k) % ${#steps[@]}]} in
            memviz) import "$no" "$file" "$kind" ;;
            baseline) import "$no" "$file" "$kind" "memviz import (baseline)" "$work/memviz-baseline" ;;
            memory_viz) timed - "$no" "torch _memory_viz (1.13)" "$python" "$here/peers.py" memory_viz "$file" ;;
            mv2_*)
                cmd=${steps[(i + k) % ${#steps[@]}]#mv2_}
                timed "$no" "torch 2.13 _memory_viz $cmd" "$torch2" "$here/peers_torch2.py" memory_viz "$cmd" "$file" "$work/cwd/plot.html"
                ;;
            hta_trace) timed "$no" "HTA TraceAnalysis" "$torch2" "$here/peers_torch2.py" hta_trace "$file" ;;
            hta_memory) timed "$no" "HTA MemoryAnalysis" "$torch2" "$here/peers_torch2.py" hta_memory "$file" ;;
            estimate) timed estimate "$no" "memviz estimate" "$memviz" estimate --config "$file" --json ;;
            accelerate) timed "$no" "accelerate estimate-memory" "$torch2" "$here/peers_torch2.py" accelerate "$file" ;;
            record_native)
                rm -f "$work/native.memviz" "$work"/cwd/heaptrack.*
                timed record-native "$no" "memviz record --native" "$memviz" record --native --out "$work/native.memviz" --json -- "$torch2" "$file" --steps 20
                ;;
            memray_run) timed - "$no" "memray run" "$(dirname "$torch2")/memray" run --force -o "$work/cwd/memray.bin" "$file" --steps 20 ;;
            memray_stats)
                [ -f "$work/cwd/memray.bin" ] || (cd "$work/cwd" && "$(dirname "$torch2")/memray" run --force -o memray.bin "$file" --steps 20 >/dev/null 2>&1)
                timed memray-stats "$no" "memray stats" "$(dirname "$torch2")/memray" stats "$work/cwd/memray.bin"
                ;;
            alone) timed - "$no" "the program alone" "$torch2" "$file" --steps 20 ;;
            peer)
                case $kind in
                heaptrack) timed - "$no" heaptrack_print heaptrack_print "$file" ;;
                massif) timed - "$no" ms_print ms_print "$file" ;;
                profiler) timed - "$no" "Python json.load" "$python" "$here/peers.py" json "$file" ;;
                snapshot) timed - "$no" "Python pickle.load" "$python" "$here/peers.py" pickle "$file" ;;
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
