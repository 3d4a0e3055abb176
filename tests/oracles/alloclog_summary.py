#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for the memviz allocation log (docs/formats.md), standard library only.

Reads a CSV or JSON Lines log (optionally gzip-compressed) and prints, as JSON, the canonical
summary per device and the per-operator table, applying the documented semantics:
- times become ns from the first record; a record earlier than its predecessor is drawn at
  the predecessor's time;
- a free pairs with the live allocation at the same address on the same device; an
  unmatched free changes nothing; an alloc at a live address first frees the old block;
- a free is attributed to the operator named on the free record, else to the allocating one;
- what each operator holds at a device's peak (when it is first reached): the live blocks
  then, each under the operator that allocated it ("ops_at_peak").

usage: alloclog_summary.py LOG [--range BEGIN:END]
"""
import csv
import gzip
import io
import json
import sys

UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}


def to_ns(text, unit):
    text = str(text).strip()
    if any(c in text for c in ".eE"):
        return int(round(float(text) * unit))
    return int(text) * unit


def address(value):
    value = str(value).strip()
    return int(value, 16) if value.lower().startswith("0x") else int(value)


def records(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8")
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    if lines[0].lstrip().startswith("{"):
        header = json.loads(lines[0])
        unit = UNITS[header["time_unit"]]
        for line in lines[1:]:
            r = json.loads(line)
            yield (to_ns(r["time"], unit), r["action"], address(r["address"]), r.get("size"),
                   r.get("device") or "cpu", r.get("op") or "")
        return
    reader = csv.reader(io.StringIO("\n".join(lines)))
    head = [h.strip().lower() for h in next(reader)]
    tcol = next(i for i, h in enumerate(head) if h.startswith("time_"))
    unit = UNITS[head[tcol][5:]]
    col = {h: i for i, h in enumerate(head)}
    for row in reader:
        size = row[col["size"]].strip()
        get = lambda name: row[col[name]].strip() if name in col else ""
        yield (to_ns(row[tcol], unit), get("action"), address(get("address")), int(size) if size else None,
               get("device") or "cpu", get("op"))


def main():
    path = sys.argv[1]
    window = None
    if "--range" in sys.argv:
        b, e = sys.argv[sys.argv.index("--range") + 1].split(":")
        window = (int(b), int(e))
    devices, order, ops = {}, [], {}
    origin, last_t = None, 0
    for t, action, addr, size, device, op in records(path):
        if origin is None:
            origin = t
        t = max(t - origin, last_t)
        last_t = t
        if device not in devices:
            devices[device] = {"live": {}, "bytes": 0, "events": 0, "allocs": 0, "frees": 0, "unmatched": 0,
                               "peak": 0, "peak_t": 0, "peak_ops": {}}
            order.append(device)
        d = devices[device]
        in_window = window is None or window[0] <= t <= window[1]

        def op_row(name):
            return ops.setdefault(name or "(no operator)", {"allocs": 0, "frees": 0, "allocated": 0, "freed": 0,
                                                            "largest": 0})

        d["events"] += 1
        if action == "alloc":
            d["allocs"] += 1
            if addr in d["live"]:  # implicit free of the block this alloc replaces
                old_size, old_op = d["live"].pop(addr)
                d["bytes"] -= old_size
                if in_window:
                    r = op_row(old_op)
                    r["frees"] += 1
                    r["freed"] += old_size
            d["live"][addr] = (size, op)
            d["bytes"] += size
            if in_window:
                r = op_row(op)
                r["allocs"] += 1
                r["allocated"] += size
                r["largest"] = max(r["largest"], size)
        else:
            d["frees"] += 1
            if addr in d["live"]:
                old_size, old_op = d["live"].pop(addr)
                d["bytes"] -= old_size
                if in_window:
                    r = op_row(op or old_op)
                    r["frees"] += 1
                    r["freed"] += old_size
            else:
                d["unmatched"] += 1
        if d["bytes"] > d["peak"]:
            d["peak"], d["peak_t"] = d["bytes"], t
            held = {}
            for block_size, block_op in d["live"].values():
                held[block_op or "(no operator)"] = held.get(block_op or "(no operator)", 0) + block_size
            d["peak_ops"] = held
    out = {"duration_ns": last_t, "devices": [], "ops": {}}
    for name in order:
        d = devices[name]
        out["devices"].append({"device": name, "events": d["events"], "allocs": d["allocs"], "frees": d["frees"],
                               "unmatched_frees": d["unmatched"], "peak_bytes": d["peak"],
                               "peak_time_ns": d["peak_t"], "final_bytes": d["bytes"], "duration_ns": last_t,
                               "ops_at_peak": d["peak_ops"]})
    out["ops"] = ops
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
