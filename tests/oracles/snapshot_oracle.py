#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected numbers for a CUDA memory snapshot, computed independently of memviz with Python's
own pickle module (class lookups refused, so nothing in the file runs) and the semantics of
docs/formats-snapshot.md:

- allocated bytes per device: `alloc` adds its size, `free_completed` (or legacy `free`)
  subtracts the size of the allocation it frees; allocations made before the trace began (a
  free without an alloc, or an allocated block at the end without an alloc) form a baseline
  that allocated bytes start from;
- reserved bytes end at the total size of the final segments; segment_alloc/map add,
  segment_free/unmap subtract;
- times: ns from the earliest time_us when every entry has one, else the entry number;
- pinned host memory (host_segments, host_traces) is one more device, "pinned host".

  snapshot_oracle.py FILE.pickle   prints one JSON object, devices keyed by memviz's name
"""
import io
import json
import pickle
import sys


class PlainDataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def device_name(number):
    return "pinned host" if number == -1 else f"cuda:{number}"


def main():
    with open(sys.argv[1], "rb") as f:
        snap = PlainDataOnly(io.BytesIO(f.read())).load()
    if isinstance(snap, list):
        segments, traces = snap, []
    else:
        segments = list(snap.get("segments") or [])
        traces = list(enumerate(snap.get("device_traces") or []))
        # Pinned host memory: one more device, numbered -1.
        segments += [dict(s, device=-1) for s in snap.get("host_segments") or []]
        if snap.get("host_traces"):
            traces.append((-1, snap["host_traces"]))
    entries_all = [e for _, t in traces for e in (t or [])]
    timed = bool(entries_all) and all("time_us" in e for e in entries_all)
    t0 = min(e["time_us"] for e in entries_all) if timed else 0

    numbers = sorted({n for n, t in traces if t} | {s["device"] for s in segments})
    out = {"time_kind": "time" if timed else "index", "devices": {}}
    for n in numbers:
        trace = dict(traces).get(n) or []
        segs = [s for s in segments if s["device"] == n]
        counts = {}
        for e in trace:
            counts[e["action"]] = counts.get(e["action"], 0) + 1

        # Block addresses: given, or the segment address plus the sizes of the blocks before.
        blocks = []
        for s in segs:
            addr = s["address"]
            for b in s["blocks"]:
                a = b.get("address", addr)
                req = b.get("requested_size")
                if req is None:
                    hist = b.get("history") or []
                    req = hist[0].get("real_size", b["size"]) if hist else b["size"]
                blocks.append((a, b["size"], req, b.get("state")))
                addr = a + b["size"]

        live, freed, baseline, base_blocks, running = {}, set(), 0, 0, 0
        after = []
        for e in trace:
            act = e["action"]
            if act == "alloc":
                if e["addr"] in live:
                    running -= live.pop(e["addr"])
                freed.discard(e["addr"])
                live[e["addr"]] = e["size"]
                running += e["size"]
            elif act in ("free_completed", "free"):
                if e["addr"] in live:
                    running -= live.pop(e["addr"])
                    freed.add(e["addr"])
                elif e["addr"] not in freed:
                    baseline += e["size"]
                    base_blocks += 1
                    running -= e["size"]
                    freed.add(e["addr"])
            after.append(running)
        active_req = pending_req = active_size = 0
        for a, size, req, state in blocks:
            if state not in ("active_allocated", "active_pending_free"):
                continue
            if state == "active_allocated":
                active_req += req
                active_size += size
            else:
                pending_req += req
            if a in live:
                del live[a]
            else:
                baseline += req
                base_blocks += 1
        values = [baseline + v for v in after]
        peak, peak_index = baseline, -1
        for i, v in enumerate(values):
            if v > peak:
                peak, peak_index = v, i
        times = [(e["time_us"] - t0) * 1000 for e in trace] if timed else list(range(len(trace)))

        reserved_final = sum(s["total_size"] for s in segs)
        delta = 0
        for e in trace:
            if e["action"] in ("segment_alloc", "segment_map"):
                delta += e["size"]
            elif e["action"] in ("segment_free", "segment_unmap"):
                delta -= e["size"]

        out["devices"][device_name(n)] = {
            "entries": len(trace),
            "actions": counts,
            "allocs": counts.get("alloc", 0),
            "frees": counts.get("free_completed", 0) + counts.get("free", 0),
            "baseline_bytes": baseline,
            "baseline_blocks": base_blocks,
            "peak_bytes": peak,
            "peak_seq": peak_index,
            "peak_time_ns": times[peak_index] if peak_index >= 0 else 0,
            "final_bytes": values[-1] if values else baseline,
            "segments": len(segs),
            "reserved_final": reserved_final,
            "reserved_initial": reserved_final - delta,
            "active_requested": active_req,
            "active_bytes": active_size,
            "pending_requested": pending_req,
            "ooms": counts.get("oom", 0),
            "duration": max(times) if times else 0,
        }
    annotations = [] if isinstance(snap, list) else (snap.get("external_annotations") or [])
    out["annotations"] = len(annotations)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
