#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The wild-corpus runner (issue 30): imports every file of tests/wild/MANIFEST.tsv that is
present on this machine with the built memviz, runs an oracle that does not use memviz, and
compares what both say; writes the table to docs/wild-corpus.md.

  run.py --memviz BUILD/app/memviz [--files DIR] [--only SUBSTRING] [--out docs/wild-corpus.md]
         [--no-write] [--jobs N]

Where files are looked for, in order: --files DIR, $MEMVIZ_WILD_FILES, tests/wild/files/,
${XDG_CACHE_HOME:-~/.cache}/memviz/wild (where fetch.sh puts them), ../shared/fixtures/wild/; the "shared:" rows in ../shared/fixtures/
(or $MEMVIZ_SHARED_FIXTURES).

Outcomes: equal | different: what | refused: memviz's message | crashed (a signal, a status
other than 0 and 1, or a timeout) | not present on this machine. Exit status 1 when a present
file crashed, differed, or was refused without being an expected refusal (EXPECTED_REFUSALS,
each documented in docs/formats*.md); with MEMVIZ_REQUIRE_ORACLES=1 also when a shared file or
an oracle tool is missing. Python 3 stdlib only; the snapshot's second oracle runs under
/usr/bin/python3 (Debian's PyTorch) when it is there.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from wildlib import read_manifest  # noqa: E402
from wildoracles import ORACLES, compare  # noqa: E402

# name (or a prefix of it) -> a piece of the message memviz must give; each one is explained
# in docs/formats*.md (the raw heaptrack data: docs/formats-native.md, "Raw data is refused by name").
EXPECTED_REFUSALS = {
    "KDE__heaptrack__tests__auto__test_sysroot__heaptrack.test_sysroot.raw":
        "raw heaptrack data",
}


def search_dirs(args):
    dirs = []
    for d in (args.files, os.environ.get("MEMVIZ_WILD_FILES"), os.path.join(HERE, "files"),
              os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "memviz", "wild"),
              os.path.join(shared_dir(), "wild")):
        if d and os.path.isdir(d):
            dirs.append(d)
    return dirs


def shared_dir():
    """$MEMVIZ_SHARED_FIXTURES, else the nearest <ancestor>/shared/fixtures (a worktree sits deeper)."""
    env = os.environ.get("MEMVIZ_SHARED_FIXTURES")
    if env and os.path.isdir(env):
        return env
    d = ROOT
    while os.path.dirname(d) != d:
        d = os.path.dirname(d)
        if os.path.isdir(os.path.join(d, "shared", "fixtures")):
            return os.path.join(d, "shared", "fixtures")
    return env or os.path.join(ROOT, "..", "shared", "fixtures")


def locate(row, dirs):
    if row["name"].startswith("shared:"):
        p = os.path.join(shared_dir(), row["name"][len("shared:"):])
        return p if os.path.isfile(p) else None
    for d in dirs:
        p = os.path.join(d, row["name"])
        if os.path.isfile(p):
            return p
    return None


def memviz_import(memviz, path, db, timeout):
    """(status or None for a timeout, stdout, stderr, ms, peak RSS MB) of `memviz import`.

    The peak RSS comes from /usr/bin/time when it is there: a child forked straight from this
    (large) Python process would report Python's own high-water mark (Linux keeps ru_maxrss
    across exec), so the figure must come from a grandchild of a small process.
    """
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    with tempfile.NamedTemporaryFile(suffix=".rss") as rss_file:
        cmd = [memviz, "import", path, "--db", db, "--json"]
        if os.access("/usr/bin/time", os.X_OK):
            cmd = ["/usr/bin/time", "-q", "-f", "%M", "-o", rss_file.name] + cmd
        start = time.monotonic()
        try:
            r = subprocess.run(cmd, capture_output=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, b"", b"timeout", timeout * 1000, 0
        ms = (time.monotonic() - start) * 1000
        try:
            kb = int(open(rss_file.name).read().strip().split("\n")[-1])
        except ValueError:
            kb = 0
    return r.returncode, r.stdout, r.stderr, ms, kb / 1024


def memviz_more(memviz, db, words):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([memviz, *words[:1], db, *words[1:]], capture_output=True, env=env, timeout=600)
    return r.returncode, r.stdout.decode("utf-8", "replace")


def judge(row, path, args):
    res = {"name": row["name"], "kind": row["kind"], "version": row["version"], "repo": row["repo"],
           "ms": None, "mb": None, "outcome": "", "difference": ""}
    with tempfile.TemporaryDirectory(prefix="wild-") as tmp:
        db = os.path.join(tmp, "t.memviz")
        status, out, err, ms, mb = memviz_import(args.memviz, path, db, args.timeout)
        res["ms"], res["mb"] = round(ms), round(mb, 1)
        message = err.decode("utf-8", "replace").strip().split("\n")[-1] if err else ""
        message = message.replace(os.path.dirname(path) + os.sep, "")  # no folder of this machine
        if status is None or status not in (0, 1):
            res["outcome"] = "crashed"
            res["difference"] = "status %s: %s" % (status, message[:200])
            return res
        if status == 1:
            res["outcome"] = "refused"
            res["difference"] = message[:300]
            return res
        try:
            summary = json.loads(out)
        except ValueError as e:
            res["outcome"] = "crashed"
            res["difference"] = "memviz printed no JSON summary: %s" % e
            return res
        summary["_db"] = db
        oracle = ORACLES[row["kind"]]
        try:
            expected = oracle(path)
        except Exception as e:  # the oracle could not read it: say so, do not count it equal
            res["outcome"] = "no oracle"
            res["difference"] = "%s: %s" % (type(e).__name__, str(e)[:200])
            return res
        diffs, notes = compare(row["kind"], summary, expected, lambda words: memviz_more(args.memviz, db, words))
        res["outcome"] = "different" if diffs else "equal"
        res["difference"] = "; ".join(diffs)[:400]
        res["notes"] = "; ".join(notes)[:300]
    return res


def write_table(results, rows, missing, args):
    kinds = ["snapshot", "profiler", "memtimeline", "heaptrack", "massif"]
    lines = ["# The wild corpus: real memory files against their oracles", "",
             "Written by `tests/wild/run.py` (issue 30); the files are listed in",
             "[tests/wild/MANIFEST.tsv](../tests/wild/MANIFEST.tsv) and are not in git",
             "([tests/wild/README.md](../tests/wild/README.md) says how to get them). Each file is",
             "imported with `memviz import --json` and compared with an oracle that does not use memviz:",
             "the snapshot replay `tests/oracles/snapshot_oracle.py` (and PyTorch's own",
             "`torch.cuda._memory_viz` on the final segments, `tests/wild/oracles/snapshot_torch.py`),",
             "`tests/oracles/profiler_key_averages.py`, `tests/oracles/memory_timeline.py`, `heaptrack_print`",
             "and `ms_print`. What each compares, and what no oracle judges, is below the table.", "",
             "- Run: %s UTC on %s (%s, %d CPUs), memviz `%s`; load average at the end %.1f (import ms "
             "and MB are measured beside whatever else the machine runs)" % (
                 datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), platform.node(),
                 platform.machine(), os.cpu_count() or 0, os.path.relpath(args.memviz, ROOT), os.getloadavg()[0]),
             "- Files in the manifest: %d; present here: %d; not present on this machine: %d" % (
                 len(rows), len(results), len(missing)), ""]
    lines += ["| kind | present | equal | different | refused (expected) | refused (unexpected) | crashed | no oracle |",
              "|---|---|---|---|---|---|---|---|"]
    tot = {"n": 0, "eq": 0}
    for k in kinds + ["all"]:
        rs = [r for r in results if k == "all" or r["kind"] == k]
        c = lambda o: sum(1 for r in rs if r["outcome"] == o)  # noqa: E731
        exp = sum(1 for r in rs if r["outcome"] == "refused" and r.get("expected"))
        lines.append("| %s | %d | %d | %d | %d | %d | %d | %d |" % (
            k, len(rs), c("equal"), c("different"), exp, c("refused") - exp, c("crashed"), c("no oracle")))
        if k == "all":
            tot = {"n": len(rs), "eq": c("equal"), "ok": c("equal") + exp}
    if tot["n"]:
        lines += ["", "**%.1f%%** of the present files imported and equal to their oracle; %.1f%% equal or refused "
                      "with a documented reason." % (100.0 * tot["eq"] / tot["n"], 100.0 * tot["ok"] / tot["n"])]
    lines += ["", "| file | kind | version | outcome | import ms | peak RSS MB | difference / message |",
              "|---|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: (kinds.index(r["kind"]), r["name"])):
        outcome = r["outcome"] + (" (expected)" if r.get("expected") else "")
        diff = (r["difference"] or r.get("notes", "")).replace("|", "\\|")
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"].replace("|", "\\|"), r["kind"], r["version"].replace("|", "\\|"), outcome, r["ms"], r["mb"], diff))
    if missing:
        lines += ["", "Not present on this machine (%d): %s" % (len(missing), ", ".join(sorted(missing)[:400]))]
    with open(os.path.join(HERE, "compared.md")) as f:
        lines += ["", f.read().rstrip()]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--memviz", required=True)
    ap.add_argument("--files")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--kind", action="append", default=[])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "wild-corpus.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    args.memviz = os.path.abspath(args.memviz)
    require = os.environ.get("MEMVIZ_REQUIRE_ORACLES") == "1"
    rows = read_manifest(os.path.join(HERE, "MANIFEST.tsv"))
    if args.only:
        rows = [r for r in rows if any(o in r["name"] for o in args.only)]
    if args.kind:
        rows = [r for r in rows if r["kind"] in args.kind]
    dirs = search_dirs(args)
    present, missing, failures = [], [], []
    for r in rows:
        p = locate(r, dirs)
        if p:
            present.append((r, p))
        else:
            missing.append(r["name"])
            if r["name"].startswith("shared:") and require:
                failures.append("%s: the shared fixture is missing (%s)" % (r["name"], shared_dir()))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda rp: judge(rp[0], rp[1], args), present))
    for r in results:
        want = next((m for n, m in EXPECTED_REFUSALS.items() if r["name"].startswith(n)), None)
        r["expected"] = r["outcome"] == "refused" and want is not None and want in r["difference"]
        print("%-11s %-12s %6s ms %7s MB  %s  %s" % (r["kind"], r["outcome"], r["ms"], r["mb"], r["name"],
                                                   r["difference"][:160]))
        if r["outcome"] in ("crashed", "different") or (r["outcome"] == "refused" and not r["expected"]):
            failures.append("%s: %s %s" % (r["name"], r["outcome"], r["difference"][:200]))
        if r["outcome"] == "no oracle" and require:
            failures.append("%s: no oracle: %s" % (r["name"], r["difference"]))
    if not args.no_write:
        write_table(results, rows, missing, args)
    print("wild corpus: %d present, %d not present on this machine, %d failures" % (len(results), len(missing),
                                                                                    len(failures)))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
