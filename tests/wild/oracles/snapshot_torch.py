#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's own reading of a CUDA memory snapshot's segments, for the wild corpus.

Runs under Debian's PyTorch (/usr/bin/python3, torch 1.13): loads the pickle with a reader
that refuses every class lookup (never pickle.load, never torch.load: nothing in the file
runs), then calls torch.cuda._memory_viz.stats() and memory() (with a flame-graph formatter
that returns the collapsed lines instead of running flamegraph.pl) on each device's segments.

  snapshot_torch.py FILE.pickle   prints {"torch": version, "devices": {"cuda:N": {...}}}

Per device: segments, reserved (stats' total_size), bytes per block state (stats), and from
memory(): the bytes of active_allocated blocks and the five largest leaf frames.
1.13's _memory_viz knows only segments and blocks (no device_traces, no trace_plot), so this
oracle judges the final state, never the history.
"""
import io
import json
import pickle
import sys

import torch
import torch.cuda._memory_viz as viz


class PlainDataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def main():
    with open(sys.argv[1], "rb") as f:
        snap = PlainDataOnly(io.BytesIO(f.read())).load()
    segments = snap if isinstance(snap, list) else list(snap.get("segments") or [])
    out = {"torch": torch.__version__, "devices": {}}
    for number in sorted({s["device"] for s in segments}):
        segs = [s for s in segments if s["device"] == number]
        d = {"segments": len(segs)}
        try:
            st = viz.stats(segs)
            d["reserved"] = st["total_size"].value
            d["states"] = {k: v.value for k, v in st.items() if isinstance(v, viz.Bytes) and k != "total_size"}
        except AssertionError:
            d["stats_refused"] = "a segment's total_size is not the sum of its blocks"
        lines = viz.memory(segs, format_flamegraph=lambda text: text)
        active, leaves = 0, {}
        for line in lines.split("\n"):
            if not line:
                continue
            stack, _, size = line.rpartition(" ")
            frames = stack.split(";")
            if len(frames) < 2 or frames[1] != "active_allocated":
                continue
            active += int(size)
            leaf = frames[-1] if len(frames) > 2 else "<no frames>"
            leaves[leaf] = leaves.get(leaf, 0) + int(size)
        d["active_allocated"] = active
        d["top_leaves"] = sorted(leaves.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        out["devices"][f"cuda:{number}"] = d
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
