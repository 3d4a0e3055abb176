#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The peers that bench/peers/run.sh times in the pinned PyTorch 2.x environment
(packaging/install-py-deps.sh), beside `memviz import` and `memviz estimate` (benchmark, not a
test). Each prints one line "answer: ..." to stdout: what the tool says about the file, for the
table's answer column.

  peers_torch2.py memory_viz CMD FILE [OUT]
      torch.cuda._memory_viz as its command line runs CMD (python -m torch.cuda._memory_viz CMD
      FILE): pickle.load of the snapshot (torch's own reader: it executes what the pickle names,
      so only files you trust), then
        stats         segsum(): the segments, total reserved and allocated
        memory        memory()'s flame graph lines (every block by stream, state and stack)
        segments      segments()'s flame graph lines (the same by segment)
        trace_plot    trace_plot(): the HTML page of the allocations over time (to OUT)
        segment_plot  segment_plot(): the HTML page of the segments (to OUT)
      memory and segments stop before flamegraph.pl (the command line downloads that Perl
      script when it is missing; there is no network here): the lines are what it would draw.
  peers_torch2.py hta_trace FILE
      HolisticTraceAnalysis: TraceAnalysis over one kineto trace (its parse into a DataFrame)
  peers_torch2.py hta_memory FILE
      HolisticTraceAnalysis's MemoryAnalysis over an export_memory_timeline .raw.json.gz: the
      bytes per category over time, and their peak
  peers_torch2.py accelerate CONFIG
      `accelerate estimate-memory`'s own code (accelerate.commands.estimate.gather_data) on a
      local config.json: the command looks the model up on the Hugging Face Hub first, so that
      lookup is answered from the file; the model is built on the meta device (no weights)
"""
import json
import os
import re
import shutil
import sys
import tempfile
import types


def memory_viz(cmd, path, out=None):
    import pickle
    from torch.cuda import _memory_viz
    with open(path, "rb") as f:
        data = pickle.load(f)  # torch's own reader, as `python -m torch.cuda._memory_viz` does
    if cmd == "stats":
        text = _memory_viz.segsum(data)
        picked = [line for line in text.splitlines()
                  if line.startswith(("segments:", "total_reserved:", "total_allocated:"))]
        print("answer: " + ", ".join(picked))
    elif cmd in ("memory", "segments"):
        lines = getattr(_memory_viz, cmd)(data, format_flamegraph=lambda text: text)
        total = allocated = 0
        for line in lines.splitlines():
            if not line.strip():
                continue
            path, size = line.rsplit(" ", 1)
            total += int(size)
            parts = path.split(";")
            # stream;[seg;]state;frames...: the blocks in use, their rounding (<gaps>) aside
            state = parts[1] if cmd == "memory" else parts[2]
            if state == "active_allocated" and parts[-1] != "<gaps>":
                allocated += int(size)
        print(f"answer: {len(lines.splitlines()):,} lines, {total:,} B, {allocated:,} B active_allocated")
    elif cmd in ("trace_plot", "segment_plot"):
        html = getattr(_memory_viz, cmd)(data)
        with open(out or os.devnull, "w") as f:
            f.write(html)
        print(f"answer: HTML page of {len(html.encode()) / 1e6:,.1f} MB")
    else:
        sys.exit(f"unknown _memory_viz command {cmd}")


def hta_trace(path):
    import logging
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis
    path = os.path.abspath(path)
    analysis = TraceAnalysis(trace_files={0: path}, trace_dir=os.path.dirname(path))
    df = analysis.t.get_trace(0)
    names = analysis.t.symbol_table.sym_table
    memory = sum(1 for i in df["name"] if names[i] == "[memory]")
    print(f"answer: {len(df):,} events kept, {memory:,} of them [memory]")


def hta_memory(path):
    from hta.memory_analysis import MemoryAnalysis
    times, sizes = MemoryAnalysis(path)._process_raw_events()
    totals = [sum(s) for s in sizes]
    peak = max(totals) if totals else 0
    print(f"answer: peak {peak:,} B over {len(times):,} times")


def accelerate_estimate(config):
    from accelerate.commands import estimate
    with open(config) as f:
        doc = json.load(f)
    folder = tempfile.mkdtemp()
    try:
        shutil.copy(config, os.path.join(folder, "config.json"))
        # The Hub lookup answered from the file: the library and the config it would return.
        estimate.verify_on_hub = lambda repo, token=None: types.SimpleNamespace(library_name="transformers", config=doc)
        args = types.SimpleNamespace(model_name=folder, library_name="transformers", trust_remote_code=False,
                                     dtypes=["float32"])
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            rows = estimate.gather_data(args)
    finally:
        shutil.rmtree(folder)
    _, largest, total, training = rows[0]
    adam = max(training.values())
    print(f"answer: {total / 4 / 1e6:,.2f}M parameters, fp32 {total / 1e9:.3f} GB, "
          f"Training using Adam {adam / 1e9:.3f} GB, largest layer {largest / 1e6:.1f} MB")


def main():
    mode = sys.argv[1]
    if mode == "memory_viz":
        memory_viz(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif mode == "hta_trace":
        hta_trace(sys.argv[2])
    elif mode == "hta_memory":
        hta_memory(sys.argv[2])
    elif mode == "accelerate":
        accelerate_estimate(sys.argv[2])
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
