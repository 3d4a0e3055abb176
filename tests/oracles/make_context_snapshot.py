#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes context.pickle: a small CUDA memory snapshot whose trace entries carry what newer
PyTorch writes beside their frames: `compile_context` (a str, 'N/A' outside torch.compile),
`user_metadata` (a str, or a dict from torch.cuda.memory._set_memory_metadata) and
`forward_frames` (for backward allocations: the forward pass's traceback lines, a list of
str). tst_stack_context imports it; its expectations are worked out by hand from the table
below. Standard library only.

  make_context_snapshot.py OUT_DIR

cuda:0, one 2 MiB segment at SEG, time_us = T0 + 10 * entry:
  #  action            addr       size  compile_context              user_metadata            forward_frames
  0  segment_alloc     SEG        2 MiB 'N/A'                        ''                       -
  1  alloc  A          SEG          1000 'Torch-Compiled Region: 0/0' 'phase=fwd'              -
  2  alloc  B          SEG+1024     2000 'Torch-Compiled Region: 0/0' 'phase=fwd'              -
  3  alloc  C          SEG+4096     4000 'N/A'                        {'phase': 'bwd', 'layer': 3}  FORWARD
  4  alloc  D          SEG+8192     8000 'Torch-Compiled Region: 1/0' ''                       FORWARD
  5  free_requested B
  6  free_completed B
Peak after entry 4: 15000 bytes; at the end A, C, D: 13000.
bad_context.pickle: the same with entry 3's forward_frames an int (an import error).
"""
import os
import pickle
import sys

SEG = 0x7F0000000000
MIB = 1 << 20
T0 = 1_700_000_000_000_000

STEP = {"filename": "train.py", "line": 10, "name": "step"}
FORWARD_FN = {"filename": "model.py", "line": 20, "name": "forward"}
BACKWARD_FN = {"filename": "??", "line": 0, "name": "torch::autograd::Engine::evaluate_function"}
FORWARD = [
    '  File "train.py", line 10, in step\n    loss = model(x)\n',
    '  File "model.py", line 20, in forward\n    y = self.lin(x)\n',
]


def entry(k, action, addr, size, frames, compile_context="N/A", user_metadata="", forward=None):
    e = {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": T0 + 10 * k,
         "frames": frames, "compile_context": compile_context, "user_metadata": user_metadata}
    if forward is not None:
        e["forward_frames"] = forward
    return e


def main():
    out = sys.argv[1]
    fwd_stack = [FORWARD_FN, STEP]
    trace = [
        entry(0, "segment_alloc", SEG, 2 * MIB, [STEP]),
        entry(1, "alloc", SEG, 1000, fwd_stack, "Torch-Compiled Region: 0/0", "phase=fwd"),
        entry(2, "alloc", SEG + 1024, 2000, fwd_stack, "Torch-Compiled Region: 0/0", "phase=fwd"),
        entry(3, "alloc", SEG + 4096, 4000, [BACKWARD_FN], "N/A", {"phase": "bwd", "layer": 3}, FORWARD),
        entry(4, "alloc", SEG + 8192, 8000, [BACKWARD_FN], "Torch-Compiled Region: 1/0", "", FORWARD),
        entry(5, "free_requested", SEG + 1024, 2000, fwd_stack),
        entry(6, "free_completed", SEG + 1024, 2000, fwd_stack),
    ]

    def block(addr, size, requested, state, frames):
        return {"address": addr, "size": size, "requested_size": requested, "state": state, "frames": frames}

    blocks = [
        block(SEG, 1024, 1000, "active_allocated", fwd_stack),
        block(SEG + 1024, 3072, 0, "inactive", []),
        block(SEG + 4096, 4096, 4000, "active_allocated", [BACKWARD_FN]),
        block(SEG + 8192, 8192, 8000, "active_allocated", [BACKWARD_FN]),
        block(SEG + 16384, 2 * MIB - 16384, 0, "inactive", []),
    ]
    segment = {"device": 0, "address": SEG, "total_size": 2 * MIB, "allocated_size": 1024 + 4096 + 8192,
               "active_size": 1024 + 4096 + 8192, "requested_size": 13000, "stream": 0, "segment_type": "large",
               "segment_pool_id": (0, 0), "is_expandable": False, "frames": [STEP], "blocks": blocks}
    snapshot = {"segments": [segment], "device_traces": [trace], "allocator_settings": {}, "external_annotations": []}
    with open(os.path.join(out, "context.pickle"), "wb") as f:
        pickle.dump(snapshot, f, protocol=4)
    # Bad input: entry 3's forward_frames is an int.
    trace[3] = dict(trace[3], forward_frames=7)
    with open(os.path.join(out, "bad_context.pickle"), "wb") as f:
        pickle.dump(snapshot, f, protocol=4)


if __name__ == "__main__":
    main()
