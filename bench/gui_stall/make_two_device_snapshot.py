#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a big two-device CUDA memory snapshot for the GUI-stall benchmark (bench/gui_stall).

  make_two_device_snapshot.py OUT.pickle [--entries 5600000] [other make_big_snapshot.py options]

Runs tools/bench-snapshot/make_big_snapshot.py and, just before it pickles, gives the snapshot
a second device (cuda:1) whose trace and segments are the first device's. The trace list is the
same Python object, so the pickle stores it once (a memo reference) and the file barely grows,
while memviz imports two devices of ~1.87M allocations each (5.6M entries) to switch between.
Standard library only; keep the output out of the repository (e.g. in /tmp).
"""
import os
import pickle
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "..", "..", "tools", "bench-snapshot", "make_big_snapshot.py")

_dump = pickle.dump


def dump_with_second_device(snapshot, f, protocol=None):
    snapshot["device_traces"] = [snapshot["device_traces"][0], snapshot["device_traces"][0]]
    snapshot["segments"] = snapshot["segments"] + [dict(s, device=1) for s in snapshot["segments"]]
    _dump(snapshot, f, protocol=protocol)


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    if "--entries" not in args:
        args += ["--entries", "5600000"]
    pickle.dump = dump_with_second_device
    sys.argv = [GENERATOR] + args
    runpy.run_path(GENERATOR, run_name="__main__")


if __name__ == "__main__":
    main()
