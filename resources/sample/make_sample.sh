#!/usr/bin/env bash
# Regenerates sample_training_step.csv.gz: two Adam training steps of a small CNN, recorded
# by a real allocator hook under Debian's PyTorch (/usr/bin/python3, CPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -shared -fPIC -O2 -o "$work/libmemviz_alloc_hook.so" "$here/alloc_hook.c" -ldl -lpthread
MEMVIZ_ALLOC_LOG="$work/log.csv" LD_PRELOAD="$work/libmemviz_alloc_hook.so" /usr/bin/python3 "$here/train_step.py"
gzip -9 -n -c "$work/log.csv" > "$here/sample_training_step.csv.gz"
echo "wrote $here/sample_training_step.csv.gz ($(wc -l < "$work/log.csv") lines)"
