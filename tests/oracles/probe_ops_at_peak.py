#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for what each operator holds at the peak of a probe recording in op mode
(docs/formats.md, "The PyTorch probe stream"), standard library only (sqlite3, json).

Reads the recording's own tables, as the probe's lines left them (live_samples: the device's
allocated bytes before and after each call; live_storages: each storage an operator's call
made, its size and when it was released), and applies the documented rules:
- the peak is the largest sample of the device's "allocated" series, at its first time;
- an operator holds, at that time, the storages it made (t_alloc <= peak) not yet released
  (t_free absent, or at the peak or later: the peak is read before a release at its time).

usage: probe_ops_at_peak.py STORE TRACE_ID DEVICE   prints {"peak_bytes", "peak_time_ns", "ops"}
"""
import json
import sqlite3
import sys


def main():
    store, trace, device = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    db = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    (series,) = db.execute("SELECT series FROM live_series WHERE trace_id = ? AND device = ? AND name = 'allocated'",
                           (trace, device)).fetchone()
    peak, peak_t = None, None
    for t, v in db.execute("SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? ORDER BY t, rowid",
                           (trace, series)):
        if peak is None or v > peak:
            peak, peak_t = v, t
    ops = {}
    for op, size, t_alloc, t_free in db.execute(
            "SELECT op, bytes, t_alloc, t_free FROM live_storages WHERE trace_id = ? AND device = ?", (trace, device)):
        if t_alloc <= peak_t and (t_free is None or t_free >= peak_t):
            ops[op] = ops.get(op, 0) + size
    print(json.dumps({"peak_bytes": peak, "peak_time_ns": peak_t, "ops": ops}, sort_keys=True))


if __name__ == "__main__":
    main()
