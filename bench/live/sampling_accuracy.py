# SPDX-License-Identifier: MIT
"""How closely `memviz record` sees a program's known memory steps (docs/performance-live.md).

    python3 bench/live/sampling_accuracy.py BUILD_DIR [RUNS]

Runs tests/data/live/live_steps (built as BUILD_DIR/tests/live_steps: +64 MiB, hold 400 ms,
+64 MiB, hold, free both) under `memviz record` at 10, 20 and 100 ms, RUNS times each, and
prints per interval: the samples per second achieved, the error of the RssAnon levels
against the program's own 64 MiB steps (bytes), and the delay from the program finishing a
step (its CLOCK_MONOTONIC time) to the first sample showing it. Standard library only.
"""
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile

MIB = 1024 * 1024


def run(build, interval, tmp, i):
    store = os.path.join(tmp, "r%d-%d.memviz" % (interval, i))
    timeline = os.path.join(tmp, "t%d-%d.txt" % (interval, i))
    subprocess.run([os.path.join(build, "app/memviz"), "record", "--out", store, "--interval-ms", str(interval), "--",
                    os.path.join(build, "tests/live_steps"), "--timeline", timeline], check=True, stdout=subprocess.DEVNULL)
    tl = dict((k, int(v)) for k, v in (line.split() for line in open(timeline)))
    db = sqlite3.connect(store)
    start = int(db.execute("SELECT value FROM trace_metadata WHERE key = 'live_monotonic_start_ns'").fetchone()[0])
    pts = [(t + start, v) for t, v in db.execute(
        "SELECT t, value FROM live_samples JOIN live_series USING (trace_id, series) WHERE name = 'rss_anon' ORDER BY t")]
    duration = pts[-1][0] - pts[0][0]
    base = [v for t, v in pts if t < tl["alloc1_begin"]][-1]
    errors = []
    for a, b, steps in (("alloc1_end", "alloc2_begin", 1), ("alloc2_end", "free_begin", 2), ("free_end", "end", 0)):
        errors += [v - base - steps * 64 * MIB for t, v in pts if tl[a] + 60_000_000 <= t <= tl[b]]
    delays = []
    for end, level in (("alloc1_end", base + 64 * MIB), ("alloc2_end", base + 128 * MIB)):
        delays.append(next(t for t, v in pts if t >= tl[end] and v >= level) - tl[end])
    return len(pts) / (duration / 1e9), errors, delays


def main():
    build = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("| interval | samples/s (asked) | RssAnon error, all level samples | delay to see a step: median / max |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for interval in (10, 20, 100):
            rates, errors, delays = [], [], []
            for i in range(runs):
                rate, e, d = run(build, interval, tmp, i)
                rates.append(rate)
                errors += e
                delays += d
            err = "exact (0 B) in %d samples" % len(errors) if not any(errors) else \
                "min %d B, max %d B over %d samples" % (min(errors), max(errors), len(errors))
            print("| %d ms | %.1f (%.0f) | %s | %.1f ms / %.1f ms |" % (
                interval, statistics.median(rates), 1000 / interval, err,
                statistics.median(delays) / 1e6, max(delays) / 1e6))


if __name__ == "__main__":
    main()
