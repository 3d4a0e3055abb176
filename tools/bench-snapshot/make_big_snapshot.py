#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a synthetic CUDA memory snapshot (the dict torch.cuda.memory._dump_snapshot pickles)
for benchmarking memviz's importer against Python's own unpickler. Standard library only.

  make_big_snapshot.py OUT.pickle --entries 1000000 [--shared-frames | --own-frame-lists]
                       [--protocol 4] [--seed 1]

--shared-frames (default): every trace entry refers to one of a few thousand frame lists, as
PyTorch writes them when tracebacks repeat. --own-frame-lists: every entry gets its own list
(of shared frame dicts), as in real files recorded with C++ stacks; this makes big files.
The trace is consistent: allocations alive at the end appear as active_allocated blocks in
`segments`, and reserved memory grows through segment_alloc entries.
"""
import argparse
import pickle
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--frames-per-stack", type=int, default=24)
    ap.add_argument("--stacks", type=int, default=3000)
    ap.add_argument("--own-frame-lists", action="store_true")
    ap.add_argument("--protocol", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    frames = [{"filename": f"/src/project/module_{i % 97}.py" if i % 3 else "??",
               "line": (i * 37) % 2000, "name": f"function_{i}"} for i in range(4000)]
    stacks = [[frames[rnd.randrange(len(frames))] for _ in range(rnd.randint(a.frames_per_stack // 2, a.frames_per_stack * 3 // 2))]
              for _ in range(a.stacks)]

    seg_size = 1 << 30
    segments = {}  # address -> [total_size, live allocations]
    current = None  # address of the segment being filled
    cursor = 0
    live = {}      # addr -> (size, stack index, segment address)
    trace = []
    t = 1_700_000_000_000_000
    next_seg = 0x7F0000000000

    def frames_for(i):
        return list(stacks[i]) if a.own_frame_lists else stacks[i]

    def entry(action, addr, size, si):
        trace.append({"action": action, "addr": addr, "size": size, "stream": 0, "time_us": t,
                      "compile_context": "N/A", "user_metadata": "", "frames": frames_for(si)})

    while len(trace) < a.entries:
        t += rnd.randint(0, 3)
        if live and (len(live) > 2000 or rnd.random() < 0.45):
            addr = rnd.choice(list(live)) if len(live) < 64 else next(iter(live))
            size, si, seg = live.pop(addr)
            segments[seg][1] -= 1
            entry("free_requested", addr, size, si)
            entry("free_completed", addr, size, si)
            continue
        size = rnd.choice([512, 4096, 1 << 20, 3 << 20, 12 << 20]) - rnd.randrange(0, 511)
        rounded = (size + 511) // 512 * 512
        if current is None or cursor + rounded > current + segments[current][0]:
            # Reuse an emptied segment like the caching allocator; give extra empty ones back.
            empty = [s for s, (_, n) in segments.items() if n == 0 and s != current]
            while len(empty) > 2:
                gone = empty.pop()
                entry("segment_free", gone, segments.pop(gone)[0], 0)
            if empty:
                current = empty[0]
            else:
                current = next_seg
                segments[current] = [seg_size, 0]
                entry("segment_alloc", current, seg_size, 0)
                next_seg += seg_size
            cursor = current
        addr = cursor
        cursor += rounded
        si = rnd.randrange(len(stacks))
        live[addr] = (size, si, current)
        segments[current][1] += 1
        entry("alloc", addr, size, si)

    out_segments = []
    for base, (total, _) in sorted(segments.items()):
        blocks, cursor = [], base
        for addr in sorted(x for x in live if base <= x < base + total):
            if addr > cursor:
                blocks.append({"address": cursor, "size": addr - cursor, "requested_size": 0, "state": "inactive", "frames": []})
            size, si, _ = live[addr]
            rounded = (size + 511) // 512 * 512
            blocks.append({"address": addr, "size": rounded, "requested_size": size, "state": "active_allocated",
                           "frames": frames_for(si)})
            cursor = addr + rounded
        if cursor < base + total:
            blocks.append({"address": cursor, "size": base + total - cursor, "requested_size": 0, "state": "inactive", "frames": []})
        allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
        out_segments.append({"device": 0, "address": base, "total_size": total, "allocated_size": allocated,
                             "active_size": allocated, "requested_size": sum(b["requested_size"] for b in blocks),
                             "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
                             "frames": [], "blocks": blocks})
    snapshot = {"segments": out_segments, "device_traces": [trace],
                "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1},
                "external_annotations": []}
    with open(a.out, "wb") as f:
        pickle.dump(snapshot, f, protocol=a.protocol)


if __name__ == "__main__":
    main()
