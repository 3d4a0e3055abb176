# SPDX-License-Identifier: MIT
"""Runs one configuration of the ground-truth grid (grid.py) on the GPU and records PyTorch's
own counters per phase: torch.cuda.max_memory_allocated / max_memory_reserved (peaks reset at
the start of each phase), the allocated and reserved bytes at its end, and the device's used
memory (torch.cuda.mem_get_info) beside them. Imported only by truth.py outside --dry-run; needs
PyTorch 2.x, transformers and (for LoRA) peft. With device "cpu" it runs the same code paths
without counters (a smoke test of the script, not a measurement).
"""

import gc
import os
import time

os.environ.setdefault("TORCHDYNAMO_DISABLE", "1")  # generate() must not compile a static cache
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch  # noqa: E402
import transformers  # noqa: E402

SNAPSHOT_ENTRIES = 40000
SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024


class Counters:
    def __init__(self, device):
        self.cuda = device == "cuda"

    def reset(self):
        if self.cuda:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()

    def read(self):
        if not self.cuda:
            return {"max_allocated": None, "max_reserved": None, "allocated": None, "reserved": None, "device_used": None}
        torch.cuda.synchronize()
        free, total = torch.cuda.mem_get_info()
        return {"max_allocated": torch.cuda.max_memory_allocated(), "max_reserved": torch.cuda.max_memory_reserved(),
                "allocated": torch.cuda.memory_allocated(), "reserved": torch.cuda.memory_reserved(),
                "device_used": total - free}


def _from_config(cfg, attn, dtype):
    auto = transformers.AutoModelForCausalLM
    try:
        return auto.from_config(cfg, attn_implementation=attn, dtype=dtype)
    except TypeError:  # transformers 4.x calls it torch_dtype
        return auto.from_config(cfg, attn_implementation=attn, torch_dtype=dtype)


class Unbuildable(Exception):
    """This transformers cannot make the config (an unknown model_type, a key it refuses)."""


def build_model(row, device):
    config = dict(row["config"])
    model_type = config.pop("model_type")
    try:
        cfg = transformers.AutoConfig.for_model(model_type, **config)
    except (ValueError, KeyError, TypeError) as e:
        raise Unbuildable("transformers %s cannot make this config: %s: %s"
                          % (transformers.__version__, type(e).__name__, str(e)[:300]))
    dtype = torch.bfloat16 if row["dtype"] == "bf16" else torch.float32
    torch.manual_seed(0)
    attn = "eager" if row["attention"] == "eager" else "sdpa"
    with torch.device(device):
        try:
            model = _from_config(cfg, attn, dtype)
        except ValueError as e:
            if attn != "sdpa" or "attention implementation" not in str(e):
                raise
            # a family without SDPA in this transformers: measured with eager attention, and so
            # estimated (compare.py reads attention_used)
            row["attention_used"] = "eager"
            model = _from_config(cfg, "eager", dtype)
    model.to(device=device, dtype=dtype)
    return model


def blocks_of(model):
    for path in ("model.layers", "transformer.h", "model.decoder.layers", "gpt_neox.layers"):
        obj = model
        try:
            for part in path.split("."):
                obj = getattr(obj, part)
            return obj
        except AttributeError:
            continue
    raise RuntimeError("cannot find the decoder blocks of %s" % type(model).__name__)


def prepare_training(model, row):
    if row["frozen_top_level"]:
        # memviz's top-level layers of the Llama family: the embedding, then the blocks
        for p in model.get_input_embeddings().parameters():
            p.requires_grad_(False)
        for block in list(blocks_of(model))[: row["frozen_top_level"] - 1]:
            for p in block.parameters():
                p.requires_grad_(False)
    if row["checkpoint"] == "per-layer":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if row["lora_rank"]:
        import peft
        lc = peft.LoraConfig(r=row["lora_rank"], lora_alpha=2 * row["lora_rank"], lora_dropout=0.0,
                             target_modules=row["lora_modules"], task_type="CAUSAL_LM",
                             fan_in_fan_out=row["model_type"] == "gpt2")
        model = peft.get_peft_model(model, lc)
    model.train()
    return model


def make_optimizer(model, row):
    params = [p for p in model.parameters() if p.requires_grad]
    opt, impl = row["optimizer"], row.get("optimizer_impl")
    if opt == "adamw":
        return torch.optim.AdamW(params, lr=1e-5, foreach=impl == "foreach", fused=impl == "fused")
    if opt == "sgd":
        return torch.optim.SGD(params, lr=1e-3, foreach=impl == "foreach")
    if opt == "adafactor" and impl == "torch":
        if not hasattr(torch.optim, "Adafactor"):
            raise NotImplementedError("torch.optim.Adafactor is not in this PyTorch")
        return torch.optim.Adafactor(params, lr=1e-2)
    if opt == "adafactor":
        from transformers.optimization import Adafactor
        return Adafactor(params, scale_parameter=True, relative_step=True, warmup_init=False, lr=None)
    raise ValueError("unknown optimizer %r" % opt)


class Snapshot:
    """torch.cuda.memory._record_memory_history around one phase, then _dump_snapshot."""

    def __init__(self, row, out_dir, device):
        self.path = os.path.join(out_dir, "snapshot-%s.pickle" % row["id"][:80]) if row["snapshot"] and device == "cuda" else None
        self.note = None

    def __enter__(self):
        if self.path:
            try:
                torch.cuda.memory._record_memory_history(max_entries=SNAPSHOT_ENTRIES, stacks="python")
            except TypeError:
                torch.cuda.memory._record_memory_history(max_entries=SNAPSHOT_ENTRIES)
        return self

    def __exit__(self, *exc):
        if not self.path:
            return False
        try:
            torch.cuda.memory._dump_snapshot(self.path)
            size = os.path.getsize(self.path)
            if size > SNAPSHOT_MAX_BYTES:
                os.remove(self.path)
                self.note = "snapshot of %d bytes dropped (over %d)" % (size, SNAPSHOT_MAX_BYTES)
                self.path = None
        finally:
            torch.cuda.memory._record_memory_history(enabled=None)
        return False


def run_training(row, device, counters, phases, out_dir, info):
    counters.reset()
    model = build_model(row, device)
    model = prepare_training(model, row)
    opt = make_optimizer(model, row)
    info["param_count"] = sum(p.numel() for p in model.parameters())
    info["trainable_count"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
    info["adapter_count"] = sum(p.numel() for n, p in model.named_parameters() if "lora_" in n)
    info["optimizer_class"] = type(opt).__module__ + "." + type(opt).__name__
    ids = torch.randint(0, row["config"]["vocab_size"], (row["batch"], row["seq"]), device=device)
    phases["build"] = counters.read()

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=row["amp"]):
            out = model(input_ids=ids, labels=ids, use_cache=False)
        out.loss.backward()
        opt.step()
        loss = float(out.loss.detach())
        del out
        return loss

    counters.reset()
    info["loss_step1"] = step()
    phases["step1"] = counters.read()
    counters.reset()
    snap = Snapshot(row, out_dir, device)
    with snap:
        step()
        info["loss_steady"] = step()
        phases["steady"] = counters.read()
    info["snapshot"] = os.path.basename(snap.path) if snap.path else None
    if snap.note:
        info["snapshot_note"] = snap.note
    del opt, model, ids


def run_inference(row, device, counters, phases, out_dir, info):
    counters.reset()
    model = build_model(row, device)
    model.eval()
    info["param_count"] = sum(p.numel() for p in model.parameters())
    info["trainable_count"] = 0
    ids = torch.randint(0, row["config"]["vocab_size"], (row["batch"], row["seq"]), device=device)
    phases["build"] = counters.read()
    counters.reset()
    snap = Snapshot(row, out_dir, device)
    with torch.no_grad(), snap:
        if row["generate"]:
            g = row["generate"]
            gc_ = transformers.GenerationConfig(max_new_tokens=g["new_tokens"], min_new_tokens=g["new_tokens"],
                                                do_sample=False, pad_token_id=0, eos_token_id=None,
                                                use_cache=True, disable_compile=True)
            if g["cache"] == "static":
                gc_.cache_implementation = "static"
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=gc_)
            info["generated_tokens"] = int(out.shape[1] - ids.shape[1])
            del out
            phases["generate"] = counters.read()
        else:
            out = model(input_ids=ids, use_cache=False)
            del out
            phases["forward"] = counters.read()
    info["snapshot"] = os.path.basename(snap.path) if snap.path else None
    if snap.note:
        info["snapshot_note"] = snap.note
    del model, ids


def clean(device):
    gc.collect()
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        clear = getattr(torch._C, "_cuda_clearCublasWorkspaces", None)
        if clear:
            clear()
        torch.cuda.empty_cache()


def run_row(row, device, out_dir):
    """The result row of one configuration; never raises for the configuration's own failures."""
    start = time.monotonic()
    counters = Counters(device)
    result = {"status": "ok", "phases": {}}
    row = dict(row)
    result["reserved_at_start"] = torch.cuda.memory_reserved() if device == "cuda" else None
    try:
        if row["mode"] == "train":
            run_training(row, device, counters, result["phases"], out_dir, result)
        else:
            run_inference(row, device, counters, result["phases"], out_dir, result)
    except Unbuildable as e:
        result.update(status="skipped", error=str(e))
    except torch.cuda.OutOfMemoryError as e:
        result.update(status="oom", error=str(e).splitlines()[0][:500])
    except Exception as e:  # noqa: BLE001 — one configuration's failure is a row, the grid goes on
        result.update(status="error", error=("%s: %s" % (type(e).__name__, e))[:800])
    clean(device)
    if "attention_used" in row:
        result["attention_used"] = row["attention_used"]
    result["seconds"] = round(time.monotonic() - start, 2)
    return result


def environment(device):
    """Versions and the CUDA context (device memory used before and after torch.cuda.init)."""
    import subprocess
    env = {"torch": torch.__version__, "transformers": transformers.__version__, "cuda": torch.version.cuda,
           "device": device, "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF")}
    try:
        import peft
        env["peft"] = peft.__version__
    except ImportError:
        env["peft"] = None
    if device != "cuda":
        return env
    ctx = {}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=memory.used,memory.total,driver_version", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30)
        used, total, driver = [s.strip() for s in smi.stdout.splitlines()[0].split(",")]
        ctx["nvidia_smi_used_before_init"] = int(used) * 1024 * 1024
        ctx["nvidia_smi_total"] = int(total) * 1024 * 1024
        env["driver"] = driver
    except Exception as e:  # noqa: BLE001
        ctx["nvidia_smi_error"] = str(e)[:200]
    try:  # NVML through torch (needs pynvml), also before any context exists
        ctx["nvml_used_before_init"] = int(torch.cuda.device_memory_used(0))
    except Exception as e:  # noqa: BLE001
        ctx["nvml_error"] = ("%s: %s" % (type(e).__name__, e))[:200]
    torch.cuda.init()
    free, total = torch.cuda.mem_get_info()
    ctx["used_after_init"] = total - free
    ctx["total"] = total
    a = torch.ones(256, 256, device="cuda")
    (a @ a).sum().item()  # loads cuBLAS
    del a
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    ctx["used_after_first_matmul"] = total - free
    ctx["reserved_after_first_matmul"] = torch.cuda.memory_reserved()
    before = ctx.get("nvml_used_before_init", ctx.get("nvidia_smi_used_before_init"))
    if before is not None:
        ctx["context_bytes"] = ctx["used_after_init"] - before
    clean("cuda")
    env["context"] = ctx
    env["device_name"] = torch.cuda.get_device_name(0)
    env["capability"] = list(torch.cuda.get_device_capability(0))
    env["module_loading"] = os.environ.get("CUDA_MODULE_LOADING")
    return env
