#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the allocator-replay tables of docs/costmodel.md ("Allocator replay").

Runs `memviz allocator-replay FILE --json` on every CUDA snapshot with traced allocations in
the shared fixtures (fixtures/pytorch-snapshot/*.pickle and the snapshots of fixtures/wild/
listed in tests/wild/MANIFEST.tsv), and replaces the text between the markers
<!-- allocator-replay-table:begin --> and <!-- allocator-replay-table:end --> with one row per
file: its repository, GPU, PyTorch, phase, the recorded and predicted reserved peak, the error,
and whether the final segments and split blocks came out exact.

With --wild DIR (default: the folder tests/wild/fetch.sh fills, ~/.cache/memviz/wild) it also
writes a second table between <!-- allocator-replay-wild:begin --> and
<!-- allocator-replay-wild:end -->: the manifest's snapshots that are in DIR and not in the
shared fixtures, one row per traced device, with the file's expandable segments, streams,
releases and OOMs, and a Notes column that explains each miss (the replay's own notes). A
manifest row whose file is not in DIR is listed as not fetched. --no-wild skips it.

Usage: replay_table.py [--memviz PATH] [--fixtures DIR] [--wild DIR | --no-wild] [--doc FILE] [--print]
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
WILD_BEGIN = "<!-- allocator-replay-wild:begin -->"
WILD_END = "<!-- allocator-replay-wild:end -->"


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


def replay(memviz, path):
    out = subprocess.run([memviz, "allocator-replay", path, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"{path}: {out.stderr.strip()}", file=sys.stderr)
        return None
    return json.loads(out.stdout)["devices"]


def exact_of(dev):
    return dev["exact"]["reserved_peak"] and dev["exact"]["reserved_end"] and dev["exact"]["final_segments"]


def wild_table(memviz, wild, fixtures):
    """The manifest's snapshots in WILD that the shared fixtures do not hold."""
    lines = [
        "| File | Repository | Commit | PyTorch | Device | Entries | Expandable | Streams | Releases | OOMs "
        "| Recorded reserved peak | Predicted | Error | Reserved at end | Final segments | Split blocks "
        "| Placed at the recorded address | Notes |",
        "|---|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|---|",
    ]
    shared = {os.path.basename(rel) for rel in manifest_rows() if os.path.exists(os.path.join(fixtures, rel))}
    counts = {"plain": [0, 0], "expandable": [0, 0]}
    missing = []
    untraced = 0
    for rel, row in sorted(manifest_rows().items()):
        name = row["name"]
        if name.startswith("shared:") or name in shared:
            continue
        path = os.path.join(wild, name)
        if not os.path.exists(path):
            missing.append(name)
            continue
        devices = replay(memviz, path)
        if devices is None:
            continue
        traced = [d for d in devices if d["traced"] and d["allocs"] > 0]
        untraced += not traced
        for dev in traced:
            rec, pred = dev["recorded"], dev["predicted"]
            err = (pred["reserved_peak"] - rec["reserved_peak"]) / rec["reserved_peak"] if rec["reserved_peak"] else 0.0
            ok = exact_of(dev)
            kind = "expandable" if dev.get("expandable_segments") else "plain"
            counts[kind][0] += ok
            counts[kind][1] += 1
            notes = dev["notes"] or ["–"]
            lines.append(
                f"| {name} | {row['repo']} | {row['commit'][:8]} | {row['version'].split(' ')[0]} | {dev['device']} "
                f"| {dev['entries']:,} | {'yes' if dev.get('expandable_segments') else 'no'} | {dev.get('streams', 1)} "
                f"| {dev.get('releases', 0)} | {dev.get('oom_entries', 0)} "
                f"| {mib(rec['reserved_peak'])} | {mib(pred['reserved_peak'])} | {err:+.1%} "
                f"| {'exact' if dev['exact']['reserved_end'] else 'differs'} "
                f"| {dev['segments_matched']}/{rec['segments']}{' exact' if dev['exact']['final_segments'] else ''} "
                f"| {dev['blocks_matched']}/{rec['blocks']}{' exact' if dev['exact']['final_blocks'] else ''} "
                f"| {dev['placements_matched']:,}/{dev['allocs']:,} | {'; '.join(notes)} |")
    lines.append("")
    lines.append(
        f"Exact (reserved peak, reserved at the end and final segments): {counts['plain'][0]} of {counts['plain'][1]} "
        f"traced devices without expandable segments, {counts['expandable'][0]} of {counts['expandable'][1]} with them. "
        f"{untraced} fetched snapshots have no traced allocations (nothing to replay); "
        f"{len(missing)} manifest snapshots were not fetched.")
    return "\n".join(lines), counts


def replace_between(doc, begin, end, table):
    if begin not in doc or end not in doc:
        raise SystemExit(f"the markers {begin} and {end} are missing")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + table + "\n" + end + tail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memviz", default=find_memviz())
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(CHECKOUT), "shared", "fixtures"))
    ap.add_argument("--wild", default=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "memviz", "wild"))
    ap.add_argument("--no-wild", action="store_true", help="write only the shared fixtures' table")
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
        devices = replay(args.memviz, path)
        if devices is None:
            continue
        for dev in devices:
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
    wild = None if args.no_wild or not os.path.isdir(args.wild) else wild_table(args.memviz, args.wild, args.fixtures)
    if args.print:
        print(table)
        if wild:
            print()
            print(wild[0])
        return 0
    with open(args.doc) as f:
        doc = f.read()
    doc = replace_between(doc, BEGIN, END, table)
    if wild:
        doc = replace_between(doc, WILD_BEGIN, WILD_END, wild[0])
    with open(args.doc, "w") as f:
        f.write(doc)
    print(f"{args.doc}: {total} snapshots, {exact} exact" +
          (f"; wild: {wild[1]['plain'][0]}/{wild[1]['plain'][1]} plain, {wild[1]['expandable'][0]}/{wild[1]['expandable'][1]} expandable" if wild else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
