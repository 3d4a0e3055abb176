#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns bench/peers/run.sh's timed runs into its markdown table (standard library only).

  table.py INPUTS RESULTS.tsv STAMP MACHINE COMMIT RUNS [NOTE]

INPUTS: one "kind|label|file|events" line per input, in the order of their numbers;
RESULTS.tsv: "input tool wall user sys rss_kib load1 ok [answer]" per run. The memviz row of an
input is its "memviz ..." tool other than the baseline (import, estimate, record --native); the
answer shown is the last run's.
"""
import os
import statistics
import sys


def mb(n):
    return f"{n / 1e6:,.1f} MB" if n < 1e9 else f"{n / 1e9:,.2f} GB"


def times(x):
    return f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"


def secs(x):
    return f"{x:.3f} s" if x < 1 else f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def main():
    inputs_path, results_path, stamp, machine, commit, runs = sys.argv[1:7]
    note = sys.argv[7] if len(sys.argv) > 7 else ""
    inputs = [line.rstrip("\n").split("|") for line in open(inputs_path) if line.strip()]
    runs_of = {}
    answer_of = {}
    for line in open(results_path):
        fields = line.rstrip("\n").split("\t")
        no, tool, wall, user, sys_, rss, load, ok = fields[:8]
        runs_of.setdefault((int(no), tool), []).append(
            (float(wall), float(user) + float(sys_), int(rss), float(load), ok == "1"))
        if len(fields) > 8 and fields[8].strip():
            answer_of[(int(no), tool)] = fields[8].strip().replace("|", "\\|")
    print(f"Measured {stamp} by `bench/peers/run.sh` ({runs} runs of each tool, alternating, each run starting with the next tool), commit {commit}; "
          f"machine: {machine}. Wall, CPU (user+sys) and peak RSS from `timed.py` "
          f"(wait4); load is the 1-minute load average before each run (min–max). The ratio is "
          f"memviz's median over the peer's median (wall; CPU); below 1 memviz is faster. "
          f"The answer is what the tool said of the input in its last run (`answers.py`)."
          + (f" {note}" if note else "") + "\n")
    print("| input | size | tool | wall median | wall min–max | CPU median | peak RSS | memviz / peer (wall; CPU) | load | answer |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for no, (kind, label, path, events) in enumerate(inputs):
        size = os.path.getsize(path)
        tools = [t for (n, t) in runs_of if n == no]
        mine_tool = next((t for t in sorted(tools) if t.startswith("memviz ") and "(baseline)" not in t), None)
        tools.sort(key=lambda t: t != mine_tool)
        mine = runs_of.get((no, mine_tool), [])
        mine_wall = statistics.median(r[0] for r in mine) if mine else None
        mine_cpu = statistics.median(r[1] for r in mine) if mine else None
        for k, tool in enumerate(tools):
            rs = runs_of[(no, tool)]
            failed = sum(not r[4] for r in rs)
            walls = [r[0] for r in rs]
            wall = statistics.median(walls)
            cpu = statistics.median(r[1] for r in rs)
            rss = statistics.median(r[2] for r in rs) * 1024
            loads = [r[3] for r in rs]
            if tool == "memviz import (baseline)" and mine_wall is not None:
                ratio = f"memviz / baseline: **{mine_wall / wall:.2f}×**; {mine_cpu / cpu:.2f}×"
            elif tool == mine_tool:
                ratio = f"{int(events) / wall / 1e6:.2f}M events/s" if events else ""
            elif mine_wall is not None and wall > 0 and cpu > 0:
                ratio = f"**{times(mine_wall / wall)}×**; {times(mine_cpu / cpu)}×"
            else:
                ratio = ""
            name = f"{label}" if k == 0 else ""
            note = f" ({failed} of {len(rs)} runs failed)" if failed else ""
            print(f"| {name} | {mb(size) if k == 0 else ''} | {tool}{note} | {secs(wall)} | "
                  f"{secs(min(walls))}–{secs(max(walls))} | {secs(cpu)} | {mb(rss)} | {ratio} | "
                  f"{min(loads):.1f}–{max(loads):.1f} | {answer_of.get((no, tool), '')} |")
    print()


if __name__ == "__main__":
    main()
