#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two small CUDA snapshots (A and B) whose block and peak differences tst_diff_cli works out
by hand. Standard library only: plain dicts written with pickle protocol 4, the shape of
torch.cuda.memory._snapshot() (docs/formats-snapshot.md).

  make_snapshot_pair.py OUT_DIR    writes OUT_DIR/pair_a.pickle and OUT_DIR/pair_b.pickle

A: segment S1 at 0x100000 (2 MiB): blocks 0x100000 (512, asked 500, f1), 0x100200 (1024,
   asked 1000, f2), the rest inactive; segment S2 at 0x400000 (2 MiB, only in A): 0x400000
   (1 MiB, asked 1 MiB, f3), the rest inactive. Trace: alloc 500 (f1), 1000 (f2), 1 MiB (f3),
   nothing freed: the peak is after the third entry.
B: S1 again: 0x100000 as in A, 0x100200 now 2048 (asked 2000, f2), 0x100a00 (512, asked 100,
   f1), the rest inactive; segment S3 at 0x800000 (2 MiB, only in B), all inactive. Trace:
   alloc 500 (f1), 2000 (f2), a temporary 1000 (f2, freed at once), 3000 at 0x800000 (f4),
   100 at 0x100a00 (f1), then 0x800000 is freed: the peak (5600) is after the 100 (f1).
"""
import os
import pickle
import sys

MB = 1 << 20


def frames(name, line):
    return [{"filename": "model.py", "line": line, "name": name},
            {"filename": "??", "line": 0, "name": "c10::cuda::CUDACachingAllocator::malloc"}]


F = {"f1": frames("f1", 10), "f2": frames("f2", 20), "f3": frames("f3", 30), "f4": frames("f4", 40)}


def block(addr, size, req, state, site):
    return {"address": addr, "size": size, "requested_size": req, "state": state,
            "frames": F[site] if site else []}


def segment(addr, blocks):
    allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
    return {"device": 0, "address": addr, "total_size": 2 * MB, "allocated_size": allocated,
            "active_size": allocated, "requested_size": sum(b["requested_size"] for b in blocks),
            "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
            "frames": [], "blocks": blocks}


def entry(action, addr, size, site, t):
    return {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": 1_700_000_000_000_000 + t,
            "frames": F[site] if site else []}


def main():
    out = sys.argv[1]
    S1, S2, S3 = 0x100000, 0x400000, 0x800000
    a = {"segments": [segment(S1, [block(S1, 512, 500, "active_allocated", "f1"),
                                   block(S1 + 0x200, 1024, 1000, "active_allocated", "f2"),
                                   block(S1 + 0x600, 2 * MB - 0x600, 0, "inactive", None)]),
                      segment(S2, [block(S2, MB, MB, "active_allocated", "f3"),
                                   block(S2 + MB, MB, 0, "inactive", None)])],
         "device_traces": [[entry("segment_alloc", S1, 2 * MB, None, 0),
                            entry("alloc", S1, 500, "f1", 10),
                            entry("alloc", S1 + 0x200, 1000, "f2", 20),
                            entry("segment_alloc", S2, 2 * MB, None, 25),
                            entry("alloc", S2, MB, "f3", 30)]]}
    b = {"segments": [segment(S1, [block(S1, 512, 500, "active_allocated", "f1"),
                                   block(S1 + 0x200, 2048, 2000, "active_allocated", "f2"),
                                   block(S1 + 0xa00, 512, 100, "active_allocated", "f1"),
                                   block(S1 + 0xc00, 2 * MB - 0xc00, 0, "inactive", None)]),
                      segment(S3, [block(S3, 2 * MB, 0, "inactive", None)])],
         "device_traces": [[entry("segment_alloc", S1, 2 * MB, None, 0),
                            entry("alloc", S1, 500, "f1", 10),
                            entry("alloc", S1 + 0x200, 2000, "f2", 20),
                            entry("segment_alloc", S3, 2 * MB, None, 25),
                            entry("alloc", S3 + 0x2000, 1000, "f2", 26),
                            entry("free_requested", S3 + 0x2000, 1000, "f2", 27),
                            entry("free_completed", S3 + 0x2000, 1000, "f2", 27),
                            entry("alloc", S3, 3000, "f4", 30),
                            entry("alloc", S1 + 0xa00, 100, "f1", 40),
                            entry("free_requested", S3, 3000, "f4", 50),
                            entry("free_completed", S3, 3000, "f4", 50)]]}
    for name, snap in (("pair_a.pickle", a), ("pair_b.pickle", b)):
        with open(os.path.join(out, name), "wb") as f:
            pickle.dump(snap, f, protocol=4)


if __name__ == "__main__":
    main()
