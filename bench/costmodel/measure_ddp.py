#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Data parallel, measured (issue 31): the per-rank peak of DistributedDataParallel
training on this machine, with the protocol of measure.py, for the cost model's
DDP plan (model/costmodel/Sharding, FitPlan).

    /usr/bin/python3 bench/costmodel/measure_ddp.py --out tests/data/costmodel/measured_ddp.json
    /usr/bin/python3 bench/costmodel/measure_ddp.py --list
    /usr/bin/python3 bench/costmodel/measure_ddp.py --only 'w2' --out /tmp/ddp.json
    /usr/bin/python3 bench/costmodel/measure_ddp.py --fsdp-probe   # does 1.13's FSDP run on CPU/gloo?

A configuration of world size N starts N ``measure.py --worker`` processes at
once (RANK, WORLD_SIZE, MASTER_ADDR/PORT in their environment, measure.py's
worker environment otherwise).  Each rank joins a gloo process group *before*
its baseline (so the group's own memory -- gloo's pairs and their buffers -- is
not counted), builds the model as measure.py does, wraps it in
``DistributedDataParallel`` (CPU, no device_ids, ``bucket_cap_mb`` as the
config says, ``gradient_as_bucket_view`` False unless the config says so) and
measures the second step with the same probe: mallinfo2 after every aten op of
the rank's main thread.  The reducer's own ops (copies into the buckets, the
division by the world size, the copies back) go through the dispatcher and are
sampled; gloo's allreduce runs on the process group's threads, whose scratch
buffers are seen only when a main-thread sample falls in their lifetime.

Every DDP configuration is paired with the same configuration in one process
without DDP (``world`` 1), measured in the same run, so that the data show what
DDP adds.  Standard library + torch only.
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


# ---------------------------------------------------------------------------
# the parts measure.py's worker calls for a config with "world"

def init_group(cfg):
    import torch.distributed as dist
    dist.init_process_group("gloo", rank=int(os.environ["RANK"]), world_size=cfg["world"])


def wrap(model, cfg):
    from torch.nn.parallel import DistributedDataParallel as DDP
    if cfg.get("fsdp"):
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        return FSDP(model, device_id=None)
    return DDP(model, bucket_cap_mb=cfg.get("bucket_cap_mb", 25),
               gradient_as_bucket_view=cfg.get("bucket_view", False))


def finish(model):
    import torch.distributed as dist
    out = {"rank": dist.get_rank()}
    try:
        data = model._get_ddp_logging_data()
        for k in ("bucket_sizes", "rebuilt_bucket_sizes", "bucket_cap_bytes", "backend_name"):
            if k in data:
                out[k] = data[k]
    except Exception:  # FSDP, or a logging key this version lacks
        pass
    dist.barrier()
    dist.destroy_process_group()
    return out


# ---------------------------------------------------------------------------
# the grid

def build_grid():
    import measure as M
    g = []

    def add(*a, worlds=(2, 3), bucket_cap_mb=None, bucket_view=False, **k):
        base = M._cfg(*a, **k)
        g.append(dict(base, world=1))
        for w in worlds:
            c = dict(base, world=w, id=f"{base['id']}-ddp-w{w}")
            if bucket_cap_mb is not None:
                c["bucket_cap_mb"] = bucket_cap_mb
                c["id"] += f"-cap{bucket_cap_mb}"
            if bucket_view:
                c["bucket_view"] = True
                c["id"] += "-view"
            g.append(c)

    for arch in ("gpt2-lm", "llama-lm"):
        add(arch, 1, "fp32", "adamw", seq=256)
        add(arch, 1, "fp32", "adamw", seq=512)
        add(arch, 1, "fp32", "sgd", seq=512, worlds=(2,))
        add(arch, 2, "fp32", "adamw", seq=512, lora=16, worlds=(2,))
        add(arch, 1, "fp32", "adamw", seq=512, checkpoint="per-layer", worlds=(2,))
        # no bf16: gloo's allreduce in 1.13 refuses BFloat16 ("Invalid scalar type")
    # the bucket size and gradient_as_bucket_view (the data's own comparison, not estimated)
    g.append(dict(M._cfg("gpt2-lm", 1, "fp32", "adamw", seq=256), world=2, bucket_cap_mb=1,
                  id="gpt2-lm-s256-b1-fp32-adamw-ddp-w2-cap1"))
    g.append(dict(M._cfg("gpt2-lm", 1, "fp32", "adamw", seq=256), world=2, bucket_view=True,
                  id="gpt2-lm-s256-b1-fp32-adamw-ddp-w2-view"))
    seen, out = set(), []
    for c in g:  # the world-1 twins of configs added twice
        if c["id"] not in seen:
            seen.add(c["id"])
            out.append(c)
    return out


# ---------------------------------------------------------------------------
# driver

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(cfg, timeout, trace=None):
    import measure as M
    if cfg["world"] == 1:
        res, _ = M.run_config({k: v for k, v in cfg.items() if k != "world"}, timeout)
        return [res]
    port = free_port()
    procs = []
    for r in range(cfg["world"]):
        env = dict(os.environ, **M.WORKER_ENV, RANK=str(r), WORLD_SIZE=str(cfg["world"]),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        rank_cfg = dict(cfg, trace=os.path.join(trace, f"{cfg['id']}-rank{r}.tsv")) if trace else cfg
        procs.append(subprocess.Popen([sys.executable, os.path.join(HERE, "measure.py"), "--worker", json.dumps(rank_cfg)],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            return [{"skipped": True, "reason": f"timeout after {timeout}s"}]
        line = [ln for ln in out.splitlines() if ln.startswith("@@RESULT@@")]
        if not line:
            tail = (err or "").strip().splitlines()[-1:] or [f"exit code {p.returncode}"]
            results.append({"skipped": True, "reason": f"worker failed: {tail[0]}"[:300]})
        else:
            results.append(json.loads(line[0][len("@@RESULT@@"):]))
    return results


def combine(cfg, ranks):
    rec = dict(cfg)
    bad = [r for r in ranks if r.get("skipped")]
    if bad:
        rec.update(skipped=True, reason=bad[0]["reason"])
        return rec
    top = max(ranks, key=lambda r: r["peak_bytes"])
    rec.update({k: v for k, v in top.items() if k != "rank"})
    if cfg["world"] > 1:
        rec["rank_peak_bytes"] = [r["peak_bytes"] for r in sorted(ranks, key=lambda r: r["rank"])]
        rec["rank_peak_phase"] = [r["peak_phase"] for r in sorted(ranks, key=lambda r: r["rank"])]
    return rec


PROTOCOL_DDP = (
    "measure.py's protocol per rank (mallinfo2 after every aten op of the rank's main thread, the second "
    "step's peak minus the baseline), with: N processes started at once, each joining a gloo process group "
    "(torch.distributed.init_process_group, env rendezvous on 127.0.0.1) before its baseline; the model "
    "wrapped in DistributedDataParallel (CPU, no device_ids, bucket_cap_mb 25 unless the config says, "
    "gradient_as_bucket_view False unless the config says, broadcast_buffers default) after LoRA, "
    "freezing and checkpointing are applied; peak_bytes is the largest of the ranks' peaks "
    "(rank_peak_bytes: each rank's). world 1: the same configuration in one process without DDP.")


def fsdp_probe():
    """Tries torch.distributed.fsdp FULL_SHARD on CPU with gloo in two processes."""
    code = (
        "import os, torch, torch.distributed as dist\n"
        "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n"
        "dist.init_process_group('gloo', rank=int(os.environ['RANK']), world_size=2)\n"
        "m = FSDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 2)), device_id=None)\n"
        "loss = m(torch.randn(4, 8)).sum(); loss.backward(); print('FSDP ran')\n")
    port = free_port()
    procs = [subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ, RANK=str(r), MASTER_ADDR="127.0.0.1",
                                                               MASTER_PORT=str(port)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for r in range(2)]
    for p in procs:
        try:
            out = p.communicate(timeout=120)[0]
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            out = "timeout"
        print(f"exit {p.returncode}:", "\n".join(out.strip().splitlines()[-3:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--only", help="regex on the config id")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--merge", action="store_true", help="update matching entries of an existing --out file")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--fsdp-probe", action="store_true")
    ap.add_argument("--trace", metavar="DIR", help="also write DIR/<id>-rank<r>.tsv per rank (as measure.py --trace)")
    args = ap.parse_args()
    if args.fsdp_probe:
        fsdp_probe()
        return
    import measure as M
    grid = build_grid()
    if args.only:
        grid = [c for c in grid if re.search(args.only, c["id"])]
    if args.list:
        print("\n".join(c["id"] for c in grid))
        return
    if not args.out:
        ap.error("--out is required")
    t0 = time.time()
    results = []
    for i, cfg in enumerate(grid):
        t = time.time()
        if args.trace:
            os.makedirs(args.trace, exist_ok=True)
        rec = combine(cfg, run_ranks(cfg, args.timeout, args.trace and os.path.abspath(args.trace)))
        status = (f"SKIP {rec['reason']}" if rec.get("skipped") else
                  f"peak {rec['peak_bytes'] / 2**20:8.2f} MiB ({rec['peak_phase']}) ranks "
                  + " ".join(f"{b / 2**20:.2f}" for b in rec.get("rank_peak_bytes", [])))
        print(f"[{i + 1}/{len(grid)}] {cfg['id']:<48} {status}  {time.time() - t:.0f}s", flush=True)
        results.append(rec)
    doc = {"machine": M.machine_info(), "protocol": M.PROTOCOL + " " + PROTOCOL_DDP, "configs": results}
    if args.merge and os.path.exists(args.out):
        with open(args.out) as f:
            old = json.load(f)
        order = [c["id"] for c in build_grid()]
        merged = {c["id"]: c for c in old["configs"]}
        merged.update({c["id"]: c for c in results})
        doc["configs"] = sorted(merged.values(), key=lambda c: order.index(c["id"]) if c["id"] in order else 1e9)
    else:
        doc["run_seconds"] = round(time.time() - t0, 1)
    M.dump(doc, args.out)


if __name__ == "__main__":
    main()
