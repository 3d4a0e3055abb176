#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The oracles of the wild-corpus runner and how their figures are compared with memviz's.

ORACLES[kind](path) returns what the oracle says (never computed by memviz):
  snapshot     tests/oracles/snapshot_oracle.py (stdlib replay), plus, under /usr/bin/python3
               with PyTorch, tests/wild/oracles/snapshot_torch.py (torch.cuda._memory_viz)
  profiler     tests/oracles/profiler_key_averages.py
  memtimeline  tests/oracles/memory_timeline.py
  heaptrack    heaptrack_print (summary lines) and heaptrack_print -F --flamegraph-cost-type peak
  massif       ms_print
compare(kind, summary, expected, more) returns (differences, notes); `more(words)` runs a
further memviz subcommand on the imported store (e.g. ["ops", "--json"]).
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE_DIR = os.path.join(os.path.dirname(HERE), "oracles")
TORCH_PY = "/usr/bin/python3"
SUMMARY_KEYS = [("events", "events"), ("allocs", "allocs"), ("frees", "frees"), ("peak_bytes", "peak_bytes"),
                ("peak_time_ns", "peak_time_ns"), ("final_bytes", "final_bytes")]


def _run(cmd, timeout=600):
    r = subprocess.run(cmd, capture_output=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (os.path.basename(cmd[0 if cmd[0] != sys.executable else 1]),
                                              r.stderr.decode("utf-8", "replace").strip().split("\n")[-1][:200]))
    return r.stdout.decode("utf-8", "replace")


def _py_oracle(script, path):
    return json.loads(_run([sys.executable, os.path.join(ORACLE_DIR, script), path]))


_torch_ok = None


def torch_available():
    global _torch_ok
    if _torch_ok is None:
        _torch_ok = os.path.exists(TORCH_PY) and subprocess.run(
            [TORCH_PY, "-c", "import torch.cuda._memory_viz"], capture_output=True).returncode == 0
    return _torch_ok


def snapshot_oracle(path):
    e = _py_oracle("snapshot_oracle.py", path)
    if torch_available():
        try:
            e["torch"] = json.loads(_run([TORCH_PY, os.path.join(HERE, "oracles", "snapshot_torch.py"), path]))
        except Exception as ex:  # recorded, compared below
            e["torch_error"] = str(ex)
    return e


def heaptrack_oracle(path):
    exe = shutil.which("heaptrack_print")
    if not exe:
        raise RuntimeError("heaptrack_print is not installed")
    text = _run([exe, "-f", path, "-p", "1", "-a", "0", "-T", "0", "-l", "1", "-n", "5", "-s", "0"])
    out = {"calls": None, "peak": None, "leaked": None, "temporary": None, "top_peak": []}
    in_peak = False
    peak_header = re.compile(r"^(\S+) peak memory consumed over (\d+) calls from$")
    for line in text.split("\n"):
        if line == "PEAK MEMORY CONSUMERS":
            in_peak = True
        elif line and line.isupper():
            in_peak = False
        m = peak_header.match(line)
        if in_peak and m:
            out["top_peak"].append((m.group(1), int(m.group(2))))
        if line.startswith("calls to allocation functions: "):
            out["calls"] = int(line.split()[4])
        elif line.startswith("temporary memory allocations: "):
            out["temporary"] = int(line.split()[3])
        elif line.startswith("peak heap memory consumption: "):
            out["peak"] = line.split()[4]
        elif line.startswith("total memory leaked: "):
            out["leaked"] = line.split()[3]
    flame = _run_flame(exe, path)
    out["top_leaves"] = flame
    return out


def _run_flame(exe, path):
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".txt") as f:
        _run([exe, "-f", path, "-p", "0", "-a", "0", "-T", "0", "-l", "0", "-s", "0", "--flamegraph-cost-type", "peak",
              "-F", f.name])
        return top_leaves(open(f.name, encoding="utf-8", errors="replace").read())


def top_leaves(collapsed, n=5):
    by = {}
    total = 0
    for line in collapsed.split("\n"):
        if not line.strip():
            continue
        stack, _, cost = line.rpartition(" ")
        try:
            c = int(cost)
        except ValueError:
            continue
        leaf = stack.rstrip(";").split(";")[-1]  # heaptrack_print ends each stack with ";"
        by[leaf] = by.get(leaf, 0) + c
        total += c
    return {"total": total, "top": sorted(by.items(), key=lambda kv: (-kv[1], kv[0]))[:n]}


def heaptrack_bytes(b):
    """heaptrack_print's spelling of a byte count (tests/NativeToolOutput.h: heaptrackBytes)."""
    v, unit = float(b), 0
    units = ["B", "K", "M", "G", "T"]
    while unit < 4 and abs(v) > 1000.0:
        v /= 1000.0
        unit += 1
    return "%dB" % b if unit == 0 else "%.2f%s" % (v, units[unit])


def massif_oracle(path):
    exe = shutil.which("ms_print")
    if not exe:
        raise RuntimeError("ms_print is not installed")
    import tempfile
    sys.path.insert(0, HERE)
    from wildlib import unpack
    data = unpack(open(path, "rb").read())  # ms_print reads plain text only
    # A file checked in on Windows has CRLF line ends (git's autocrlf); ms_print stops at the
    # first "\r" ("expected 'empty' or '...'"), so it reads the file with LF line ends.
    data = data.replace(b"\r\n", b"\n")
    tmp = tempfile.NamedTemporaryFile(delete=False)
    tmp.write(data)
    tmp.close()
    src = tmp.name
    try:
        text = _run([exe, src])
    finally:
        os.unlink(tmp.name)
    out = {"snapshots": None, "peak": None, "rows": {}}
    row = re.compile(r"^\s*(\d+)\s+([\d,.]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s*$")
    for line in text.split("\n"):
        if line.startswith("Number of snapshots: "):
            out["snapshots"] = int(line[21:])
        elif line.startswith(" Detailed snapshots: ["):
            for part in line[22:].rstrip("]").split(", "):
                if part.endswith(" (peak)"):
                    out["peak"] = int(part[:-7])
        else:
            m = row.match(line)
            if m:
                out["rows"][int(m.group(1))] = int(m.group(3).replace(",", ""))
    return out


ORACLES = {
    "snapshot": snapshot_oracle,
    "profiler": lambda p: _py_oracle("profiler_key_averages.py", p),
    "memtimeline": lambda p: _py_oracle("memory_timeline.py", p),
    "heaptrack": heaptrack_oracle,
    "massif": massif_oracle,
}


def _devices(summary):
    return {d["device"]: d for d in summary.get("devices", [])}


def _compare_devices(got, want, keys, diffs):
    if set(got) != set(want):
        diffs.append("devices %s, oracle %s" % (sorted(got), sorted(want)))
    for name in sorted(set(got) & set(want)):
        for mk, ok in keys:
            if ok in want[name] and got[name].get(mk) != want[name][ok]:
                diffs.append("%s %s %s, oracle %s" % (name, mk, got[name].get(mk), want[name][ok]))


def compare(kind, summary, e, more):
    diffs, notes = [], []
    got = _devices(summary)
    if kind == "snapshot":
        want = {n: dict(d, events=d["entries"]) for n, d in e["devices"].items()}
        _compare_devices(got, want, SUMMARY_KEYS, diffs)
        t = e.get("torch")
        if t:
            for n, d in t["devices"].items():
                o = e["devices"].get(n, {})
                if "reserved" in d and d["reserved"] != o.get("reserved_final"):
                    diffs.append("oracles disagree: %s reserved torch %s, replay %s" % (n, d["reserved"],
                                                                                     o.get("reserved_final")))
                if d["active_allocated"] != o.get("active_bytes"):
                    diffs.append("oracles disagree: %s active torch %s, replay %s" % (n, d["active_allocated"],
                                                                                   o.get("active_bytes")))
                if "stats_refused" in d:
                    notes.append("torch stats(): " + d["stats_refused"])
            notes.append("torch %s agrees on the final segments" % t["torch"])
        elif e.get("torch_error"):
            notes.append("torch oracle: " + e["torch_error"])
    elif kind == "profiler":
        _compare_devices(got, e["devices"], SUMMARY_KEYS, diffs)
        status, text = more(["ops", "--json", "--limit", "1000000"])
        if status != 0:
            diffs.append("memviz ops failed")
        else:
            ops = json.loads(text)
            rows = {}
            for r in ops.get("ops", []):
                rows[r["name"]] = r
            if len(rows) != e["op_count"]:
                diffs.append("%d operators, oracle %d" % (len(rows), e["op_count"]))
            bad = []
            for name, w in e["ops"].items():
                r = rows.get(name)
                if r is None:
                    bad.append("%s missing" % name)
                    continue
                if r.get("calls") != w["calls"]:
                    bad.append("%s calls %s/%s" % (name, r.get("calls"), w["calls"]))
                for dev, m in (r.get("memory") or {}).items():
                    for key in ("mem", "self_mem", "allocs", "alloc_bytes", "self_allocs", "self_alloc_bytes"):
                        if m.get(key) != w.get(dev + ":" + key, 0):
                            bad.append("%s %s %s %s/%s" % (name, dev, key, m.get(key), w.get(dev + ":" + key, 0)))
            if bad:
                diffs.append("%d operator figures differ: %s" % (len(bad), ", ".join(bad[:3])))
            else:
                notes.append("%d operators equal" % len(rows))
    elif kind == "memtimeline":
        want = {n: e for n in got} if len(got) == 1 else {"?": e}
        _compare_devices(got, want, [("peak_bytes", "peak_bytes"), ("peak_time_ns", "peak_time_ns"),
                                     ("final_bytes", "final_bytes"), ("allocs", "allocs"), ("frees", "frees")], diffs)
    elif kind == "heaptrack":
        if len(got) < 1:
            diffs.append("no device")
        else:
            d = next(iter(got.values()))
            if d.get("allocs") != e["calls"]:
                diffs.append("allocs %s, heaptrack_print calls %s" % (d.get("allocs"), e["calls"]))
            if heaptrack_bytes(d.get("peak_bytes", 0)) != e["peak"]:
                diffs.append("peak %s (%s), heaptrack_print %s" % (d.get("peak_bytes"),
                                                                   heaptrack_bytes(d.get("peak_bytes", 0)), e["peak"]))
            status, text = more(["stacks", "--metric", "peak", "--fold", "none"])
            if status == 0:
                mine = top_leaves(text)
                if mine["total"] != e["top_leaves"]["total"]:
                    diffs.append("peak by stacks %s, heaptrack_print -F %s" % (mine["total"], e["top_leaves"]["total"]))
            else:
                notes.append("memviz stacks: no stacks")
            # The sites (heaptrack_print's PEAK MEMORY CONSUMERS): read from the store with SQL.
            import sqlite3
            con = sqlite3.connect("file:%s?mode=ro" % summary["_db"], uri=True)
            rows = con.execute("SELECT peak_bytes, allocations FROM heaptrack_sites WHERE trace_id = ? "
                               "ORDER BY peak_bytes DESC LIMIT ?", (summary.get("trace_id", 1),
                                                                    len(e["top_peak"]))).fetchall()
            con.close()
            mine = [heaptrack_bytes(p) for p, _ in rows]
            theirs = [b for b, _ in e["top_peak"]]
            if mine != theirs:
                diffs.append("top peak sites %s, heaptrack_print %s" % (mine, theirs))
            elif sorted(c for _, c in rows) != sorted(c for _, c in e["top_peak"]):
                diffs.append("top peak sites' calls %s, heaptrack_print %s" % ([c for _, c in rows],
                                                                                [c for _, c in e["top_peak"]]))
            else:
                notes.append("top %d peak sites equal" % len(rows))
    elif kind == "massif":
        d = next(iter(got.values())) if got else {}
        if e["peak"] is not None:
            want = e["rows"].get(e["peak"])
            if d.get("peak_bytes") != want:
                diffs.append("peak %s, ms_print's peak snapshot %s: %s" % (d.get("peak_bytes"), e["peak"], want))
        elif e["rows"]:
            notes.append("ms_print marks no peak snapshot")
        if e["snapshots"] is not None and d.get("events") != e["snapshots"]:
            notes.append("events %s, ms_print snapshots %s" % (d.get("events"), e["snapshots"]))
        if e["rows"]:
            last = e["rows"][max(e["rows"])]
            if d.get("final_bytes") != last:
                diffs.append("final %s, ms_print's last snapshot %s" % (d.get("final_bytes"), last))
    return diffs, notes
