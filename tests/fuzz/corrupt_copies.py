#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Damaged copies of a real file, as a new user meets them: each copy has one random byte
changed (to a different random value), and `memviz import` is run on it. Counts how the
runs ended: imported, refused with an error (exit status 1), crashed (killed by a signal,
or a sanitizer report), or hung (past --timeout). Crashing copies are kept for replay.

    corrupt_copies.py --memviz build/app/memviz FILE [--copies 200] [--seed 1]
                      [--format ID] [--keep DIR] [--timeout 60]

A gzip FILE is decompressed first (damage to the compressed bytes only tests zlib).
Exit status: 0 when no copy crashed or hung, 1 otherwise. Standard library only.
"""
import argparse
import collections
import gzip
import os
import random
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--memviz", required=True, help="the memviz binary")
    ap.add_argument("--copies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--format", default="", help="importer id (default: sniffed, as the window does)")
    ap.add_argument("--keep", default="", help="folder for the copies that crashed or hung")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()

    with open(args.file, "rb") as f:
        data = f.read()
    name = os.path.basename(args.file)
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
        name = name[:-3] if name.endswith(".gz") else name
    if not data:
        sys.exit("the file is empty")

    rng = random.Random(args.seed)
    outcomes = collections.Counter()
    bad = []
    work = tempfile.mkdtemp(prefix="memviz-corrupt-")
    try:
        for i in range(args.copies):
            offset = rng.randrange(len(data))
            value = rng.choice([b for b in range(256) if b != data[offset]])
            copy = bytearray(data)
            copy[offset] = value
            path = os.path.join(work, name)
            with open(path, "wb") as f:
                f.write(copy)
            db = os.path.join(work, "copy.memviz")
            for leftover in (db, db + "-wal", db + "-shm"):
                if os.path.exists(leftover):
                    os.remove(leftover)
            cmd = [args.memviz, "import", path, "--db", db]
            if args.format:
                cmd += ["--format", args.format]
            try:
                run = subprocess.run(cmd, capture_output=True, timeout=args.timeout, text=True, errors="replace")
                rc = run.returncode
                err = run.stderr
            except subprocess.TimeoutExpired:
                rc = None
                err = ""
            if rc is None:
                kind = "hung"
            elif rc < 0 or "Sanitizer" in err or "runtime error:" in err:
                kind = "crashed"
            elif rc == 0:
                kind = "imported"
            elif rc == 1:
                kind = "refused"
            else:
                kind = "exit %d" % rc
            outcomes[kind] += 1
            if kind in ("crashed", "hung") or kind.startswith("exit"):
                detail = "signal %d" % -rc if rc is not None and rc < 0 else kind
                bad.append((i, offset, data[offset], value, detail, err.strip().splitlines()[-1:] if err else []))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    shutil.copy(path, os.path.join(args.keep, "copy%04d-byte%d-%02x.%s" % (i, offset, value, name)))
            elif kind == "refused":
                last = err.strip().splitlines()[-1] if err.strip() else ""
                if "a int" in last:
                    outcomes["refused with 'a int'"] += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("%s: %d copies, one byte changed each (seed %d)" % (args.file, args.copies, args.seed))
    for kind, n in sorted(outcomes.items()):
        print("  %-10s %5d  (%.1f%%)" % (kind, n, 100.0 * n / args.copies))
    for i, offset, old, new, detail, last in bad:
        print("  copy %d: byte %d 0x%02x -> 0x%02x: %s %s" % (i, offset, old, new, detail, " ".join(last)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
