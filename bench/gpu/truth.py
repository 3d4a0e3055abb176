#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CUDA ground truth for the cost model: runs the grid of grid.py on one GPU, cheapest
configuration first, and writes one JSON line per finished configuration to OUT/results.jsonl
as it goes (a header line first, a footer line last), so a run cut short still returns data.

    python3 bench/gpu/truth.py --out DIR --budget-s 480      # on a GPU machine (see README.md)
    python3 bench/gpu/truth.py --dry-run [--budget-s S] [--json]   # the grid, no torch needed
    python3 bench/gpu/truth.py --out DIR --resume DIR/results.jsonl   # a later run goes on

--dry-run lists the grid with each configuration's estimated time and validates every config
it would build (the JSON parses, has the keys the builder needs, the layer cut is computed)
without importing torch or transformers. Outside --dry-run the next configuration starts only
if the time spent plus its estimated time stays within --budget-s.
"""

import argparse
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grid as gridmod  # noqa: E402

FORMAT = "memviz-cuda-truth/1"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="folder for results.jsonl, progress.log and snapshot pickles")
    p.add_argument("--budget-s", type=float, default=480.0, help="stop before this many seconds (default 480)")
    p.add_argument("--configs", default=gridmod.DEFAULT_CONFIGS, help="folder of Hugging Face config.json files")
    p.add_argument("--dry-run", action="store_true", help="list the grid and validate the configs; no torch")
    p.add_argument("--json", action="store_true", help="with --dry-run: print the listing as JSON")
    p.add_argument("--only", help="run only configurations whose id contains this text")
    p.add_argument("--resume", metavar="RESULTS", action="append", default=[],
                   help="leave out the configurations already in this results.jsonl (repeatable): a later run goes on")
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"],
                   help="cpu: run the code paths without counters (a smoke test of this script)")
    return p.parse_args(argv)


def done_ids(paths):
    ids = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    obj = json.loads(line)
                    if obj.get("kind") == "config":
                        ids.add(obj.get("id"))
    return ids


def select(args):
    grid, skipped = gridmod.build_grid(args.configs)
    if args.only:
        grid = [r for r in grid if args.only in r["id"]]
    done = done_ids(args.resume)
    return [r for r in grid if r["id"] not in done], skipped


def results_path(out):
    """OUT/results.jsonl, or results-2.jsonl, ... when an earlier run's file is there."""
    path, n = os.path.join(out, "results.jsonl"), 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(out, "results-%d.jsonl" % n)
    return path


def dry_run(args):
    grid, skipped = select(args)
    chosen, spent = gridmod.within_budget(grid, args.budget_s)
    if args.json:
        json.dump({"budget_s": args.budget_s, "startup_s": gridmod.STARTUP_S, "estimated_total_s": round(spent, 2),
                   "grid": [{k: r[k] for k in ("id", "estimated_s", "mode", "layers", "layers_full", "model_type",
                                               "config_file", "snapshot", "params_estimate")} for r in chosen],
                   "beyond_budget": [r["id"] for r in grid[len(chosen):]],
                   "validated": sorted({r["config_file"] for r in grid}),
                   "skipped": skipped}, sys.stdout, indent=1)
        print()
        return 0
    print("grid: %d configurations, %d within a budget of %.0f s (estimated %.0f s with %.0f s of startup)"
          % (len(grid), len(chosen), args.budget_s, spent, gridmod.STARTUP_S))
    cum = gridmod.STARTUP_S
    for i, r in enumerate(chosen):
        cum += r["estimated_s"]
        print("%4d %7.1f s %7.1f s  %s%s" % (i + 1, r["estimated_s"], cum, r["id"], "  [snapshot]" if r["snapshot"] else ""))
    for r in grid[len(chosen):]:
        print("   - %7.1f s  beyond the budget: %s" % (r["estimated_s"], r["id"]))
    for name in sorted({(r["config_file"], r["layers"], r["layers_full"], r["params_estimate"]) for r in grid}):
        print("validated %s: %d of %d layers, about %.0fM parameters" % (name[0], name[1], name[2], name[3] / 1e6))
    for s in skipped:
        print("skipped %s: %s" % (s["file"], s["reason"]))
    return 0


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that the runner's per-row handler lets it through."""


def _alarm(signum, frame):
    raise Timeout("configuration ran past its time limit")


def run(args):
    started = time.monotonic()
    if not args.out:
        print("--out DIR is required (or --dry-run)", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "progress.log"), "a", encoding="utf-8")

    def say(msg):
        line = "[%6.1f s] %s" % (time.monotonic() - started, msg)
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    grid, skipped = select(args)
    say("grid: %d configurations, %d configs skipped; importing torch" % (len(grid), len(skipped)))
    import runner  # torch, transformers: only here
    if args.device == "cuda" and not runner.torch.cuda.is_available():
        say("CUDA is not available: nothing to measure (use --dry-run or --device cpu)")
        return 1
    env = runner.environment(args.device)
    say("environment: %s" % json.dumps(env))
    results = open(results_path(args.out), "w", encoding="utf-8")

    def emit(obj):
        results.write(json.dumps(obj, sort_keys=True) + "\n")
        results.flush()
        os.fsync(results.fileno())

    emit({"kind": "header", "format": FORMAT, "sample": False, "environment": env, "budget_s": args.budget_s,
          "grid_size": len(grid), "skipped_configs": skipped, "started_unix": time.time()})
    signal.signal(signal.SIGALRM, _alarm)
    done, not_run, unbuildable = 0, [], {}
    for i, row in enumerate(grid):
        elapsed = time.monotonic() - started
        if elapsed + row["estimated_s"] > args.budget_s:
            not_run = [r["id"] for r in grid[i:]]
            say("budget: %.0f s spent, next needs about %.1f s; %d configurations not run"
                % (elapsed, row["estimated_s"], len(not_run)))
            break
        if row["config_file"] in unbuildable:
            out = {k: v for k, v in row.items() if k != "snapshot"}
            out.update(kind="config", sample=False, status="skipped", error=unbuildable[row["config_file"]], phases={})
            emit(out)
            say("%d/%d %s skipped: as above" % (i + 1, len(grid), row["id"]))
            continue
        limit = int(max(30, 6 * row["estimated_s"]))
        limit = int(max(10, min(limit, args.budget_s - elapsed + 15)))
        say("%d/%d %s (about %.1f s)" % (i + 1, len(grid), row["id"], row["estimated_s"]))
        signal.alarm(limit)
        timed_out = False
        try:
            result = runner.run_row(row, args.device, args.out)
        except Timeout as e:
            timed_out = True
            result = {"status": "timeout", "error": "%s (%d s)" % (e, limit), "phases": {}}
        finally:
            signal.alarm(0)
        if timed_out:  # the traceback (and the model it held) is gone here
            runner.clean(args.device)
        out = {k: v for k, v in row.items() if k not in ("snapshot",)}
        out.update(result)
        out["kind"] = "config"
        out["sample"] = False
        out["device_name"] = env.get("device_name")
        emit(out)
        done += 1
        if result["status"] == "skipped":
            unbuildable[row["config_file"]] = result["error"]
        peak = {k: v.get("max_allocated") for k, v in result.get("phases", {}).items()}
        say("   %s in %.1f s; max allocated per phase %s%s" % (result["status"], result.get("seconds", 0), peak,
                                                              (": " + result["error"]) if result.get("error") else ""))
    emit({"kind": "footer", "finished": done, "not_run": not_run, "seconds": round(time.monotonic() - started, 1)})
    say("done: %d configurations in %.0f s, results in %s" % (done, time.monotonic() - started, results.name))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.dry_run:
        return dry_run(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
