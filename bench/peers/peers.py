#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Python peers that bench/peers/run.sh times against `memviz import` (benchmark, not a test).

  peers.py pickle FILE      pickle.load of a snapshot (C unpickler; find_class refuses every global,
                            so the data is never executed)
  peers.py memory_viz FILE  the same load, then torch.cuda._memory_viz.segments()'s data preparation
                            (its flame graph lines, without running flamegraph.pl): what Debian's
                            PyTorch 1.13 can do with a snapshot (it has no trace_plot)
  peers.py json FILE        json.load of a profiler trace (what TensorBoard and HTA do first)

Files ending in .gz or .zst are decompressed as they are read (.zst needs the zstd program).
"""
import gzip
import io
import json
import pickle
import subprocess
import sys


class RefusingUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused global {module}.{name}")


def open_input(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.endswith(".zst"):
        return io.BytesIO(subprocess.run(["zstd", "-dc", path], check=True, stdout=subprocess.PIPE).stdout)
    return open(path, "rb")


def load_pickle(path):
    with open_input(path) as f:
        return RefusingUnpickler(f).load()


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "pickle":
        load_pickle(path)
    elif mode == "memory_viz":
        from torch.cuda import _memory_viz
        data = load_pickle(path)
        segments = data["segments"] if isinstance(data, dict) else data
        lines = _memory_viz.segments(segments, format_flamegraph=lambda text: text)
        print(len(lines), file=sys.stderr)
    elif mode == "json":
        with open_input(path) as f:
            json.load(f)
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
