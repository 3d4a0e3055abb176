#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a tool's output says, as one line for bench/peers/run.sh's answer column (standard
library only). Reads the output from stdin, prints the answer (nothing when there is none).

  answers.py summary            `memviz summary --json` after an import: per device peak and
                                final bytes; for CUDA snapshots the recorded segments and
                                reserved bytes from `memviz allocator-replay --json` (appended
                                to the same stdin)
  answers.py record-native      `memviz record --native --json`: heaptrack's calls, peak and
                                leaked bytes, and the process' peak RSS from /proc
  answers.py estimate           `memviz estimate --config --json`: parameters, its reading of
                                accelerate's figure, and its own predicted peak
  answers.py memray-stats       `memray stats`: total allocations, peak memory usage
  answers.py line               the last line that starts with "answer: " (the Python peers)
"""
import json
import re
import sys


def documents(text):
    """The JSON documents one after another in text."""
    decoder, i, docs = json.JSONDecoder(), 0, []
    while True:
        i = text.find("{", i)
        if i < 0:
            return docs
        doc, i = decoder.raw_decode(text, i)
        docs.append(doc)


def main():
    kind, text = sys.argv[1], sys.stdin.read()
    if kind == "line":
        lines = [line[len("answer: "):] for line in text.splitlines() if line.startswith("answer: ")]
        if lines:
            print(lines[-1])
        return
    docs = documents(text) if kind != "memray-stats" else []
    if kind == "summary" and docs:
        parts = [f"{d['device']}: peak {d['peak_bytes']:,} B, final {d['final_bytes']:,} B" for d in docs[0]["devices"]]
        for replay in docs[1:]:
            for d in replay.get("devices", []):
                rec = d.get("recorded", {})
                if "segments" in rec:
                    parts.append(f"{rec['segments']} segments, reserved {rec['reserved_end']:,} B")
        print("; ".join(parts))
    elif kind == "record-native" and docs:
        h, proc = docs[0].get("heaptrack", {}), docs[0]["devices"][0]
        print(f"heaptrack: {h.get('calls', 0):,} calls, peak heap {h.get('peak_bytes', 0) / 1e6:.1f} MB, "
              f"leaked {h.get('leaked_bytes', 0) / 1e6:.1f} MB; /proc peak RSS {proc['peak_bytes'] / 1e6:.1f} MB")
    elif kind == "estimate" and docs:
        d = docs[0]
        print(f"{d['parameter_count'] / 1e6:,.2f}M parameters, fp32 {d['breakdown']['parameters_bytes'] / 1e9:.3f} GB; "
              f"accelerate's rule {d['peers']['accelerate_bytes'] / 1e9:.3f} GB; "
              f"its own peak {d['peak_bytes_per_device'] / 1e9:.3f} GB ({d['mode']}, batch {d['micro_batch']}, seq {d['sequence']})")
    elif kind == "memray-stats":
        total = re.search(r"Total allocations:\s*([\d,]+)", text)
        peak = re.search(r"Peak memory usage:\s*(\S+)", text)
        if total and peak:
            print(f"{int(total.group(1).replace(',', '')):,} allocations, peak {peak.group(1)}")


if __name__ == "__main__":
    main()
