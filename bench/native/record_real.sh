#!/bin/sh
# SPDX-License-Identifier: MIT
# Records the real-world heaptrack benchmark inputs (issue 12), outside the repository:
#   - cnn.zst: Debian's PyTorch training a small CNN for SECONDS (train_cnn.py), which gives
#     1.5–2M allocation calls (depending on the machine) and 77k distinct instruction pointers;
#   - deep.zst: a C++ program with deep, varied stacks (deep_stacks.cpp: recursion through 192
#     template functions, containers that allocate on their own), about 0.5M calls and
#     650k stack-tree nodes.
# Then prints what each holds. Compare memviz with heaptrack_print on them with
#   bench/native/heaptrack_vs_print.sh BUILD_DIR RUNS OUT/cnn.zst
#
#   bench/native/record_real.sh [OUT (default: ${XDG_CACHE_HOME:-~/.cache}/memviz/bench-data/heaptrack)] [SECONDS (10)]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"${XDG_CACHE_HOME:-$HOME/.cache}/memviz/bench-data/heaptrack"}
seconds=${2:-10}
mkdir -p "$out"
out=$(cd "$out" && pwd)

rm -f "$out/cnn.zst" "$out/deep.zst"
heaptrack -o "$out/cnn" /usr/bin/python3 "$here/train_cnn.py" "$seconds" >/dev/null 2>&1
c++ -std=c++20 -O1 -g -fno-omit-frame-pointer -fno-inline -o "$out/deep_stacks" "$here/deep_stacks.cpp"
heaptrack -o "$out/deep" "$out/deep_stacks" 60000 >/dev/null 2>&1

for f in "$out/cnn.zst" "$out/deep.zst"; do
    echo "$f: $(du -h "$f" | cut -f1)"
    # One letter per record type: + allocation, i instruction pointer, t stack-tree node.
    zstdcat "$f" | awk '{ c[substr($0, 1, 1)]++ }
        END { printf "  allocation calls %d, instruction pointers %d, stack-tree nodes %d, allocation infos %d\n", c["+"], c["i"], c["t"], c["a"] }'
    heaptrack_print "$f" | grep -E '^(calls to allocation functions|peak heap memory consumption|total memory leaked)' | sed 's/^/  /'
done
