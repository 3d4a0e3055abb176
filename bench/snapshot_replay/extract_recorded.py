#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Extracts the recorded per-phase allocated bytes of CUDA memory snapshots (the truth that
bench/snapshot_replay/model_table.py and tst_snapshot_model_replay hold the cost model to).

Reads each snapshot with Python's own pickle module (class lookups refused: nothing in the
file runs) and replays its trace of device 0 as docs/formats-snapshot.md describes it:
`alloc` adds its size, `free_completed` (or legacy `free`) subtracts it; blocks alive before
the trace began (in use in the final segments without an alloc in the trace, or freed in the
trace without one) form the baseline the curve starts from. Each entry gets a phase from its
stack: the optimizer step (a frame named `step` in a file ending in `optimizer.py` or
`optimizers.py` or under
`torch/optim/`), the backward (a frame of `torch::autograd::Engine` or `torch/_tensor.py`'s
`backward`; in a file without C++ frames, an allocation with no stack at all after
the first forward one), else the forward; phases only advance (forward, backward, step). Written per file:

  start            allocated when the trace begins
  forward_end      allocated at the last entry before the first backward entry
  forward_peak     highest allocated during the forward
  backward_peak    highest allocated during the backward (0 without one)
  step_peak        highest allocated during the optimizer step (0 without one)
  peak             highest allocated in the trace
  reserved_peak    highest reserved (final segments less the trace's segment events, walked)

Usage: extract_recorded.py [--fixtures DIR] [--wild DIR] [--out FILE.tsv] [--check FILE.tsv]
Defaults: ../shared/fixtures next to the checkout, the files named by the specs in
bench/snapshot_replay/specs/. A `wild/NAME` missing from the fixtures is looked up as NAME in
--wild (the folder tests/wild/fetch.sh fills, ~/.cache/memviz/wild). --check compares the rows
of the files that are present with a committed TSV (the others are skipped and counted) and
exits 1 on a difference; --out needs every file.
Python standard library only.
"""
import argparse
import io
import json
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
FIELDS = ["start", "forward_end", "forward_peak", "backward_peak", "step_peak", "peak", "reserved_peak"]


class PlainDataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def phase_of(entry, python_only):
    frames = entry.get("frames") or []
    if python_only and entry["action"] == "alloc" and not frames:
        return 1  # no Python stack: the autograd engine's thread (the file has no C++ frames)
    phase = 0
    for f in frames:
        name, fn = f.get("name", ""), f.get("filename", "").replace("\\", "/")
        if name == "step" and (fn.endswith(("optimizer.py", "optimizers.py")) or "torch/optim/" in fn):
            return 2
        if "autograd::Engine" in name or (name == "backward" and fn.endswith("torch/_tensor.py")):
            phase = 1
    return phase


def extract(path):
    with open(path, "rb") as f:
        snap = PlainDataOnly(io.BytesIO(f.read())).load()
    segs = [s for s in snap["segments"] if s.get("device", 0) == 0]
    trace = (snap.get("device_traces") or [[]])[0] or []
    live, freed, baseline, running = {}, set(), 0, 0
    values, phases = [], []
    phase = 0
    reserved = sum(s["total_size"] for s in segs)
    seg_delta = 0
    for e in trace:
        act = e["action"]
        if act in ("segment_alloc", "segment_map"):
            seg_delta += e["size"]
        elif act in ("segment_free", "segment_unmap"):
            seg_delta -= e["size"]
    reserved_now = reserved - seg_delta
    reserved_peak = reserved_now
    # Files recorded without C++ frames (Windows) show the backward as allocations with no
    # stack at all once a forward allocation (one with Python frames) was seen.
    python_only = not any("::" in f.get("name", "") for e in trace for f in e.get("frames") or [])
    seen_forward = False
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
                running -= e["size"]
                freed.add(e["addr"])
        elif act in ("segment_alloc", "segment_map"):
            reserved_now += e["size"]
        elif act in ("segment_free", "segment_unmap"):
            reserved_now -= e["size"]
        reserved_peak = max(reserved_peak, reserved_now)
        if e["action"] == "alloc" and e.get("frames"):
            seen_forward = True
        phase = max(phase, phase_of(e, python_only and seen_forward))
        values.append(running)
        phases.append(phase)
    for s in segs:
        addr = s["address"]
        for b in s["blocks"]:
            a = b.get("address", addr)
            addr = a + b["size"]
            if b.get("state") not in ("active_allocated", "active_pending_free"):
                continue
            if a in live:
                del live[a]
            else:
                req = b.get("requested_size", b["size"])
                baseline += req
    values = [baseline + v for v in values]
    out = dict.fromkeys(FIELDS, 0)
    out["start"] = baseline
    out["peak"] = max([baseline] + values)
    out["reserved_peak"] = reserved_peak
    first_bwd = next((i for i, p in enumerate(phases) if p >= 1), len(values))
    out["forward_end"] = values[first_bwd - 1] if first_bwd > 0 else baseline
    out["forward_peak"] = max([baseline] + values[:first_bwd])
    for key, ph in (("backward_peak", 1), ("step_peak", 2)):
        vs = [v for v, p in zip(values, phases) if p == ph]
        out[key] = max(vs) if vs else 0
    return out


def spec_files():
    d = os.path.join(HERE, "specs")
    rows = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".json"):
            with open(os.path.join(d, name)) as f:
                rows.append(json.load(f)["snapshot"])
    return sorted(set(rows))


def locate(name, fixtures, wild):
    path = os.path.join(fixtures, name)
    if os.path.exists(path):
        return path
    if wild and name.startswith("wild/"):
        path = os.path.join(wild, name[len("wild/"):])
        if os.path.exists(path):
            return path
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(CHECKOUT), "shared", "fixtures"))
    ap.add_argument("--wild", help="a folder of wild snapshots (tests/wild/fetch.sh's cache) for files not in --fixtures")
    ap.add_argument("--out", help="write the TSV here (default: standard output)")
    ap.add_argument("--check", help="compare with this committed TSV; exit 1 on a difference")
    ap.add_argument("files", nargs="*", help="snapshot paths under --fixtures, e.g. wild/NAME.pickle (default: the specs')")
    args = ap.parse_args()
    header = "file\t" + "\t".join(FIELDS)
    lines, missing = [header], []
    for name in args.files or spec_files():
        path = locate(name, args.fixtures, args.wild)
        if path is None:
            missing.append(name)
            continue
        r = extract(path)
        lines.append(name + "\t" + "\t".join(str(r[k]) for k in FIELDS))
    text = "\n".join(lines) + "\n"
    if args.check:
        with open(args.check) as f:
            committed = f.read().splitlines()
        rows = {l.split("\t", 1)[0]: l for l in committed[1:]}
        bad = [l for l in lines[1:] if rows.get(l.split("\t", 1)[0]) != l]
        if committed[:1] != [header] or bad:
            sys.stdout.write("\n".join([header] + bad) + "\n")
            print(f"{args.check}: {len(bad)} rows differ from the extraction above", file=sys.stderr)
            return 1
        absent = [m for m in missing if m not in rows]
        if absent:
            print(f"{args.check}: no row for {', '.join(absent)}", file=sys.stderr)
            return 1
        print(f"{args.check}: {len(lines) - 1} files, extraction equal; {len(missing)} not present here, skipped")
        return 0
    if missing:
        print("not found (give --fixtures or --wild): " + ", ".join(missing), file=sys.stderr)
        return 1
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
