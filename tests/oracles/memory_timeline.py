#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for export_memory_timeline files (docs/formats.md), stdlib only.

Raw form [[t_ns, action, bytes, category], ...]: bytes are added to their category; rows with
t = -1 (pre-existing) count at the first real time; rows at the same time form one step.
Coalesced form [times_us, sizes]: sizes[i][1 + category] at times[i].
Prints the peak of the total, its time (ns from the first time), the final total, the
category breakdown at the peak, and the count of create/pre-existing and destroy rows.
"""
import gzip
import json
import sys

NAMES = ["parameter", "optimizer state", "input", "temporary", "activation", "gradient", "autograd detail",
         "unknown"]


def main():
    raw = open(sys.argv[1], "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    data = json.loads(raw)
    steps = []  # (t_ns, sizes)
    allocs = frees = 0
    if data and isinstance(data[0], list) and len(data) == 2 and data[1] and isinstance(data[1][0], list) \
            and len(data[1][0]) == 9:
        t0 = data[0][0]
        steps = [((t - t0) * 1000, row[1:]) for t, row in zip(data[0], data[1])]
    else:
        tmin = min(r[0] for r in data if r[0] >= 0)
        sizes = [0] * 8
        last = None
        for t, action, nbytes, cat in data:
            t = 0 if t < 0 else t - tmin
            if last is not None and t != last:
                steps.append((last, list(sizes)))
            sizes[cat] += nbytes
            last = t
            allocs += action in (1, 2)
            frees += action == 4
        steps.append((last, list(sizes)))
    peak, peak_t, at_peak = 0, 0, [0] * 8
    for t, s in steps:
        if sum(s) > peak:
            peak, peak_t, at_peak = sum(s), t, s
    print(json.dumps({"peak_bytes": peak, "peak_time_ns": peak_t, "final_bytes": sum(steps[-1][1]),
                      "duration_ns": steps[-1][0], "allocs": allocs, "frees": frees,
                      "breakdown": {NAMES[i]: v for i, v in enumerate(at_peak) if v}}, indent=1))


if __name__ == "__main__":
    main()
