#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for PyTorch profiler Chrome traces (docs/formats.md), stdlib only.

Applies torch.profiler's key_averages semantics to a trace file:
- CPU-side events: ph "X" with cat cpu_op, Operator, user_annotation, cuda_runtime,
  cuda_driver, Runtime or python_function;
- an op's memory on a device = sum of Bytes of that device's [memory] events whose ts lies in
  [ts, ts + dur] (any thread); self = that minus its children's, children found per thread
  as torch.autograd.profiler's _populate_cpu_children does;
- memory events inside no CPU-side event are "[memory]" calls of their own.
Also the per-device summary: allocs/frees by the sign of Bytes, the peak of Total Allocated
(or of the running sum of Bytes when the trace has no totals; when some events' totals are
another allocator's, of the running sum plus the offset most events' totals agree with).

usage: profiler_key_averages.py TRACE [--ops NAME ...]   prints JSON
"""
import bisect
import gzip
import json
import sys
from decimal import Decimal

CPU_CATS = {"cpu_op", "Operator", "user_annotation", "cuda_runtime", "cuda_driver", "Runtime", "python_function"}
TYPE_NAMES = ["cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip"]


def ns(value):
    return int(Decimal(str(value)) * 1000)


def device_name(dtype, did):
    if dtype == 0:
        return "cpu"
    name = TYPE_NAMES[dtype] if dtype < len(TYPE_NAMES) else "device%d" % dtype
    return "%s:%d" % (name, did) if did >= 0 else name


def main():
    path = sys.argv[1]
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    mem, ops = [], []
    for order, e in enumerate(events):
        if e.get("name") == "[memory]":
            a = e["args"]
            mem.append((ns(e["ts"]), order, device_name(a["Device Type"], a.get("Device Id", -1)), a["Bytes"],
                        a.get("Total Allocated"), (e.get("pid"), str(e.get("tid")))))
        elif e.get("ph") == "X" and e.get("cat") in CPU_CATS:
            ops.append({"t": ns(e["ts"]), "end": ns(e["ts"]) + ns(e.get("dur", 0)), "name": e["name"],
                        "thread": (e.get("pid"), str(e.get("tid"))), "children": []})
    mem.sort()
    # Summary per device.
    summary = {}
    for t, _, dev, b, total, _thread in mem:
        s = summary.setdefault(dev, {"events": 0, "allocs": 0, "frees": 0, "running": 0, "peak": 0, "peak_t": 0,
                                     "totals": True, "values": []})
        s["events"] += 1
        s["allocs" if b >= 0 else "frees"] += 1
        s["running"] += b
        s["totals"] = s["totals"] and total is not None
        s["values"].append((t, total, s["running"]))
    t0 = min([m[0] for m in mem] + [o["t"] for o in ops] +
             [ns(e["ts"]) for e in events if "ts" in e])
    out = {"devices": {}}
    for dev, s in summary.items():
        # Total Allocated is the running total of the allocator that reported the event. Where a
        # second allocator reports on the same device, its events' totals follow another count:
        # the line is the running sum of Bytes plus the offset most events' totals agree with
        # (the earliest on a tie), which with one allocator is every event's Total Allocated.
        offset = 0
        if s["totals"]:
            counts, first = {}, {}
            for i, (_t, total, running) in enumerate(s["values"]):
                counts[total - running] = counts.get(total - running, 0) + 1
                first.setdefault(total - running, i)
            offset = max(counts, key=lambda o: (counts[o], -first[o]))
        peak, peak_t, final = 0, 0, 0
        for t, total, running in s["values"]:
            v = running + offset if s["totals"] else running
            if v > peak:
                peak, peak_t = v, t - t0
            final = v
        out["devices"][dev] = {"events": s["events"], "allocs": s["allocs"], "frees": s["frees"],
                               "peak_bytes": peak, "peak_time_ns": peak_t, "final_bytes": final}
    # Children per thread, as _populate_cpu_children.
    by_thread = {}
    for o in ops:
        by_thread.setdefault(o["thread"], []).append(o)
    for thread_ops in by_thread.values():
        thread_ops.sort(key=lambda o: (o["t"], -o["end"]))
        current = []
        for o in thread_ops:
            while current:
                p = current[-1]
                if o["t"] >= p["end"] or o["end"] > p["end"]:
                    current.pop()
                else:
                    p["children"].append(o)
                    break
            current.append(o)
    # Inclusive memory per device through bisect on sorted times.
    times = {}
    for t, _, dev, b, _total, _thread in mem:
        times.setdefault(dev, ([], [0], [0], [0]))
        ts, cum, cnt, pos = times[dev]
        ts.append(t)
        cum.append(cum[-1] + b)
        cnt.append(cnt[-1] + (1 if b > 0 else 0))
        pos.append(pos[-1] + (b if b > 0 else 0))

    def inclusive(o):
        r = {}
        for dev, (ts, cum, cnt, pos) in times.items():
            lo, hi = bisect.bisect_left(ts, o["t"]), bisect.bisect_right(ts, o["end"])
            r[dev] = (cum[hi] - cum[lo], cnt[hi] - cnt[lo], pos[hi] - pos[lo])
        return r

    rows = {}
    for o in ops:
        inc = inclusive(o)
        child = [inclusive(c) for c in o["children"]]
        row = rows.setdefault(o["name"], {"calls": 0})
        row["calls"] += 1
        for dev, (b, n, pb) in inc.items():
            sb = b - sum(c[dev][0] for c in child)
            sn = n - sum(c[dev][1] for c in child)
            spb = pb - sum(c[dev][2] for c in child)
            for key, value in (("mem", b), ("self_mem", sb), ("allocs", n), ("alloc_bytes", pb),
                               ("self_allocs", sn), ("self_alloc_bytes", spb)):
                row[dev + ":" + key] = row.get(dev + ":" + key, 0) + value
    # Memory outside every CPU-side event: "[memory]" rows.
    spans = sorted((o["t"], o["end"]) for o in ops)
    starts = [s for s, _ in spans]
    max_end, prefix_max = -1, []
    for _s, e in spans:
        max_end = max(max_end, e)
        prefix_max.append(max_end)
    for t, _, dev, b, _total, _thread in mem:
        k = bisect.bisect_right(starts, t)
        if k > 0 and prefix_max[k - 1] >= t:
            continue
        row = rows.setdefault("[memory]", {"calls": 0})
        row["calls"] += 1
        for key, value in (("mem", b), ("self_mem", b), ("allocs", 1 if b > 0 else 0),
                           ("alloc_bytes", b if b > 0 else 0), ("self_allocs", 1 if b > 0 else 0),
                           ("self_alloc_bytes", b if b > 0 else 0)):
            row[dev + ":" + key] = row.get(dev + ":" + key, 0) + value
    wanted = sys.argv[sys.argv.index("--ops") + 1:] if "--ops" in sys.argv else list(rows)
    out["ops"] = {name: rows[name] for name in wanted if name in rows}
    out["op_count"] = len(rows)
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
