#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares truth.py's CUDA measurements with `memviz estimate`.

    python3 bench/gpu/compare.py RESULTS.jsonl [--memviz build/app/memviz] [--device ID] [--out DIR]

For every finished configuration it runs `memviz estimate --config CUT.json --device GPU ...
--json` with the configuration's own (cut) config and knobs, the GPU of the catalog that the
run's device name matches (or --device), and compares per phase:

* allocated: torch.cuda.max_memory_allocated against the prediction's tensors
  (peak_bytes_per_device - cuda_context_bytes - allocator_reserve_bytes);
* reserved: torch.cuda.max_memory_reserved against peak_bytes_per_device - cuda_context_bytes;
* parameters: the built model's parameter count (LoRA adapters excluded) against memviz's
  parameter_count;
* once per run, the CUDA context the run saw against the catalog's.

The phase is the one memviz predicts: the steady training step (steps 2 and 3), the inference
forward, or generate with its KV cache. error = (predicted - recorded) / recorded, in percent.
Prints the markdown table and writes it to DIR/compare.md, and everything to DIR/compare.json
(DIR: --out, default the results file's folder). Standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grid as gridmod  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# torch.cuda.get_device_name() -> the catalog's id (model/costmodel/GpuCatalog.cpp)
DEVICE_NAMES = [
    (("h200",), "h200"), (("h100",), "h100-80g"), (("a100", "80"), "a100-80g"), (("a100",), "a100-40g"),
    (("l40s",), "l40s"), (("a10g",), "a10g"), (("l4",), "l4"), (("t4",), "t4"), (("4090",), "rtx-4090"),
    (("3090",), "rtx-3090"), (("a6000",), "rtx-a6000"), (("v100", "32"), "v100-32g"), (("v100",), "v100-16g"),
    (("mi300x",), "mi300x"),
]
METRICS = ("allocated", "reserved", "parameters")


def catalog_id(device_name):
    low = (device_name or "").lower()
    for words, gid in DEVICE_NAMES:
        if all(w in low for w in words):
            return gid
    return None


def phase_of(row):
    if row["mode"] == "train":
        return "steady"
    return "generate" if row.get("generate") else "forward"


def error_percent(predicted, recorded):
    if predicted is None or recorded in (None, 0):
        return None
    return (predicted - recorded) * 100.0 / recorded


def read_results(path):
    header, rows, footer = None, [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit("%s:%d:%d: not JSON: %s" % (path, n, e.colno, e.msg))
            kind = obj.get("kind") if isinstance(obj, dict) else None
            if kind == "header":
                header = obj
            elif kind == "footer":
                footer = obj
            elif kind == "config":
                rows.append(obj)
            else:
                raise SystemExit("%s:%d: a line of unknown kind %r" % (path, n, kind))
    if header is None:
        raise SystemExit("%s: no header line" % path)
    return header, rows, footer


def run_memviz(memviz, row, device):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(row["config"], f)
        cfg = f.name
    try:
        args = [memviz, "estimate", "--config", cfg] + gridmod.memviz_args(row, device)
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(cfg)
    if p.returncode != 0:
        return None, (p.stderr.strip() or p.stdout.strip() or "exit %d" % p.returncode).splitlines()[0]
    return json.loads(p.stdout), None


def predictions(est):
    b = est["breakdown"]
    reserved = est["peak_bytes_per_device"] - b["cuda_context_bytes"]
    return {"allocated": reserved - b["allocator_reserve_bytes"], "reserved": reserved,
            "parameters": est["parameter_count"]}


def recorded(row):
    ph = row["phases"][phase_of(row)]
    params = row.get("param_count")
    if params is not None:
        params -= row.get("adapter_count") or 0  # memviz's parameter_count is the base model's
    return {"allocated": ph["max_allocated"], "reserved": ph["max_reserved"], "parameters": params}


def compare(results, memviz, device=None):
    header, rows, footer = read_results(results)
    env = header.get("environment", {})
    device = device or catalog_id(env.get("device_name"))
    if not device:
        raise SystemExit("the run's device %r is not in the catalog: give --device ID (memviz estimate --list-devices)"
                         % env.get("device_name"))
    table, not_compared, context_catalog = [], [], None
    for row in rows:
        if row.get("status") != "ok" or phase_of(row) not in row.get("phases", {}):
            not_compared.append({"id": row.get("id"), "why": "%s: %s" % (row.get("status"), row.get("error", "no phase"))})
            continue
        est, err = run_memviz(memviz, row, device)
        if err:
            not_compared.append({"id": row["id"], "why": "memviz: " + err})
            continue
        context_catalog = est["breakdown"]["cuda_context_bytes"]
        pred, rec = predictions(est), recorded(row)
        for m in METRICS:
            table.append({"id": row["id"], "phase": phase_of(row), "metric": m, "recorded": rec[m],
                          "predicted": pred[m], "error_percent": error_percent(pred[m], rec[m])})
    ctx = (env.get("context") or {}).get("context_bytes")
    if ctx is not None and context_catalog is not None:
        table.append({"id": "(CUDA context)", "phase": "init", "metric": "context", "recorded": ctx,
                      "predicted": context_catalog, "error_percent": error_percent(context_catalog, ctx)})
    summary = {}
    for m in METRICS + ("context",):
        errs = [(abs(r["error_percent"]), r) for r in table if r["metric"] == m and r["error_percent"] is not None]
        if errs:
            worst = max(errs, key=lambda e: e[0])[1]
            summary[m] = {"n": len(errs), "median_abs_error_percent": statistics.median(e[0] for e in errs),
                          "worst_error_percent": worst["error_percent"], "worst_id": worst["id"]}
    return {"results": os.path.abspath(results), "sample": bool(header.get("sample")), "device": device,
            "device_name": env.get("device_name"), "rows": table, "summary": summary, "not_compared": not_compared,
            "not_run": (footer or {}).get("not_run", [])}


def fmt_bytes(v):
    return "–" if v is None else "{:,}".format(v)


def markdown(c):
    lines = []
    if c["sample"]:
        lines.append("**Sample input: hand-written numbers, not measurements.**\n")
    lines.append("memviz estimate against %s (`--device %s`)\n" % (c["device_name"], c["device"]))
    lines.append("| configuration | phase | metric | recorded | predicted | error |")
    lines.append("|---|---|---|---:|---:|---:|")
    for r in c["rows"]:
        e = "–" if r["error_percent"] is None else "%+.2f%%" % r["error_percent"]
        lines.append("| %s | %s | %s | %s | %s | %s |" % (r["id"], r["phase"], r["metric"], fmt_bytes(r["recorded"]),
                                                         fmt_bytes(r["predicted"]), e))
    lines.append("")
    lines.append("| metric | configurations | median abs. error | worst error | worst configuration |")
    lines.append("|---|---:|---:|---:|---|")
    for m, s in c["summary"].items():
        lines.append("| %s | %d | %.2f%% | %+.2f%% | %s |" % (m, s["n"], s["median_abs_error_percent"],
                                                            s["worst_error_percent"], s["worst_id"]))
    if c["not_compared"]:
        lines.append("\nNot compared:\n")
        lines += ["- %s: %s" % (n["id"], n["why"]) for n in c["not_compared"]]
    if c["not_run"]:
        lines.append("\nNot run (budget): %d configurations" % len(c["not_run"]))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description="compare truth.py's results with memviz estimate")
    p.add_argument("results", help="results.jsonl written by truth.py")
    p.add_argument("--memviz", default=os.path.join(ROOT, "build", "app", "memviz"), help="the memviz binary")
    p.add_argument("--device", help="the catalog's GPU id (default: from the run's device name)")
    p.add_argument("--out", help="folder for compare.md and compare.json (default: the results' folder)")
    a = p.parse_args(argv)
    c = compare(a.results, a.memviz, a.device)
    out = a.out or os.path.dirname(os.path.abspath(a.results))
    os.makedirs(out, exist_ok=True)
    md = markdown(c)
    with open(os.path.join(out, "compare.md"), "w", encoding="utf-8") as f:
        f.write(md)
    with open(os.path.join(out, "compare.json"), "w", encoding="utf-8") as f:
        json.dump(c, f, indent=1)
        f.write("\n")
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
