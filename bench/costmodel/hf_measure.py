#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measure the peak CPU heap of the real Hugging Face transformers models of every model_type
in tests/data/hf: the ground truth `memviz estimate --config` is held to family by family
(tests/tst_hf_measured, docs/costmodel.md "Families measured").

    PY=$(bash packaging/install-py-deps.sh)
    $PY bench/costmodel/hf_measure.py --write-configs            # the cut configs only
    $PY bench/costmodel/hf_measure.py --list
    nice -n 5 $PY bench/costmodel/hf_measure.py --only '^gpt2-' --merge
    nice -n 5 $PY bench/costmodel/hf_measure.py                  # everything (~15 min)

Each published config is cut to fit the CPU (two layers or the smallest pattern that keeps every
layer kind, narrower and with a smaller vocabulary where the published model is large; the
attention shape, head size, group ratio, expert routing and every other knob kept) and the cut
config is written to tests/data/hf/cut/ so that memviz reads the very file the model was built
from. Per model_type three runs: a training step with AdamW (full fine-tune), the same with LoRA
adapters through peft (r=16, every linear layer: memviz's --lora-targets all), and inference
(decoders and encoder-decoders: prefill of the sequence, then three decoding steps with the
model's own cache; encoders and vision models: one forward).

The protocol is measure.py's, through its functions (fresh worker per run, its environment,
mallinfo2 live heap sampled after every aten op, baseline after the warm-up): the model is built
with `from_config` (random weights, float32, no downloads) after the baseline; training measures
the second of two steps `zero_grad(set_to_none=True); model(**batch).loss.backward(); step()`,
inference the forward pass(es) under torch.no_grad() from after the model and batch are built.
The loss is the model's own (`labels=`), as users run it; attention is transformers' default
(sdpa). Needs the pinned environment (torch 2.13, transformers, peft)."""

import argparse
import copy
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure as M  # noqa: E402  (the protocol)

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
HF_DIR = os.path.join(ROOT, "tests", "data", "hf")
CUT_DIR = os.path.join(HF_DIR, "cut")
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "costmodel", "measured_hf_2.13.json")

SEQ, BATCH, DECODE_STEPS, LORA_RANK = 128, 2, 3, 16

# One published config per model_type, and what the cut changes besides the layer count. Width:
# heads (head size kept) and the MLP scaled down together; vocabularies above 32k cut to 32000.
SOURCES = {
    "llama": "llama-2-7b", "mistral": "mistral-7b", "mixtral": "mixtral-8x7b", "qwen2": "qwen2-0.5b",
    "qwen2_moe": "qwen1.5-moe-a2.7b", "qwen3": "qwen3-0.6b", "qwen3_moe": "qwen3-30b-a3b", "gemma": "gemma-2b",
    "gemma2": "gemma-2-2b", "gemma3_text": "gemma-3-1b", "phi": "phi-2", "phi3": "phi-3-mini-4k",
    "falcon": "falcon-7b", "RefinedWeb": "falcon-40b-refinedweb", "RefinedWebModel": "falcon-7b-refinedwebmodel",
    "gpt_neox": "pythia-160m", "gptj": "gpt-j-6b", "gpt2": "gpt2", "gpt_bigcode": "starcoderbase-1b",
    "starcoder2": "starcoder2-3b", "opt": "opt-125m", "bloom": "bloom-560m", "stablelm": "stablelm-2-1.6b",
    "olmo2": "olmo-2-7b", "granite": "granite-3.0-2b", "granitemoe": "granite-3.1-1b-a400m-instruct", "cohere": "command-r-v01",
    "deepseek_v2": "deepseek-v2-lite", "deepseek_v3": "deepseek-v3", "t5": "t5-small", "bart": "bart-base",
    "whisper": "whisper-tiny", "bert": "bert-base-uncased", "roberta": "roberta-base",
    "xlm-roberta": "xlm-roberta-base", "distilbert": "distilbert-base-uncased", "deberta-v2": "deberta-v3-base",
    "vit": "vit-base-patch16-224", "clip": "clip-vit-base-patch32", "siglip": "siglip-base-patch16-224",
    "mamba": "mamba-130m", "jamba": "jamba-v0.1",
}

LAYER_KEYS = ("num_hidden_layers", "n_layer", "num_layers", "num_decoder_layers", "encoder_layers",
              "decoder_layers", "n_layers")
HIDDEN_KEYS = ("hidden_size", "n_embd", "d_model", "dim")
HEAD_KEYS = ("num_attention_heads", "n_head", "num_heads", "n_heads")
KV_KEYS = ("num_key_value_heads", "n_head_kv", "num_kv_heads")
FF_KEYS = ("intermediate_size", "n_inner", "d_ff", "ffn_dim", "shared_expert_intermediate_size", "hidden_dim")
MAX_HIDDEN, MAX_VOCAB = 768, 32000

# Per config: the keys the cut sets by hand (experts, layer patterns), after the generic cut.
EXTRA = {
    "mixtral-8x7b": {"intermediate_size": 1344},
    "qwen1.5-moe-a2.7b": {"num_experts": 8, "num_experts_per_tok": 4, "moe_intermediate_size": 512},
    "qwen3-30b-a3b": {"num_experts": 16, "num_experts_per_tok": 8, "moe_intermediate_size": 256},
    "granite-3.1-1b-a400m-instruct": {"num_local_experts": 8},
    "deepseek-v2-lite": {"n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 384,
                         "first_k_dense_replace": 1},
    "deepseek-v3": {"n_routed_experts": 16, "num_experts_per_tok": 4, "n_group": 4, "topk_group": 2,
                    "moe_intermediate_size": 384, "first_k_dense_replace": 1, "q_lora_rank": 512},
    "jamba-v0.1": {"num_hidden_layers": 2, "attn_layer_period": 2, "attn_layer_offset": 1, "expert_layer_period": 2,
                   "expert_layer_offset": 1, "num_experts": 4, "mamba_dt_rank": 64, "intermediate_size": 1344},
    "gemma-3-1b": {"num_hidden_layers": 2, "sliding_window_pattern": 2, "sliding_window": 128},
    "gemma-2-2b": {"sliding_window": 128},
    "mistral-7b": {"sliding_window": 4096},
    "whisper-tiny": {"max_source_positions": SEQ // 2, "max_target_positions": SEQ + DECODE_STEPS + 1},
}


def _first(d, keys):
    return next((k for k in keys if k in d), None)


def cut(raw, name):
    """The published config cut to fit the CPU (see the module docstring)."""
    d = copy.deepcopy(raw)
    d["_comment"] = (f"{name}.json cut by bench/costmodel/hf_measure.py to fit a CPU measurement "
                     f"(fewer layers, narrower, smaller vocabulary); everything else as published")
    for sub in ("text_config", "vision_config"):
        if isinstance(d.get(sub), dict):
            d[sub] = cut(d[sub], name)
            d[sub].pop("_comment", None)
    for k in LAYER_KEYS:
        if k in d:
            d[k] = min(d[k], 2)
    hk, nk = _first(d, HIDDEN_KEYS), _first(d, HEAD_KEYS)
    if hk and nk and d[hk] > MAX_HIDDEN:
        h, heads = d[hk], d[nk]
        hd = d.get("head_dim") or h // heads
        kk = _first(d, KV_KEYS)
        kv = d.get(kk) if kk else None
        if d.get("multi_query") and not kv:
            kv = 1
        ratio = heads // kv if kv and kv > 1 else 1  # multi-query stays one KV head
        new_heads = max(ratio, (heads * MAX_HIDDEN // h) // ratio * ratio)
        new_h = MAX_HIDDEN if "head_dim" in d else new_heads * hd
        d[nk] = new_heads
        if kk and kv:
            d[kk] = new_heads // ratio if kv > 1 else 1
        for fk in FF_KEYS:
            if isinstance(d.get(fk), int):
                d[fk] = max(64, d[fk] * new_h // h // 64 * 64)
        if "mamba_dt_rank" in d:
            d["mamba_dt_rank"] = max(16, d["mamba_dt_rank"] * new_h // h)
        d[hk] = new_h
    if isinstance(d.get("vocab_size"), int) and d["vocab_size"] > 65536:
        d["vocab_size"] = MAX_VOCAB
    for k in list(d):
        if k.endswith("_token_id") and isinstance(d[k], int) and isinstance(d.get("vocab_size"), int):
            d[k] = min(d[k], d["vocab_size"] - 1)
    d.update(EXTRA.get(name, {}))
    if d.get("torch_dtype") or "torch_dtype" not in d:
        d["torch_dtype"] = "float32"  # the CPU runs in float32; memviz follows the config's dtype
    return d


def write_configs():
    os.makedirs(CUT_DIR, exist_ok=True)
    out = {}
    for mt, name in SOURCES.items():
        with open(os.path.join(HF_DIR, name + ".json")) as f:
            raw = json.load(f)
        d = cut(raw, name)
        path = os.path.join(CUT_DIR, name + ".json")
        with open(path, "w") as f:
            json.dump(d, f, indent=1)
            f.write("\n")
        out[mt] = path
    return out


# ---------------------------------------------------------------------------
# what each model_type is built as and fed

ENCODERS = {"bert", "roberta", "xlm-roberta", "distilbert", "deberta-v2"}
SEQ2SEQ = {"t5", "bart", "whisper"}
VISION = {"vit", "clip", "siglip"}


def kind(mt):
    return ("encoder" if mt in ENCODERS else "seq2seq" if mt in SEQ2SEQ else "vision" if mt in VISION else "decoder")


def modes(mt):
    return ("train", "lora", "infer")


def build_grid():
    grid = []
    for mt, name in SOURCES.items():
        for mode in modes(mt):
            grid.append({"id": f"{name}-{mode}", "model_type": mt, "config": f"hf/cut/{name}.json", "mode": mode,
                         "seq": SEQ, "batch": BATCH, "dtype": "fp32",
                         "optimizer": "adamw" if mode != "infer" else None,
                         "lora": LORA_RANK if mode == "lora" else 0,
                         "lora_targets": "all" if mode == "lora" else None,
                         "kv_cache": SEQ + DECODE_STEPS if mode == "infer" and kind(mt) in ("decoder", "seq2seq") else 0,
                         "kind": kind(mt)})
    return grid


def hf_config(raw):
    """transformers' config object of a cut config (RefinedWeb* read as falcon, as transformers does)."""
    from transformers import AutoConfig
    raw = {k: v for k, v in raw.items() if k != "_comment"}
    if raw["model_type"] in ("RefinedWeb", "RefinedWebModel"):
        new = raw["model_type"] == "RefinedWeb"
        raw = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "hidden_size": raw["hidden_size"],
               "num_attention_heads": raw["n_head"], "num_hidden_layers": raw["n_layer"],
               "num_kv_heads": raw.get("n_head_kv", 1), "multi_query": raw.get("multi_query", True),
               "new_decoder_architecture": new, "parallel_attn": raw["parallel_attn"], "bias": raw["bias"],
               "alibi": raw["alibi"], "vocab_size": raw["vocab_size"], "torch_dtype": "float32"}
    mt = raw.pop("model_type")
    return AutoConfig.for_model(mt, **raw)


def build_model(mt, config):
    import torch
    import transformers as T
    arch = (getattr(config, "architectures", None) or [""])[0]
    k = kind(mt)
    if k == "encoder":  # memviz simulates these as sequence classification with 2 labels
        config.num_labels = 2
        model = T.AutoModelForSequenceClassification.from_config(config)
    elif mt == "vit":
        model = T.ViTForImageClassification(config)
    elif mt in ("clip", "siglip"):
        model = getattr(T, arch)(config)
    elif k == "seq2seq":
        model = T.AutoModelForSeq2SeqLM.from_config(config) if mt != "whisper" else T.WhisperForConditionalGeneration(config)
    else:
        model = T.AutoModelForCausalLM.from_config(config)
    return model.to(torch.float32)


def make_batch(mt, config, batch, seq):
    import torch
    k = kind(mt)
    vocab = getattr(config, "vocab_size", None)
    if k == "decoder":
        ids = torch.randint(0, vocab, (batch, seq))
        return {"input_ids": ids, "labels": ids.clone()}
    if k == "encoder":
        return {"input_ids": torch.randint(0, vocab, (batch, seq)), "labels": torch.randint(0, 2, (batch,))}
    if mt == "whisper":
        frames = 2 * config.max_source_positions
        return {"input_features": torch.randn(batch, config.num_mel_bins, frames),
                "labels": torch.randint(0, vocab, (batch, seq))}
    if k == "seq2seq":
        return {"input_ids": torch.randint(0, vocab, (batch, seq)), "labels": torch.randint(0, vocab, (batch, seq))}
    vc = getattr(config, "vision_config", config)
    pixels = torch.randn(batch, vc.num_channels, vc.image_size, vc.image_size)
    if mt == "vit":
        return {"pixel_values": pixels, "labels": torch.randint(0, config.num_labels, (batch,))}
    tc = config.text_config
    return {"pixel_values": pixels, "input_ids": torch.randint(0, tc.vocab_size, (batch, min(seq, tc.max_position_embeddings))),
            "return_loss": True}


def infer(model, mt, inp, steps):
    """Inference as measured: a decoder's prefill and `steps` decoding steps with its own cache; an
    encoder-decoder's encoder, decoder prefill and steps; otherwise one forward."""
    import torch
    k = kind(mt)
    if k in ("encoder", "vision"):
        return model(**{n: v for n, v in inp.items() if n not in ("labels", "return_loss")})
    if k == "seq2seq":
        src = {n: v for n, v in inp.items() if n in ("input_ids", "input_features")}
        enc = model.get_encoder()(**src)
        dec = inp["labels"]
        out = model(encoder_outputs=enc, decoder_input_ids=dec, use_cache=True)
        for i in range(steps):
            tok = out.logits[:, -1:].argmax(-1)
            cache = out.past_key_values
            del out
            out = model(encoder_outputs=enc, decoder_input_ids=tok, past_key_values=cache, use_cache=True)
        return out
    ids = inp["input_ids"]
    seq = ids.shape[1]
    out = model(input_ids=ids, use_cache=True)
    for i in range(steps):
        tok = out.logits[:, -1:].argmax(-1)
        kw = {"cache_position": torch.tensor([seq + i])}
        if mt == "mamba":
            kw["cache_params"] = out.cache_params
        else:
            kw["past_key_values"] = out.past_key_values
        del out
        out = model(input_ids=tok, use_cache=True, **kw)
    return out


def worker(cfg):
    import gc
    libc, mallinfo2 = M.heap_functions()
    import torch
    import transformers  # noqa: F401  (imported before the baseline)
    torch.set_num_threads(1)
    if cfg["mode"] == "lora":
        import peft
    with open(os.path.join(ROOT, "tests", "data", cfg["config"])) as f:
        raw = json.load(f)
    mt = cfg["model_type"]
    config = hf_config(raw)
    probe = M.make_probe(mallinfo2)
    baseline = M.start_probe(probe)
    t0 = time.time()
    res = {}
    torch.manual_seed(0)
    model = build_model(mt, config)
    res["model_class"] = type(model).__name__
    if cfg["mode"] == "lora":
        lc = peft.LoraConfig(r=cfg["lora"], lora_alpha=2 * cfg["lora"], lora_dropout=0.0, target_modules="all-linear")
        model = peft.get_peft_model(model, lc)
    inp = make_batch(mt, config, cfg["batch"], cfg["seq"])
    all_params = list(model.parameters())
    params = [p for p in all_params if p.requires_grad]
    res["param_count"] = sum(p.numel() for p in all_params)
    res["param_bytes"] = sum(p.numel() * p.element_size() for p in all_params)
    res["trainable_count"] = sum(p.numel() for p in params)
    res["buffer_bytes"] = sum(b.numel() * b.element_size() for b in model.buffers())
    if cfg["mode"] == "infer":
        model.eval()
        gc.collect()
        probe.phase = "forward"
        probe.reset()
        start = probe.sample("start")
        res["build_bytes"] = start - baseline
        with torch.no_grad():
            out = infer(model, mt, inp, DECODE_STEPS)
        end = probe.sample("forward_end")
        res.update(peak_bytes=probe.peak - baseline, peak_phase=probe.peak_phase, peak_op=probe.peak_op,
                   phase_bytes={"step_start": start - baseline, "forward_end": end - baseline},
                   aten_ops=sum(probe.ops.values()))
        del out
    else:
        model.train()
        opt = torch.optim.AdamW(params)
        gc.collect()
        res["build_bytes"] = probe.sample("built") - baseline
        marks = {}

        def step():
            probe.step += 1
            probe.phase = "forward"
            marks["step_start"] = probe.sample("step_start")
            opt.zero_grad(set_to_none=True)
            loss = model(**inp).loss
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
        gc.collect()
        probe.reset()
        step()
        res.update(peak_bytes=probe.peak - baseline, peak_phase=probe.peak_phase, peak_op=probe.peak_op,
                   phase_bytes={k: marks[k] - baseline for k in ("step_start", "forward_end", "backward_end", "step_end")},
                   aten_ops=sum(probe.ops.values()),
                   opt_state_bytes=sum(t.numel() * t.element_size() for s in opt.state.values()
                                       for t in s.values() if torch.is_tensor(t) and t.numel() > 1))
    probe.__exit__(None, None, None)
    res["seconds"] = round(time.time() - t0, 2)
    res["baseline_bytes"] = baseline
    return res


def run_worker_main(cfg_json):
    cfg = json.loads(cfg_json)
    try:
        res = worker(cfg)
    except Exception as e:  # a family the installed transformers cannot build or run: recorded
        import traceback
        traceback.print_exc()
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        res = {"skipped": True, "reason": f"{type(e).__name__}: {msg}"[:300]}
    sys.stdout.write("@@RESULT@@" + json.dumps(res) + "\n")
    sys.stdout.flush()


PROTOCOL = (M.PROTOCOL + " Hugging Face families (bench/costmodel/hf_measure.py): the model is "
            "transformers' own, built with from_config from the cut config (random weights, float32) after the "
            "baseline; training: AdamW (PyTorch's default implementation), the model's own loss (labels=), the "
            "second of two steps; LoRA through peft (r=16, alpha=32, no dropout, target_modules='all-linear'); "
            "inference under torch.no_grad(): decoders a prefill of the sequence (all positions' logits) and three "
            "decoding steps with the model's own cache (DynamicCache; Mamba's own), encoder-decoders the encoder, the "
            "decoder's prefill and three steps, encoders and vision models one forward. Attention: transformers' "
            "default (sdpa).")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output JSON (default tests/data/costmodel/measured_hf_2.13.json)")
    ap.add_argument("--only", help="regex: run only the runs whose id matches (re.search)")
    ap.add_argument("--list", action="store_true", help="print the run ids and exit")
    ap.add_argument("--merge", action="store_true", help="update the matching entries of an existing --out file")
    ap.add_argument("--write-configs", action="store_true", help="write the cut configs to tests/data/hf/cut and exit")
    ap.add_argument("--timeout", type=int, default=900, help="per-run timeout in seconds")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        run_worker_main(args.worker)
        return
    write_configs()
    if args.write_configs:
        return
    grid = build_grid()
    if args.only:
        grid = [c for c in grid if re.search(args.only, c["id"])]
    if args.list:
        for c in grid:
            print(c["id"])
        return
    t_start = time.time()
    results = []
    for i, cfg in enumerate(grid):
        res, dt = M.run_config(cfg, args.timeout, script=__file__)
        status = (f"SKIP {res['reason']}" if res.get("skipped") else
                  f"peak {res['peak_bytes'] / 2**20:8.2f} MiB ({res['peak_phase']})")
        print(f"[{i + 1}/{len(grid)}] {cfg['id']:<40} {status}  {dt:.1f}s", flush=True)
        rec = dict(cfg)
        rec.update(res)
        results.append(rec)
    doc = {"machine": M.machine_info(), "protocol": PROTOCOL, "configs": results}
    import transformers
    import peft
    doc["machine"].update(transformers=transformers.__version__, peft=peft.__version__)
    if args.merge and os.path.exists(args.out):
        with open(args.out) as f:
            old = json.load(f)
        order = [c["id"] for c in build_grid()]
        merged = {c["id"]: c for c in old["configs"]}
        merged.update({c["id"]: c for c in results})
        doc["configs"] = sorted(merged.values(), key=lambda c: order.index(c["id"]) if c["id"] in order else 1e9)
    else:
        doc["run_seconds"] = round(time.time() - t_start, 1)
    M.dump(doc, args.out)
    print(f"{sum(not c.get('skipped') for c in results)} measured, {sum(bool(c.get('skipped')) for c in results)} "
          f"skipped, {time.time() - t_start:.0f}s", flush=True)


if __name__ == "__main__":
    main()
