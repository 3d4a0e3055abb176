#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Measure CPU heap usage of PyTorch training / inference for the memviz
cost-model validation dataset.

    /usr/bin/python3 bench/costmodel/measure.py --out tests/data/costmodel/measured.json
    /usr/bin/python3 bench/costmodel/measure.py --list
    /usr/bin/python3 bench/costmodel/measure.py --only 'mlp-.*-adam' --out /tmp/x.json
    /usr/bin/python3 bench/costmodel/measure.py --only 'cnn' --merge --out tests/data/costmodel/measured.json
    /usr/bin/python3 bench/costmodel/measure.py --only '...' --repeat 3 --out /tmp/rep.json

Every configuration runs in a fresh subprocess (``--worker``).  See
README.md in this directory for the protocol.  Standard library + torch only.
"""

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC_DIR = os.path.join(HERE, "specs")

# Environment of every worker process (see README "Stability").
WORKER_ENV = {
    "MALLOC_ARENA_MAX": "1",            # one malloc arena: no per-thread arenas
    "MALLOC_MMAP_THRESHOLD_": "131072",  # fixed: every block >= 128 KiB is mmapped
    "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0",  # freed small chunks are really free
    "OMP_NUM_THREADS": "1",             # plus torch.set_num_threads(1) in the worker
    "MKL_NUM_THREADS": "1",
    # PyTorch 2.x wheels use MKL and oneDNN: both keep the buffers of GEMMs they ran (MKL's fast
    # memory manager, oneDNN's primitive cache), a few MiB that persist from step 1 whatever the
    # model's size. Off, so the numbers are the model's (README "Library caches"); 1.13's OpenBLAS
    # keeps its buffer outside malloc, so these change nothing there.
    "MKL_DISABLE_FAST_MM": "1",
    "ONEDNN_PRIMITIVE_CACHE_CAPACITY": "0",
}

PROTOCOL = (
    "Each configuration runs in a fresh subprocess of the measuring interpreter (/usr/bin/python3 for "
    "PyTorch 1.13, the pinned environment's python for 2.x) with MALLOC_ARENA_MAX=1, "
    "MALLOC_MMAP_THRESHOLD_=131072, "
    "GLIBC_TUNABLES=glibc.malloc.tcache_count=0, OMP_NUM_THREADS=1, MKL_DISABLE_FAST_MM=1, "
    "ONEDNN_PRIMITIVE_CACHE_CAPACITY=0 and torch.set_num_threads(1). "
    "Live heap = glibc mallinfo2() uordblks + hblkhd (via ctypes), sampled after every aten op "
    "(TorchDispatchMode) and at every phase boundary. Baseline = live heap after importing torch, "
    "loading the spec and gc.collect(), before the model is built. Then: torch.manual_seed(0); "
    "model built from the JSON spec (float32, then .to(torch.bfloat16) for bf16); batch of random "
    "inputs (randint for embedding inputs) and targets (int64 stay int64; float targets in the model "
    "dtype); for checkpointed runs a float input gets requires_grad_(True); optimizer built. "
    "Training: two steps of opt.zero_grad(set_to_none=True); [x.grad = None if x requires grad]; "
    "loss = loss_fn(model(x), y); loss.backward(); opt.step() (LBFGS: the same inside a closure, "
    "max_iter=1). Checkpointed: model(x) replaced by torch.utils.checkpoint.checkpoint_sequential("
    "model, K, x) (reentrant; last segment not checkpointed). peak_bytes = max live heap during the "
    "second step (from before its zero_grad to after opt.step) minus baseline (taken after one "
    "operator went through the sampling mode: PyTorch 2.x's one-time cost of a Python dispatch mode "
    "is not the model's). phase_bytes = live heap "
    "minus baseline at step start (before zero_grad), after the loss is computed, after backward, "
    "after opt.step of the second step. Inference: model.eval(); with torch.no_grad(): model(x); "
    "peak against the same baseline (model and batch built, no optimizer). "
    "The heap is only sampled between aten ops: temporaries allocated and freed inside one op "
    "(e.g. oneDNN scratch buffers) are not seen.")

OPTIMIZERS = ("sgd", "momentum", "adam", "adamw", "adagrad", "rmsprop", "lbfgs")


# ---------------------------------------------------------------------------
# the grid

def _cfg(spec, batch, dtype="fp32", optimizer="adam", mode="train", checkpoint=None,
         lbfgs_history=100, seq=None, lora=0, lora_targets="attn", frozen=0, kv_cache=0, kv_block=1,
         impl=None, ckpt_impl=None, attention=None):
    """One configuration.  The language-model options (issue 31): seq (the token
    models' sequence length), lora (rank; targets attn|mlp|all), frozen (first
    N top-level layers), checkpoint "per-layer"/"selective" (besides K for
    checkpoint_sequential), kv_cache (inference: cache capacity in tokens,
    rounded up to kv_block), impl (the optimizer's implementation: None for
    PyTorch's default, "foreach" or "fused"; issue 54), ckpt_impl ("non-reentrant":
    torch.utils.checkpoint with use_reentrant=False, 2.x's recommended mode; default reentrant),
    attention ("sdpa": the Llama block's core attention through
    F.scaled_dot_product_attention, PyTorch 2.x; default the eager matmul/softmax)."""
    name = spec[:-5] if spec.endswith(".json") else spec
    spec = name + ".json"
    parts = [name] + ([f"s{seq}"] if seq else []) + [f"b{batch}", dtype]
    if mode == "train":
        parts.append(optimizer + (f"{lbfgs_history}" if optimizer == "lbfgs" else "") + (f"_{impl}" if impl else ""))
        if lora:
            parts.append(f"lora{lora}{lora_targets}")
        if frozen:
            parts.append(f"frozen{frozen}")
        if checkpoint:
            parts.append(f"ckpt{checkpoint}" + ("nr" if ckpt_impl == "non-reentrant" else ""))
    else:
        parts.append("infer")
        if kv_cache:
            parts.append(f"kv{kv_cache}" + (f"p{kv_block}" if kv_block > 1 else ""))
    c = {"id": "-".join(parts), "spec": spec, "batch": batch, "dtype": dtype,
         "optimizer": optimizer if mode == "train" else None,
         "checkpoint": checkpoint if mode == "train" else None, "mode": mode}
    if mode == "train" and optimizer == "lbfgs":
        c["lbfgs_history"] = lbfgs_history
    if mode == "train" and impl:
        c["optimizer_impl"] = impl
    if seq:
        c["seq"] = seq
    if mode == "train" and lora:
        c.update(lora=lora, lora_targets=lora_targets)
    if mode == "train" and frozen:
        c["frozen"] = frozen
    if mode != "train" and kv_cache:
        c.update(kv_cache=kv_cache, kv_block=kv_block)
    if mode == "train" and checkpoint and ckpt_impl:
        c["checkpoint_impl"] = ckpt_impl
    if attention:
        c["attention"] = attention
        c["id"] += "-" + attention
    return c


def build_llm_grid():
    """Issue 31: GPT-2- and Llama-style decoder models (specs gpt2-lm, llama-lm)
    over sequence length, batch, dtype, LoRA rank/targets, checkpointing
    (none / per layer / selective), optimizer, frozen layers, and inference
    with and without a KV cache."""
    g = []
    add = lambda *a, **k: g.append(_cfg(*a, **k))
    for arch in ("gpt2-lm", "llama-lm"):
        for seq in (512, 1024):
            for b in (1, 2):
                for ck in (None, "per-layer", "selective"):
                    add(arch, b, "fp32", "adamw", seq=seq, lora=16, checkpoint=ck)
                    add(arch, b, "bf16", "adamw", seq=seq, lora=16, checkpoint=ck)
        for r, t in ((4, "mlp"), (64, "all"), (8, "all"), (32, "mlp")):
            add(arch, 2, "fp32", "adamw", seq=512, lora=r, lora_targets=t)
        add(arch, 1, "fp32", "sgd", seq=1024, lora=16, lora_targets="all", checkpoint="per-layer")
        add(arch, 1, "fp32", "adam", seq=1024, lora=16, lora_targets="all")
        add(arch, 1, "fp32", "adamw", seq=2048, lora=8)
        add(arch, 1, "fp32", "adamw", seq=2048, lora=8, checkpoint="selective")
        # full fine-tune and frozen layers
        for seq in (256, 512):
            add(arch, 1, "fp32", "adamw", seq=seq)
            add(arch, 1, "fp32", "adamw", seq=seq, checkpoint="per-layer")
        add(arch, 2, "fp32", "sgd", seq=512, frozen=3)
        add(arch, 1, "bf16", "adamw", seq=512)
        # inference, with and without a KV cache (prefill of seq tokens + one decoding step)
        for seq in (512, 1024):
            for dt in ("fp32", "bf16"):
                add(arch, 2, dt, mode="inference", seq=seq)
                add(arch, 2, dt, mode="inference", seq=seq, kv_cache=seq + 1)
        add(arch, 2, "fp32", mode="inference", seq=512, kv_cache=2048, kv_block=16)
        add(arch, 4, "fp32", mode="inference", seq=256, kv_cache=1000, kv_block=16)
        add(arch, 1, "bf16", mode="inference", seq=1024, kv_cache=4096, kv_block=16)
    # Qwen2-style: q/k/v biases and a head_dim (48) other than d_model / heads (32)
    add("qwen2-lm", 1, "fp32", "adamw", seq=512, lora=16)
    add("qwen2-lm", 2, "bf16", "adamw", seq=512, lora=16, lora_targets="all", checkpoint="per-layer")
    add("qwen2-lm", 1, "fp32", "adamw", seq=256)
    add("qwen2-lm", 2, "fp32", mode="inference", seq=512, kv_cache=1024, kv_block=16)
    return g


def build_versions_grid():
    """Issue 54: what PyTorch releases do differently, measured under 1.13 and 2.x with the
    same protocol (tests/data/costmodel/measured_versions.json): the foreach and fused
    optimizer implementations beside the default (for-loop on the CPU in both) on a
    parameter-dominated MLP and the token transformer. fused needs 2.x (1.13: skipped)."""
    g = []
    add = lambda *a, **k: g.append(_cfg(*a, **k))
    for impl in (None, "foreach", "fused"):
        add("mlp", 128, "fp32", "adamw", impl=impl)
        add("mlp", 128, "fp32", "adam", impl=impl)
        add("transformer-tok", 4, "fp32", "adamw", impl=impl)
    for opt in ("adagrad", "rmsprop", "momentum"):
        add("mlp", 128, "fp32", opt, impl="foreach")
    # 2.x's recommended checkpointing (use_reentrant=False) beside the reentrant rows of the main
    # grid, and attention through SDPA (2.x only: skipped under 1.13)
    nr = "non-reentrant"
    add("mlp", 512, "fp32", "sgd", checkpoint=2, ckpt_impl=nr)
    add("cnn-bn", 128, "fp32", "sgd", checkpoint=4, ckpt_impl=nr)
    for arch in ("gpt2-lm", "llama-lm"):
        add(arch, 1, "fp32", "adamw", seq=512, lora=16, checkpoint="per-layer", ckpt_impl=nr)
        add(arch, 1, "fp32", "adamw", seq=1024, lora=16, checkpoint="selective", ckpt_impl=nr)
        add(arch, 1, "fp32", "adamw", seq=512, checkpoint="per-layer", ckpt_impl=nr)
    add("llama-lm", 1, "fp32", "adamw", seq=1024, lora=16, attention="sdpa")
    add("llama-lm", 2, "bf16", "adamw", seq=1024, lora=16, attention="sdpa")
    add("llama-lm", 1, "fp32", "adamw", seq=512, attention="sdpa")
    add("llama-lm", 1, "fp32", "adamw", seq=1024, lora=16, checkpoint="per-layer", ckpt_impl=nr, attention="sdpa")
    add("llama-lm", 2, "fp32", mode="inference", seq=1024, attention="sdpa")
    return g


def build_grid():
    g = []
    add = lambda *a, **k: g.append(_cfg(*a, **k))

    # --- MLP (11.5 M params): parameter/optimizer-state dominated.
    for opt in ("sgd", "momentum", "adam", "adagrad", "lbfgs", "adamw", "rmsprop"):
        add("mlp", 128, "fp32", opt)
    add("mlp", 128, "fp32", "lbfgs", lbfgs_history=10)
    add("mlp", 512, "fp32", "sgd")
    add("mlp", 512, "fp32", "adam")
    for k in (2, 3):
        add("mlp", 512, "fp32", "sgd", checkpoint=k)
    for opt in ("sgd", "adam", "adagrad", "lbfgs"):
        add("mlp", 128, "bf16", opt)
    add("mlp", 256, "bf16", "momentum")
    add("mlp", 256, "bf16", "momentum", checkpoint=3)
    add("mlp", 128, "fp32", mode="inference")
    add("mlp", 512, "fp32", mode="inference")
    add("mlp", 256, "bf16", mode="inference")

    # --- CNN with BatchNorm + pooling (0.65 M params): activation dominated.
    for b in (32, 64, 128):
        add("cnn-bn", b, "fp32", "sgd")
    for opt in ("momentum", "adam", "adagrad", "lbfgs", "rmsprop"):
        add("cnn-bn", 64, "fp32", opt)
    for k in (2, 4, 8):
        add("cnn-bn", 128, "fp32", "sgd", checkpoint=k)
    add("cnn-bn", 128, "fp32", "adam", checkpoint=4)
    for b in (48, 96):
        add("cnn-bn", b, "bf16", "sgd")
    add("cnn-bn", 64, "bf16", "adam")
    add("cnn-bn", 96, "bf16", "sgd", checkpoint=4)
    add("cnn-bn", 128, "fp32", mode="inference")
    add("cnn-bn", 256, "fp32", mode="inference")
    add("cnn-bn", 256, "bf16", mode="inference")

    # --- small ResNet (0.38 M params) with downsampling residual blocks.
    for b in (32, 64, 128):
        add("resnet-small", b, "fp32", "sgd")
    for opt in ("momentum", "adam", "adagrad", "lbfgs", "adamw"):
        add("resnet-small", 64, "fp32", opt)
    add("resnet-small", 128, "fp32", "momentum")
    for k in (2, 3, 5):
        add("resnet-small", 128, "fp32", "momentum", checkpoint=k)
    for b in (32, 64):
        add("resnet-small", b, "bf16", "sgd")
    add("resnet-small", 32, "bf16", "adam")
    add("resnet-small", 64, "bf16", "sgd", checkpoint=3)
    add("resnet-small", 128, "fp32", mode="inference")
    add("resnet-small", 256, "fp32", mode="inference")
    add("resnet-small", 128, "bf16", mode="inference")

    # --- transformer, token input (embedding + 2 encoder layers + per-token
    # head over 8000 classes).  No checkpoint configs: the reentrant
    # checkpoint of 1.13 cannot give the embedding a gradient (integer input).
    for b in (2, 4, 8):
        add("transformer-tok", b, "fp32", "adam")
    for opt in ("sgd", "momentum", "adagrad", "lbfgs", "rmsprop"):
        add("transformer-tok", 4, "fp32", opt)
    for b in (2, 4):
        add("transformer-tok", b, "bf16", "adam")
    add("transformer-tok", 4, "bf16", "sgd")
    add("transformer-tok", 8, "fp32", mode="inference")
    add("transformer-tok", 16, "fp32", mode="inference")
    add("transformer-tok", 16, "bf16", mode="inference")

    # --- transformer, float input (linear projection, 3 encoder layers, mse).
    for b in (8, 32):
        add("transformer-proj", b, "fp32", "adam")
    for opt in ("sgd", "momentum", "adagrad", "lbfgs", "adamw", "rmsprop"):
        add("transformer-proj", 16, "fp32", opt)
    add("transformer-proj", 32, "fp32", "sgd")
    for k in (2, 4):
        add("transformer-proj", 32, "fp32", "sgd", checkpoint=k)
    add("transformer-proj", 32, "fp32", "adam", checkpoint=2)
    # mse_loss has no BFloat16 CPU kernel in 1.13: kept as a recorded skip
    add("transformer-proj", 16, "bf16", "sgd")
    add("transformer-proj", 32, "fp32", mode="inference")
    add("transformer-proj", 64, "fp32", mode="inference")
    add("transformer-proj", 128, "bf16", mode="inference")

    # --- holdout: added after the C++ cost model was written and tuned on the configs above;
    # never traced or used to tune it.  Unseen batch sizes, optimizer/checkpoint combinations
    # and one unseen architecture (the small CNN of the classic "CNN memory consumption" question).
    n_main = len(g)
    add("small-cnn", 64, "fp32", "adam")
    add("small-cnn", 256, "fp32", "sgd")
    add("small-cnn", 128, "bf16", "momentum", checkpoint=2)
    add("small-cnn", 512, "fp32", mode="inference")
    add("mlp", 200, "fp32", "adamw", checkpoint=2)
    add("mlp", 64, "bf16", "rmsprop")
    add("cnn-bn", 80, "fp32", "momentum", checkpoint=3)
    add("cnn-bn", 160, "bf16", mode="inference")
    add("resnet-small", 96, "fp32", "adamw")
    add("resnet-small", 48, "fp32", "rmsprop", checkpoint=4)
    add("transformer-tok", 6, "fp32", "momentum")
    add("transformer-tok", 3, "bf16", "adagrad")
    add("transformer-proj", 24, "fp32", "adagrad")
    add("transformer-proj", 24, "fp32", "sgd", checkpoint=3)
    add("transformer-proj", 48, "fp32", "lbfgs", lbfgs_history=5)
    for c in g[n_main:]:
        c["holdout"] = True

    g += build_llm_grid()
    ids = [c["id"] for c in g]
    assert len(ids) == len(set(ids)), "duplicate config ids"
    return g


# ---------------------------------------------------------------------------
# worker: one configuration, in its own process

def heap_functions():
    """(libc, mallinfo2): glibc's mallinfo2() through ctypes."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6")

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
            "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc.mallinfo2.restype = Mallinfo2
    return libc, libc.mallinfo2


def make_probe(mallinfo2, trace=False):
    """The sampling mode of the protocol: live heap after every aten op, running maximum."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    cfg = {"trace": trace}

    class Probe(TorchDispatchMode):
        """Samples the live heap after every aten op; tracks the maximum."""

        def __init__(self):
            super().__init__()
            self.phase = "setup"
            self.step = 0
            self.trace = [] if cfg.get("trace") else None
            self.max_hblkhd = 0  # process lifetime, never reset
            self.reset()

        def reset(self):
            self.peak = -1
            self.peak_phase = None
            self.peak_op = None
            self.ops = {}
            self.foreach_ops = 0

        def sample(self, where):
            m = mallinfo2()
            v = m.uordblks + m.hblkhd
            if m.hblkhd > self.max_hblkhd:
                self.max_hblkhd = m.hblkhd
            if v > self.peak:
                # peak_op: the op after which the running maximum last grew by
                # > 64 KiB (a view/detach right after it only adds a few bytes)
                if self.peak_op is None or v - self.peak > 65536:
                    self.peak_op = where
                self.peak, self.peak_phase = v, self.phase
            return v

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            self.ops[self.phase] = self.ops.get(self.phase, 0) + 1
            name = str(func)
            if name.startswith("aten._foreach_"):
                self.foreach_ops += 1
            v = self.sample(name)
            if self.trace is not None:
                outs = out if isinstance(out, (list, tuple)) else [out]
                desc = " ".join(f"{str(o.dtype)[6:]}{list(o.shape)}" for o in outs
                                if torch.is_tensor(o))
                self.trace.append((self.step, self.phase, name, v, desc))
            return out

    return Probe()


def start_probe(probe):
    """Enters the probe and takes the baseline (returned): live heap after gc.collect()."""
    import gc
    import torch
    probe.__enter__()  # active from the baseline on: model build is sampled too
    # The first operator dispatched through a Python mode costs PyTorch 2.x a one-time 21.7 MiB
    # of its own (the dispatch machinery's lazy set-up; nothing of 1.13's): pay it before the
    # baseline, so that it is not counted as the model's.
    torch.zeros(1).add_(1)
    probe.reset()
    gc.collect()
    return probe.sample("baseline")


def worker(cfg):
    import gc

    libc, mallinfo2 = heap_functions()

    import torch
    from torch.utils.checkpoint import checkpoint_sequential
    sys.path.insert(0, HERE)
    import spec_to_torch as S

    torch.set_num_threads(1)
    import llm_blocks as L
    if cfg.get("world"):  # data parallel (measure_ddp.py): the process group exists before the baseline
        import measure_ddp
        measure_ddp.init_group(cfg)
    spec = S.load_spec(os.path.join(SPEC_DIR, cfg["spec"]))
    if cfg.get("seq"):
        spec["input"]["shape"] = [cfg["seq"]]
        spec["target"]["shape"] = [cfg["seq"]]
    loss_fn = S.make_loss_fn(spec)
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[cfg["dtype"]]
    train = cfg["mode"] == "train"
    K = cfg.get("checkpoint")

    probe = make_probe(mallinfo2, bool(cfg.get("trace")))
    baseline = start_probe(probe)
    t0 = time.time()
    res = {}

    torch.manual_seed(0)
    model = S.build_model(spec).to(dtype)
    if cfg.get("lora"):
        L.apply_lora(model, cfg["lora"], cfg.get("lora_targets", "attn"))
    if cfg.get("frozen"):
        L.freeze_first(model, cfg["frozen"])
    L.configure(reentrant=cfg.get("checkpoint_impl") != "non-reentrant", attention=cfg.get("attention", "eager"))
    if K in ("per-layer", "selective"):
        L.set_checkpointing(model, K)
        K = None
    if cfg.get("world"):
        model = measure_ddp.wrap(model, cfg)
    x, y = S.make_batch(spec, cfg["batch"], dtype)
    if y.is_floating_point():
        y = y.to(dtype)
    if K and x.is_floating_point():
        x.requires_grad_(True)
    all_params = list(model.parameters())
    params = [p for p in all_params if p.requires_grad]
    res["param_count"] = sum(p.numel() for p in all_params)
    res["param_bytes"] = sum(p.numel() * p.element_size() for p in all_params)
    res["trainable_count"] = sum(p.numel() for p in params)
    res["buffer_bytes"] = sum(b.numel() * b.element_size() for b in model.buffers())
    res["batch_bytes"] = x.numel() * x.element_size() + y.numel() * y.element_size()

    def forward(inp):
        if K:
            if cfg.get("checkpoint_impl") == "non-reentrant":  # the keyword is 2.x's
                return checkpoint_sequential(model, K, inp, use_reentrant=False)
            return checkpoint_sequential(model, K, inp)
        return model(inp)

    if not train:
        model.eval()
        gc.collect()
        probe.phase = "forward"
        probe.reset()
        start = probe.sample("start")
        res["build_bytes"] = start - baseline
        with torch.no_grad():
            if cfg.get("kv_cache"):
                blk = cfg.get("kv_block", 1)
                cap = -(-cfg["kv_cache"] // blk) * blk
                cache = L.attach_cache(model, cfg["batch"], cap, dtype)
                out = forward(x)
                del out
                out = forward(x[:, -1:])  # one decoding step
            else:
                out = forward(x)
        fwd_end = probe.sample("forward_end")
        res.update(peak_bytes=probe.peak - baseline, peak_phase=probe.peak_phase,
                   peak_op=probe.peak_op,
                   phase_bytes={"step_start": start - baseline,
                                "forward_end": fwd_end - baseline,
                                "backward_end": None, "step_end": None},
                   aten_ops=sum(probe.ops.values()))
        del out
    else:
        name = cfg["optimizer"]
        O = torch.optim
        impl = cfg.get("optimizer_impl")
        kw = {"foreach": True} if impl == "foreach" else {"fused": True} if impl == "fused" else {}
        if name == "sgd":
            opt = O.SGD(params, lr=0.01, **kw)
        elif name == "momentum":
            opt = O.SGD(params, lr=0.01, momentum=0.9, **kw)
        elif name == "adam":
            opt = O.Adam(params, **kw)
        elif name == "adamw":
            opt = O.AdamW(params, **kw)
        elif name == "adagrad":
            opt = O.Adagrad(params, **kw)
        elif name == "rmsprop":
            opt = O.RMSprop(params, **kw)
        elif name == "lbfgs":
            opt = O.LBFGS(params, max_iter=1, history_size=cfg["lbfgs_history"])
        else:
            raise ValueError(f"unknown optimizer {name}")
        gc.collect()
        res["build_bytes"] = probe.sample("built") - baseline
        marks = {}

        def step():
            probe.step += 1
            probe.phase = "forward"
            marks["step_start"] = probe.sample("step_start")
            if name == "lbfgs":
                def closure():
                    probe.phase = "forward"
                    opt.zero_grad(set_to_none=True)
                    if x.requires_grad:
                        x.grad = None
                    marks["after_zero_grad"] = probe.sample("after_zero_grad")
                    loss = loss_fn(forward(x), y)
                    marks["forward_end"] = probe.sample("forward_end")
                    probe.phase = "backward"
                    loss.backward()
                    marks["backward_end"] = probe.sample("backward_end")
                    probe.phase = "optimizer"
                    return loss
                probe.phase = "optimizer"
                opt.step(closure)
            else:
                opt.zero_grad(set_to_none=True)
                if x.requires_grad:
                    x.grad = None
                marks["after_zero_grad"] = probe.sample("after_zero_grad")
                loss = loss_fn(forward(x), y)
                marks["forward_end"] = probe.sample("forward_end")
                probe.phase = "backward"
                loss.backward()
                marks["backward_end"] = probe.sample("backward_end")
                probe.phase = "optimizer"
                opt.step()
            marks["step_end"] = probe.sample("step_end")
            probe.phase = "between"

        probe.reset()
        step()
        res["step1_peak_bytes"] = probe.peak - baseline
        res["step1_peak_phase"] = probe.peak_phase
        gc.collect()  # nothing to collect in practice; keeps step 2 clean
        probe.reset()
        step()
        res.update(peak_bytes=probe.peak - baseline, peak_phase=probe.peak_phase,
                   peak_op=probe.peak_op,
                   phase_bytes={k: marks[k] - baseline for k in
                                ("step_start", "forward_end", "backward_end", "step_end")},
                   after_zero_grad_bytes=marks["after_zero_grad"] - baseline,
                   aten_ops=sum(probe.ops.values()),
                   aten_ops_by_phase={k: probe.ops.get(k, 0)
                                      for k in ("forward", "backward", "optimizer")})
        # optimizer state tensors (LBFGS keeps lists of flat vectors)
        seen = set()

        def tensors(o):
            if torch.is_tensor(o):
                yield o
            elif isinstance(o, dict):
                for v in o.values():
                    yield from tensors(v)
            elif isinstance(o, (list, tuple)):
                for v in o:
                    yield from tensors(v)
        sb = 0
        for t in tensors(list(opt.state.values())):
            if id(t) not in seen and t.numel():
                seen.add(id(t))
                sb += t.numel() * t.element_size()
        res["opt_state_bytes"] = sb
        res["foreach"] = probe.foreach_ops > 0
        res["foreach_arg"] = opt.param_groups[0].get("foreach")
    probe.__exit__(None, None, None)
    if cfg.get("world"):
        res.update(measure_ddp.finish(model))
    if probe.trace is not None:
        with open(cfg["trace"], "w") as f:
            f.write("step\tphase\top\tlive_bytes\tdelta_bytes\toutputs\n")
            prev = baseline
            for st, ph, op, v, desc in probe.trace:
                f.write(f"{st}\t{ph}\t{op}\t{v - baseline}\t{v - prev}\t{desc}\n")
                prev = v
    res["seconds"] = round(time.time() - t0, 2)
    res["baseline_bytes"] = baseline
    # Intra-op temporaries: glibc's lifetime high-water mark of mmapped bytes
    # (exact, every mmapped allocation updates it) minus the largest mmapped
    # total seen at our sample points.  Only meaningful with a fixed
    # MALLOC_MMAP_THRESHOLD_ (so every allocation >= threshold is mmapped).
    hwm = malloc_stats_max_mmap(libc)
    if hwm is not None:
        res["hidden_intra_op_bytes"] = hwm - probe.max_hblkhd
    return res


def malloc_stats_max_mmap(libc):
    """Call glibc malloc_stats() with fd 2 redirected; return 'max mmap bytes'."""
    import tempfile
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            libc.malloc_stats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode(errors="replace")
    m = re.search(r"max mmap bytes\s*=\s*(\d+)", text)
    return int(m.group(1)) if m else None


def run_worker_main(cfg_json):
    cfg = json.loads(cfg_json)
    try:
        res = worker(cfg)
    except Exception as e:  # unsupported op in bf16 etc.: recorded, not fatal
        import traceback
        traceback.print_exc()
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        res = {"skipped": True, "reason": f"{type(e).__name__}: {msg}"[:300]}
    sys.stdout.write("@@RESULT@@" + json.dumps(res) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# driver

def run_config(cfg, timeout, extra_env=(), script=None):
    """Runs cfg in a fresh worker process of `script` (default: this file) with WORKER_ENV."""
    env = dict(os.environ)
    env.update(WORKER_ENV)
    env.update(extra_env)
    for k in [k for k, v in env.items() if v == "" and k in extra_env]:
        del env[k]  # --env KEY= unsets KEY
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(script or __file__), "--worker", json.dumps(cfg)],
                           env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"skipped": True, "reason": f"timeout after {timeout}s"}, time.time() - t0
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("@@RESULT@@")]
    if not line:
        tail = (p.stderr or "").strip().splitlines()[-1:] or [f"exit code {p.returncode}"]
        return {"skipped": True, "reason": f"worker failed: {tail[0]}"[:300]}, time.time() - t0
    return json.loads(line[0][len("@@RESULT@@"):]), time.time() - t0


KEY_ORDER = ["id", "spec", "batch", "dtype", "optimizer", "optimizer_impl", "lbfgs_history", "checkpoint", "mode",
             "skipped", "reason",
             "param_count", "param_bytes", "peak_bytes", "peak_phase", "phase_bytes", "aten_ops"]


def ordered(rec):
    out = {k: rec[k] for k in KEY_ORDER if k in rec}
    out.update({k: v for k, v in rec.items() if k not in out})
    return out


def machine_info():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    cpu = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    probe = ("import torch, re; torch.set_num_threads(1); "
             "cfg = torch.__config__.show(); m = re.search(r'BLAS_INFO=([^,]*)', cfg); "
             "print(torch.__version__); print(m.group(1) if m else '?'); "
             "print(torch.backends.mkldnn.is_available())")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=dict(os.environ, **WORKER_ENV)).stdout.split()
    torch_version, blas, mkldnn = (out + ["?", "?", "?"])[:3]
    return {"cpu": cpu, "cpu_count": os.cpu_count(), "torch": torch_version,
            "torch_blas": blas, "mkldnn": mkldnn == "True", "torch_threads": 1,
            "python": platform.python_version(), "libc": "glibc " + platform.libc_ver()[1],
            "worker_env": WORKER_ENV, "date": datetime.date.today().isoformat()}


def dump(doc, path):
    """Pretty-print with one config per line so diffs stay readable."""
    lines = ["{"]
    lines.append(f'  "machine": {json.dumps(doc["machine"])},')
    lines.append(f'  "protocol": {json.dumps(doc["protocol"])},')
    if "run_seconds" in doc:
        lines.append(f'  "run_seconds": {json.dumps(doc["run_seconds"])},')
    lines.append('  "configs": [')
    cfgs = doc["configs"]
    for i, c in enumerate(cfgs):
        lines.append("    " + json.dumps(ordered(c)) + ("," if i + 1 < len(cfgs) else ""))
    lines.append("  ]")
    lines.append("}")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output JSON file")
    ap.add_argument("--only", help="regex: run only configs whose id matches (re.search)")
    ap.add_argument("--list", action="store_true", help="print the config ids and exit")
    ap.add_argument("--merge", action="store_true",
                    help="update matching entries of an existing --out file instead of replacing it")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each config N times; peak_bytes is the first run, the others "
                         "go to repeat_peak_bytes")
    ap.add_argument("--timeout", type=int, default=600, help="per-config timeout in seconds")
    ap.add_argument("--trace", metavar="DIR",
                    help="also write DIR/<id>.tsv: live heap (minus baseline) after every aten op "
                         "(diagnostics; the trace list itself perturbs the heap slightly)")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="extra/overriding worker environment variable; KEY= unsets it (experiments only)")
    ap.add_argument("--grid", choices=("main", "versions"), default="main",
                    help="main: the grid of measured.json and measured_llm.json; versions: what PyTorch "
                         "releases do differently (foreach/fused optimizers), run under 1.13 and 2.x")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        run_worker_main(args.worker)
        return

    grid = build_grid() if args.grid == "main" else build_versions_grid()
    if args.only:
        grid = [c for c in grid if re.search(args.only, c["id"])]
    if args.list:
        for c in grid:
            print(c["id"])
        print(f"{len(grid)} configs", file=sys.stderr)
        return
    if not args.out:
        ap.error("--out is required")

    t_start = time.time()
    results = []
    for i, cfg in enumerate(grid):
        runs = []
        if args.trace:
            os.makedirs(args.trace, exist_ok=True)
            cfg = dict(cfg, trace=os.path.abspath(os.path.join(args.trace, cfg["id"] + ".tsv")))
        for r in range(args.repeat):
            res, dt = run_config(cfg, args.timeout, dict(e.split("=", 1) for e in args.env))
            runs.append(res)
            status = (f"SKIP {res['reason']}" if res.get("skipped") else
                      f"peak {res['peak_bytes'] / 2**20:8.2f} MiB ({res['peak_phase']})")
            print(f"[{i + 1}/{len(grid)}] {cfg['id']:<45} {status}  {dt:.1f}s", flush=True)
        rec = dict(cfg)
        rec.pop("trace", None)
        rec.update(runs[0])
        if args.repeat > 1 and not runs[0].get("skipped"):
            rec["repeat_peak_bytes"] = [r.get("peak_bytes") for r in runs[1:]]
        if rec.get("lbfgs_history") is None:
            rec.pop("lbfgs_history", None)
        results.append(rec)
    elapsed = time.time() - t_start

    doc = {"machine": machine_info(), "protocol": PROTOCOL, "configs": results}
    if args.merge and os.path.exists(args.out):
        with open(args.out) as f:
            old = json.load(f)
        new = {c["id"]: c for c in results}
        order = [c["id"] for c in build_grid()]
        merged = {c["id"]: c for c in old["configs"]}
        merged.update(new)
        doc["configs"] = sorted(merged.values(),
                                key=lambda c: order.index(c["id"]) if c["id"] in order else 1e9)
        doc["machine"] = old.get("machine", doc["machine"])
    else:
        doc["run_seconds"] = round(elapsed, 1)
    dump(doc, args.out)

    ok = [c for c in results if not c.get("skipped")]
    print(f"{len(ok)} measured, {len(results) - len(ok)} skipped, {elapsed:.0f}s", flush=True)
    if ok:
        peaks = [c["peak_bytes"] for c in ok]
        print(f"peak range {min(peaks) / 2**20:.1f} .. {max(peaks) / 2**20:.1f} MiB")
        small = [c["id"] for c in ok if c["peak_bytes"] < 20 * 2**20]
        if small:
            print("WARNING peak < 20 MiB:", ", ".join(small))
    if args.repeat > 1:
        for c in results:
            if c.get("repeat_peak_bytes"):
                allp = [c["peak_bytes"]] + c["repeat_peak_bytes"]
                print(f"{c['id']:<45} spread {max(allp) - min(allp):>8d} B "
                      f"({(max(allp) - min(allp)) / statistics.mean(allp) * 100:.3f}%)")


if __name__ == "__main__":
    main()
