#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the allocator-replay tables of docs/costmodel.md ("Allocator replay").

Runs `memviz allocator-replay FILE --json` on every CUDA snapshot with traced allocations in
the shared fixtures (fixtures/pytorch-snapshot/*.pickle and the snapshots of fixtures/wild/
listed in tests/wild/MANIFEST.tsv), and replaces the text between the markers
<!-- allocator-replay-table:begin --> and <!-- allocator-replay-table:end --> with one row per
file: its repository, GPU, PyTorch, phase, the recorded and predicted reserved peak, the error,
and whether the final segments and split blocks came out exact.

Usage: replay_table.py [--memviz PATH] [--fixtures DIR] [--doc FILE] [--print]
Defaults: the memviz beside the first build folder found in the checkout, ../shared/fixtures
next to the checkout, docs/costmodel.md. Python standard library only.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
BEGIN = "<!-- allocator-replay-table:begin -->"
END = "<!-- allocator-replay-table:end -->"


def find_memviz():
    for entry in sorted(os.listdir(CHECKOUT)):
        candidate = os.path.join(CHECKOUT, entry, "app", "memviz")
        if entry.startswith("build") and os.access(candidate, os.X_OK):
            return candidate
    return "memviz"


def manifest_rows():
    rows = {}
    with open(os.path.join(CHECKOUT, "tests", "wild", "MANIFEST.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["kind"] != "snapshot":
                continue
            name = row["name"]
            rel = name[len("shared:"):] if name.startswith("shared:") else "wild/" + name
            rows[rel] = row
    return rows


def phase_of(name):
    n = name.lower()
    if "training" in n or "fullstep" in n or "full_step" in n:
        return "full step"
    if "inference" in n or "forward" in n:
        return "forward"
    return "–"


def mib(n):
    return f"{n / 2**20:,.0f} MiB" if n % 2**20 == 0 else f"{n / 2**20:,.2f} MiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memviz", default=find_memviz())
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(CHECKOUT), "shared", "fixtures"))
    ap.add_argument("--doc", default=os.path.join(CHECKOUT, "docs", "costmodel.md"))
    ap.add_argument("--print", action="store_true", help="print the table instead of writing the doc")
    args = ap.parse_args()

    lines = [
        "| File | Repository | GPU | PyTorch | Phase | Entries | Recorded reserved peak | Predicted | Error "
        "| Reserved at end | Segment events recorded / predicted | Final segments | Split blocks | Placed at the recorded address | Notes |",
        "|---|---|---|---|---|---:|---:|---:|---:|---|---:|---|---|---:|---|",
    ]
    exact = total = 0
    for rel, row in sorted(manifest_rows().items()):
        path = os.path.join(args.fixtures, rel)
        if not os.path.exists(path):
            continue
        out = subprocess.run([args.memviz, "allocator-replay", path, "--json"], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{rel}: {out.stderr.strip()}", file=sys.stderr)
            continue
        for dev in json.loads(out.stdout)["devices"]:
            if not dev["traced"] or dev["allocs"] == 0:
                continue
            rec, pred = dev["recorded"], dev["predicted"]
            err = (pred["reserved_peak"] - rec["reserved_peak"]) / rec["reserved_peak"] if rec["reserved_peak"] else 0.0
            ok = dev["exact"]["reserved_peak"] and dev["exact"]["reserved_end"] and dev["exact"]["final_segments"]
            total += 1
            exact += ok
            short = os.path.basename(rel)
            parts = short.split("__")
            short = "__".join(parts[2:]) if len(parts) > 2 else short
            lines.append(
                f"| {short} | {row['repo']} | not recorded | {row['version'].split(' ')[0]} | {phase_of(rel)} "
                f"| {dev['entries']:,} | {mib(rec['reserved_peak'])} | {mib(pred['reserved_peak'])} | {err:+.1%} "
                f"| {'exact' if dev['exact']['reserved_end'] else 'differs'} "
                f"| {rec['segment_events']} / {pred['segment_events']} "
                f"| {dev['segments_matched']}/{rec['segments']}{' exact' if dev['exact']['final_segments'] else ''} "
                f"| {dev['blocks_matched']}/{rec['blocks']}{' exact' if dev['exact']['final_blocks'] else ''} "
                f"| {dev['placements_matched']:,}/{dev['allocs']:,} | {'; '.join(dev['notes']) or '–'} |")
    lines.append("")
    lines.append(f"Exact (reserved peak, reserved at the end and final segments): {exact} of {total} traced snapshots.")
    table = "\n".join(lines)
    if args.print:
        print(table)
        return 0
    with open(args.doc) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        print(f"{args.doc}: the markers {BEGIN} and {END} are missing", file=sys.stderr)
        return 1
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(args.doc, "w") as f:
        f.write(head + BEGIN + "\n" + table + "\n" + END + tail)
    print(f"{args.doc}: {total} snapshots, {exact} exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
