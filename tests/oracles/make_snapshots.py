#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the small CUDA memory snapshots tst_snapshot imports, in every layout memviz reads:
the newest dict (time_us, frames, annotations, allocator settings) as pickle protocols 2, 4
and 5; a ring-buffer-truncated trace; entries without times and with segment_map/unmap; OOMs;
the 2022 bare list of segments with block `history`; a dict with `history` blocks and legacy
`free` actions; pinned host memory; an unknown action. A tiny allocator simulation keeps the
final segments consistent with the trace. Standard library only.

  make_snapshots.py OUT_DIR
"""
import os
import pickle
import random

MB = 1 << 20
FRAMES = [
    {"filename": "train.py", "line": 41, "name": "forward"},
    {"filename": "/usr/lib/python3/site-packages/torch/nn/modules/linear.py", "line": 125, "name": "forward"},
    {"filename": "??", "line": 0, "name": "c10::cuda::CUDACachingAllocator::malloc"},
    {"filename": "train.py", "line": 88, "name": "train_step"},
    {"filename": "optim.py", "line": 12, "name": "step"},
]
STACKS = [[FRAMES[1], FRAMES[0], FRAMES[3]], [FRAMES[2], FRAMES[4], FRAMES[3]], [FRAMES[2]], [FRAMES[0], FRAMES[3]]]


class Device:
    """Bump allocation in fixed segments; enough to give every block an address in a segment."""

    def __init__(self, number, rnd, base, expandable=False):
        self.number, self.rnd, self.expandable = number, rnd, expandable
        self.next_segment = base
        self.segments = []  # [address, size]
        self.live = {}      # addr -> (requested, stack)
        self.trace = []
        self.cursor = None

    def entry(self, action, addr, size, t, stack, **extra):
        e = {"action": action, "addr": addr, "size": size, "stream": 0}
        if t is not None:
            e["time_us"] = t
        e["frames"] = stack
        e.update(extra)
        self.trace.append(e)

    def alloc(self, size, t):
        rounded = (size + 511) // 512 * 512
        if not self.segments or self.cursor + rounded > self.segments[-1][0] + self.segments[-1][1]:
            seg = max(2 * MB, rounded)
            if self.expandable:
                seg = max(4 * MB, (rounded + MB - 1) // MB * MB)
            if self.expandable and self.segments:
                # grow the one expandable segment
                self.entry("segment_map", self.segments[-1][0] + self.segments[-1][1], seg, t, [])
                self.segments[-1][1] += seg
            else:
                self.segments.append([self.next_segment, seg])
                self.entry("segment_map" if self.expandable else "segment_alloc", self.next_segment, seg, t,
                           STACKS[2])
                self.cursor = self.next_segment
                self.next_segment += 64 * MB
        addr = self.cursor
        self.cursor += rounded
        stack = STACKS[self.rnd.randrange(len(STACKS))]
        self.live[addr] = (size, stack)
        self.entry("alloc", addr, size, t, stack)
        return addr

    def free(self, addr, t, legacy=False):
        size, stack = self.live.pop(addr)
        if legacy:
            self.entry("free", addr, size, t, stack)
        else:
            self.entry("free_requested", addr, size, t, stack)
            self.entry("free_completed", addr, size, t, stack)

    def release_empty_last_segment(self, t):
        """segment_free of the newest segment when nothing lives in it; an expandable segment
        unmaps the free 2 MiB at its end instead."""
        base, size = self.segments[-1]
        if self.expandable:
            if base + size - self.cursor >= 2 * MB:
                self.entry("segment_unmap", base + size - 2 * MB, 2 * MB, t, STACKS[2])
                self.segments[-1][1] -= 2 * MB
            return
        if any(base <= a < base + size for a in self.live):
            return
        self.segments.pop()
        self.entry("segment_free", base, size, t, STACKS[2])
        self.cursor = None if not self.segments else self.segments[-1][0] + self.segments[-1][1]
        if self.cursor is None:
            self.segments = []

    def final_segments(self, with_address=True, with_history=False):
        out = []
        for base, size in self.segments:
            blocks, cursor = [], base
            for a in sorted(x for x in self.live if base <= x < base + size):
                if a > cursor:
                    blocks.append(self.block(cursor, a - cursor, 0, "inactive", [], with_address, with_history))
                req, stack = self.live[a]
                rounded = (req + 511) // 512 * 512
                blocks.append(self.block(a, rounded, req, "active_allocated", stack, with_address, with_history))
                cursor = a + rounded
            if cursor < base + size:
                blocks.append(self.block(cursor, base + size - cursor, 0, "inactive", [], with_address, with_history))
            allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
            out.append({"device": self.number, "address": base, "total_size": size, "allocated_size": allocated,
                        "active_size": allocated, "requested_size": sum(b.get("requested_size", 0) for b in blocks),
                        "stream": 0, "segment_type": "large" if size > MB else "small", "segment_pool_id": (0, 0),
                        "is_expandable": self.expandable, "frames": [], "blocks": blocks})
        return out

    @staticmethod
    def block(addr, size, req, state, stack, with_address, with_history):
        b = {"size": size, "state": state}
        if with_address:
            b["address"] = addr
        if with_history:
            if state == "active_allocated":
                b["history"] = [{"addr": addr, "real_size": req, "frames": stack}]
        else:
            b["requested_size"] = req
            b["frames"] = stack
        return b


def run(dev, steps, t0, rnd, timed=True, legacy_free=False, oom_every=0):
    t = t0
    for i in range(steps):
        t += rnd.randint(0, 40)
        tt = t if timed else None
        if dev.live and rnd.random() < 0.45:
            dev.free(rnd.choice(sorted(dev.live)), tt, legacy_free)
            if rnd.random() < (0.5 if dev.expandable else 0.1) and dev.segments:
                dev.release_empty_last_segment(tt)
        else:
            dev.alloc(rnd.choice([100, 512, 4000, 70000, MB + 5, 3 * MB]), tt)
        if oom_every and i % oom_every == oom_every - 1:
            dev.trace.append({"action": "oom", "device_free": 123 * MB + i, "size": 40 * 1024 * MB, "stream": 0,
                              **({"time_us": tt} if timed else {}), "frames": STACKS[0]})
    return t


def settings():
    return {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:False", "max_split_size": -1,
            "garbage_collection_threshold": 0.0, "expandable_segments": False,
            "roundup_power2_divisions": {"1": 0, "2": 0, "4": 0}}


def main():
    import sys
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def write(name, obj, protocol=4):
        with open(os.path.join(out, name), "wb") as f:
            pickle.dump(obj, f, protocol=protocol)

    # The newest layout, two devices, annotations, OOMs.
    rnd = random.Random(7)
    d0, d1 = Device(0, rnd, 0x7F0000000000), Device(1, rnd, 0x7E0000000000)
    t0 = 1_700_000_000_000_000
    t = run(d0, 300, t0, rnd, oom_every=120)
    run(d1, 80, t0 + 50, rnd)
    snap = {"segments": d0.final_segments() + d1.final_segments(), "device_traces": [d0.trace, d1.trace],
            "allocator_settings": settings(),
            "external_annotations": [{"stage": "START", "name": "forward", "device": 0, "time_us": t0 + 100},
                                     {"stage": "END", "name": "forward", "device": 0, "time_us": t0 + 2000},
                                     {"stage": "START", "name": "optimizer", "device": 0, "time_us": t - 500}]}
    for protocol in (2, 4, 5):
        write(f"dict_protocol{protocol}.pickle", snap, protocol)

    # A ring buffer that dropped the oldest entries: frees without allocs, blocks without allocs.
    rnd = random.Random(11)
    d = Device(0, rnd, 0x7F0000000000)
    run(d, 400, t0, rnd)
    write("ring_truncated.pickle", {"segments": d.final_segments(), "device_traces": [d.trace[250:]],
                                    "allocator_settings": settings(), "external_annotations": []})

    # No time_us (2023 files), expandable segments grown and shrunk with segment_map/unmap.
    rnd = random.Random(3)
    d = Device(0, rnd, 0x7F0000000000, expandable=True)
    run(d, 250, 0, rnd, timed=False)
    write("no_time_expandable.pickle", {"segments": d.final_segments(), "device_traces": [d.trace]})

    # 2.0-era dict: block history instead of frames/requested_size, legacy 'free', no address.
    rnd = random.Random(5)
    d = Device(0, rnd, 0x7F0000000000)
    run(d, 200, 0, rnd, timed=False, legacy_free=True)
    write("history_legacy_free.pickle", {"segments": d.final_segments(with_address=False, with_history=True),
                                         "device_traces": [d.trace]}, protocol=3)

    # 2022: a bare list of segments.
    rnd = random.Random(9)
    d = Device(0, rnd, 0x7F0000000000)
    run(d, 120, 0, rnd, timed=False)
    write("legacy_segment_list.pickle", d.final_segments(with_address=False, with_history=True), protocol=2)

    # Pinned host memory beside a CUDA device, and an action memviz does not know.
    rnd = random.Random(13)
    d, h = Device(0, rnd, 0x7F0000000000), Device(0, rnd, 0x10000000)
    run(d, 60, t0, rnd)
    run(h, 40, t0 + 10, rnd)
    d.trace.insert(10, {"action": "user_defined", "addr": 0, "size": 0, "stream": 0, "time_us": d.trace[9]["time_us"],
                        "frames": []})
    write("host_and_unknown.pickle", {"segments": d.final_segments(), "device_traces": [d.trace],
                                      "host_segments": h.final_segments(), "host_traces": h.trace})


if __name__ == "__main__":
    main()
