#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which final segments of two CUDA snapshots differ, as PyTorch itself says:
torch.cuda._memory_viz.compare (Debian's PyTorch, run under /usr/bin/python3) on the snapshots'
segment lists. Prints JSON {"only_before": [address, ...], "only_after": [...], "blocks_before":
{"SEGMENT STATE": bytes, ...}, "blocks_after": {...}} (the blocks compare writes for the segments
in one snapshot only, summed per segment and state); exit 77 when
PyTorch is missing. The pickles are the tests' own (make_snapshots.py); they are read with an
unpickler that refuses every global, so nothing in them is executed.

  snapshot_compare.py BEFORE.pickle AFTER.pickle
"""
import contextlib
import io
import json
import pickle
import sys

try:
    from torch.cuda import _memory_viz
except ImportError:
    sys.exit(77)


class DataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError("global %s.%s refused" % (module, name))


def segments(path):
    with open(path, "rb") as f:
        data = DataOnly(f).load()
    return data["segments"] if isinstance(data, dict) else data


before, after = segments(sys.argv[1]), segments(sys.argv[2])
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    flame = _memory_viz.compare(before, after, format_flamegraph=lambda lines: lines)
result = {}
for line in printed.getvalue().splitlines():  # "only_before = [addr, ...]"
    key, _, value = line.partition(" = ")
    result[key] = sorted(int(a) for a in value.strip("[]").split(",") if a.strip())
# Flame-graph lines: "only_before;stream_S;seg_ADDR;STATE[;frames...] SIZE".
for side in ("before", "after"):
    result["blocks_" + side] = {}
for line in flame.splitlines():
    path, _, size = line.rpartition(" ")
    parts = path.split(";")
    key = "%s %s" % (parts[2][len("seg_"):], parts[3])
    sums = result["blocks_" + parts[0][len("only_"):]]
    sums[key] = sums.get(key, 0) + int(size)
print(json.dumps(result))
