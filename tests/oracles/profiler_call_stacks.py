#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts what a torch.profiler Chrome trace says about call stacks and memory, with the
standard library only, for tst_profiler_stacks: the CPU-side op calls ("X" events of the
categories memviz reads as ops) whose args carry a "Call stack" (with_stack=True), how many
distinct stacks they have, the bytes the [memory] events allocate (sum of positive Bytes)
and how many memory events have an address. Prints JSON.

  profiler_call_stacks.py TRACE[.gz]
"""
import gzip
import json
import sys

CPU_SIDE = {"cpu_op", "Operator", "user_annotation", "cuda_runtime", "cuda_driver", "Runtime", "python_function"}


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    calls = 0
    stacks = set()
    allocated = 0
    with_address = 0
    for e in events:
        args = e.get("args") or {}
        if e.get("ph") == "X" and e.get("cat") in CPU_SIDE and "ts" in e and isinstance(args.get("Call stack"), str) \
                and args["Call stack"]:
            calls += 1
            stacks.add(args["Call stack"])
        if e.get("name") == "[memory]" and isinstance(args.get("Bytes"), int) and args["Bytes"] > 0:
            allocated += args["Bytes"]
        if e.get("name") == "[memory]" and "Addr" in args:
            with_address += 1
    print(json.dumps({"calls_with_stack": calls, "distinct_stacks": len(stacks), "allocated_bytes": allocated,
                      "memory_events_with_address": with_address}))


if __name__ == "__main__":
    main()
