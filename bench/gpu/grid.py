# SPDX-License-Identifier: MIT
"""The CUDA ground-truth grid: which configurations truth.py runs, in which order, and how long
each is expected to take. Standard library only, so `truth.py --dry-run` works under any Python
3 without torch, transformers or a GPU.

A configuration is one Hugging Face config.json of tests/data/hf/ (a causal language model),
its layer count cut so that it fits one GPU with room to spare (random weights: nothing is
downloaded), and one way of running it: a training step (optimizer, dtype, autocast,
checkpointing, LoRA, frozen layers, attention kernel) or inference (a forward, or generate with a
static or a dynamic KV cache at two context lengths). Each configuration says which
`memviz estimate` options describe the same step (bench/gpu/compare.py uses them).
"""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CONFIGS = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "data", "hf"))

# The cut: as many layers as the parameter budget allows (at least one, at most the config's).
PARAM_TARGET = 700_000_000
TRAIN_SEQ = 512
TRAIN_BATCH = 2
INFER_BATCH = 1
CONTEXTS = (512, 2048)       # generate: prompt + new tokens, capped at the position table
NEW_TOKENS = 32
STARTUP_S = 25.0             # imports, CUDA initialisation, the first kernels
PER_CONFIG_S = 2.0           # build, teardown, empty_cache

LAYER_KEYS = ("num_hidden_layers", "n_layer", "num_layers")
HIDDEN_KEYS = ("hidden_size", "n_embd", "d_model")
HEAD_KEYS = ("num_attention_heads", "n_head", "num_heads")
POSITION_KEYS = ("max_position_embeddings", "n_positions")

# Families whose whole set of variants runs (the cheapest config of each model_type); every
# other causal family gets the base set.
RICH_TYPES = ("gpt2", "llama", "qwen2")
GPT2_LIKE = ("gpt2",)
LORA_MODULES = {
    "gpt2": {"attn": ["attn.c_attn", "attn.c_proj"], "mlp": ["mlp.c_fc", "mlp.c_proj"]},
    "default": {"attn": ["q_proj", "k_proj", "v_proj", "o_proj"], "mlp": ["gate_proj", "up_proj", "down_proj"]},
}


class ConfigProblem(Exception):
    """A config truth.py cannot use; the message says which key and why."""


def _first(cfg, keys):
    for k in keys:
        if k in cfg and cfg[k] is not None:
            return k, cfg[k]
    return None, None


def _positive_int(cfg, keys, what):
    key, value = _first(cfg, keys)
    if key is None:
        raise ConfigProblem("no %s (%s)" % (what, " / ".join(keys)))
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigProblem("'%s': must be a positive integer, got %s" % (key, json.dumps(value)))
    return key, value


def is_causal_lm(cfg):
    archs = cfg.get("architectures") or []
    if not isinstance(archs, list):
        return False
    return any(isinstance(a, str) and (a.endswith("ForCausalLM") or a.endswith("LMHeadModel")) for a in archs)


def describe(cfg):
    """The sizes the cut and the time estimate need. Raises ConfigProblem naming the key."""
    if not isinstance(cfg, dict):
        raise ConfigProblem("not a JSON object")
    model_type = cfg.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise ConfigProblem("'model_type': missing")
    layer_key, layers = _positive_int(cfg, LAYER_KEYS, "layer count")
    _, hidden = _positive_int(cfg, HIDDEN_KEYS, "hidden size")
    _, heads = _positive_int(cfg, HEAD_KEYS, "attention head count")
    _, vocab = _positive_int(cfg, ("vocab_size",), "vocabulary size")
    if hidden % heads and not cfg.get("head_dim"):
        raise ConfigProblem("hidden size %d is not a multiple of %d heads" % (hidden, heads))
    kv = cfg.get("num_key_value_heads") or heads
    head_dim = cfg.get("head_dim") or hidden // heads
    inner = cfg.get("intermediate_size") or cfg.get("n_inner") or 4 * hidden
    for name, v in (("num_key_value_heads", kv), ("head_dim", head_dim), ("intermediate_size", inner)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigProblem("'%s': must be a positive integer, got %s" % (name, json.dumps(v)))
    experts = cfg.get("num_local_experts") or cfg.get("n_routed_experts") or cfg.get("num_experts") or 0
    active = cfg.get("num_experts_per_tok") or (2 if experts else 0)
    expert_inner = cfg.get("moe_intermediate_size") or inner
    shared = 3 * hidden * ((cfg.get("n_shared_experts") or 0) * expert_inner + (cfg.get("shared_expert_intermediate_size") or 0))
    for name, v in (("experts", experts), ("num_experts_per_tok", active), ("moe_intermediate_size", expert_inner)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ConfigProblem("'%s': must be a whole number, got %s" % (name, json.dumps(v)))
    _, positions = _first(cfg, POSITION_KEYS)
    if model_type in GPT2_LIKE:
        tied = cfg.get("tie_word_embeddings", True)
        per_layer = 4 * hidden * hidden + 4 * hidden + 2 * hidden * inner + inner + hidden + 4 * hidden
        outside = vocab * hidden + (positions or 1024) * hidden + 2 * hidden
        active_per_layer = per_layer
        dense_layer = active_dense = per_layer
    else:
        tied = cfg.get("tie_word_embeddings", False)
        attn = hidden * heads * head_dim + 2 * hidden * kv * head_dim + heads * head_dim * hidden
        mlp = 3 * hidden * inner
        moe = 3 * hidden * expert_inner  # one expert; MoE layers are counted as such throughout (an upper bound)
        per_layer = attn + (experts * moe + hidden * experts + shared if experts else mlp) + 2 * hidden
        active_per_layer = attn + (active * moe + shared if experts else mlp) + 2 * hidden
        dense_layer = active_dense = attn + mlp + 2 * hidden
        outside = vocab * hidden + hidden
    head = 0 if tied else vocab * hidden
    return {"model_type": model_type, "layer_key": layer_key, "layers": layers, "hidden": hidden, "heads": heads,
            "vocab": vocab, "positions": positions if isinstance(positions, int) and positions > 0 else None,
            "tied": bool(tied), "per_layer": per_layer, "active_per_layer": active_per_layer,
            "dense_layer": dense_layer, "active_dense": active_dense,
            "moe_layer": _moe_layer_rule(cfg, experts),
            "outside": outside + head}


def _moe_layer_rule(cfg, experts):
    """Which layer indices have experts: DeepSeek's first_k_dense_replace, Jamba's period/offset."""
    if not experts:
        return {"first_dense": 0, "period": 0, "offset": 0}
    first = cfg.get("first_k_dense_replace") or 0
    period = cfg.get("expert_layer_period") or cfg.get("moe_layer_freq") or 1
    offset = cfg.get("expert_layer_offset") or 0
    for name, v in (("first_k_dense_replace", first), ("expert_layer_period", period), ("expert_layer_offset", offset)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ConfigProblem("'%s': must be a whole number, got %s" % (name, json.dumps(v)))
    return {"first_dense": first, "period": max(1, period), "offset": offset}


def layer_params(d, n, active=False):
    """Parameters of the first n blocks (active: those a token runs through)."""
    rule, total = d["moe_layer"], 0
    for i in range(n):
        moe = rule["period"] and i >= rule["first_dense"] and i >= rule["offset"] and (i - rule["offset"]) % rule["period"] == 0
        if active:
            total += d["active_per_layer"] if moe else d["active_dense"]
        else:
            total += d["per_layer"] if moe else d["dense_layer"]
    return total


def cut_layers(d, target=PARAM_TARGET):
    n = 1
    while n < d["layers"] and d["outside"] + layer_params(d, n + 1) <= target:
        n += 1
    return n


def cut_config(cfg, d, layers):
    """The config as truth.py builds it: '_' keys (comments) dropped, the layer count cut."""
    out = {k: v for k, v in cfg.items() if not k.startswith("_")}
    out[d["layer_key"]] = layers
    return out


def load_configs(folder):
    """[(name, path, cfg or None, problem or None)] for every *.json directly in folder."""
    out = []
    for fn in sorted(os.listdir(folder)):
        path = os.path.join(folder, fn)
        if not fn.endswith(".json") or not os.path.isfile(path):
            continue
        name = fn[:-5]
        try:
            with open(path, encoding="utf-8") as f:
                cfg = json.load(f)
        except json.JSONDecodeError as e:
            out.append((name, path, None, "bad JSON at line %d column %d: %s" % (e.lineno, e.colno, e.msg)))
            continue
        except (OSError, UnicodeDecodeError) as e:
            out.append((name, path, None, "unreadable: %s" % e))
            continue
        out.append((name, path, cfg, None))
    return out


def _variants(d, rich):
    """The ways of running one cut config, as dicts of knobs (see configuration() for the keys)."""
    lora = LORA_MODULES["gpt2" if d["model_type"] in GPT2_LIKE else "default"]
    seq = min(TRAIN_SEQ, d["positions"] or TRAIN_SEQ)
    t = dict(mode="train", dtype="fp32", amp=False, optimizer="adamw", optimizer_impl="foreach",
             checkpoint="none", lora_rank=0, lora_targets=None, lora_modules=None, frozen_top_level=0,
             attention="sdpa", batch=TRAIN_BATCH, seq=seq, generate=None)
    out = [dict(t), dict(t, dtype="bf16")]
    i = dict(t, mode="inference", dtype="bf16", optimizer=None, optimizer_impl=None, batch=INFER_BATCH)
    out.append(dict(i))
    contexts = sorted({min(c, d["positions"] or c) for c in CONTEXTS})
    out.append(dict(i, seq=contexts[0] - NEW_TOKENS, generate={"cache": "static", "new_tokens": NEW_TOKENS, "context": contexts[0]}))
    if not rich:
        return out
    out += [
        dict(i, seq=contexts[0] - NEW_TOKENS, generate={"cache": "dynamic", "new_tokens": NEW_TOKENS, "context": contexts[0]}),
        dict(t, optimizer_impl="fused"),
        dict(t, optimizer="sgd"),
        dict(t, optimizer="adafactor", optimizer_impl="transformers"),
        dict(t, optimizer="adafactor", optimizer_impl="torch"),
        dict(t, amp=True, optimizer_impl="fused"),
        dict(t, dtype="bf16", checkpoint="per-layer"),
        dict(t, checkpoint="per-layer", amp=True),
        dict(t, dtype="bf16", attention="eager"),
        dict(t, dtype="bf16", lora_rank=16, lora_targets="attn", lora_modules=lora["attn"]),
        dict(t, dtype="bf16", lora_rank=16, lora_targets="all", lora_modules=lora["attn"] + lora["mlp"],
             checkpoint="per-layer"),
        dict(t, dtype="bf16", batch=2 * TRAIN_BATCH),
        dict(i, attention="eager"),
        dict(i, seq=contexts[-1]),
        dict(i, seq=contexts[-1] - NEW_TOKENS, generate={"cache": "static", "new_tokens": NEW_TOKENS, "context": contexts[-1]}),
        dict(i, seq=contexts[-1] - NEW_TOKENS, generate={"cache": "dynamic", "new_tokens": NEW_TOKENS, "context": contexts[-1]}),
    ]
    if not d["tied"] and d["model_type"] not in GPT2_LIKE and d["layers_cut"] >= 2:
        # the embedding and the first block frozen: memviz's first 2 top-level layers
        out.append(dict(t, frozen_top_level=2))
    return out


def variant_id(name, layers, v):
    parts = [name, "L%d" % layers, v["mode"]]
    if v["generate"]:
        parts += ["gen", v["generate"]["cache"], "c%d" % v["generate"]["context"]]
    parts.append(v["dtype"] + ("-amp" if v["amp"] else ""))
    if v["optimizer"]:
        parts.append(v["optimizer"] + ("-" + v["optimizer_impl"] if v["optimizer_impl"] else ""))
    if v["checkpoint"] != "none":
        parts.append("ckpt")
    if v["lora_rank"]:
        parts.append("lora%d%s" % (v["lora_rank"], v["lora_targets"]))
    if v["frozen_top_level"]:
        parts.append("frozen%d" % v["frozen_top_level"])
    parts += [v["attention"], "b%d" % v["batch"], "s%d" % v["seq"]]
    return "-".join(parts)


def estimate_seconds(d, v):
    """A rough wall time on one H100 (build, the steps, teardown); the budget check uses it."""
    params = d["outside"] + layer_params(d, d["layers_cut"])
    active = d["outside"] + layer_params(d, d["layers_cut"], active=True)
    build = PER_CONFIG_S + params * 3e-9
    if v["mode"] == "train":
        tokens = v["batch"] * v["seq"]
        flops = 6 * active * tokens * (4 / 3 if v["checkpoint"] != "none" else 1)
        rate = 50e12 if v["dtype"] == "fp32" and not v["amp"] else 200e12
        per_step = flops / rate + params * 32 / 2e12 + 0.03 * d["layers_cut"] + 0.05
        return build + 3 * per_step
    if v["generate"]:
        per_token = 0.012 + 0.004 * d["layers_cut"] + active * 2 / 2e12
        return build + 2 * active * v["seq"] / 200e12 + v["generate"]["new_tokens"] * per_token + 0.5
    return build + 2 * active * v["seq"] * v["batch"] / 200e12 + 0.1


def build_grid(folder=DEFAULT_CONFIGS):
    """(configurations cheapest first, skipped [{name, file, reason}])."""
    usable, skipped = [], []
    for name, path, cfg, problem in load_configs(folder):
        rel = os.path.relpath(path, os.path.normpath(os.path.join(HERE, "..", "..")))
        if problem:
            skipped.append({"name": name, "file": rel, "reason": problem})
            continue
        if not isinstance(cfg, dict):
            skipped.append({"name": name, "file": rel, "reason": "not a JSON object"})
            continue
        if not is_causal_lm(cfg):
            skipped.append({"name": name, "file": rel, "reason": "not a causal language model (architectures: %s)"
                            % json.dumps(cfg.get("architectures"))})
            continue
        try:
            d = describe(cfg)
        except ConfigProblem as e:
            skipped.append({"name": name, "file": rel, "reason": str(e)})
            continue
        d["layers_cut"] = cut_layers(d)
        d["params_cut"] = d["outside"] + layer_params(d, d["layers_cut"])
        usable.append((name, rel, cfg, d))
    # the cheapest config of each rich model_type gets every variant
    rich = {}
    for name, rel, cfg, d in usable:
        if d["model_type"] in RICH_TYPES:
            best = rich.get(d["model_type"])
            if best is None or d["params_cut"] < best[1]:
                rich[d["model_type"]] = (name, d["params_cut"])
    grid = []
    for name, rel, cfg, d in usable:
        is_rich = rich.get(d["model_type"], (None,))[0] == name
        config = cut_config(cfg, d, d["layers_cut"])
        for v in _variants(d, is_rich):
            row = dict(v)
            row.update({"id": variant_id(name, d["layers_cut"], v), "name": name, "config_file": rel,
                        "model_type": d["model_type"], "layers": d["layers_cut"], "layers_full": d["layers"],
                        "params_estimate": d["params_cut"], "config": config,
                        "estimated_s": round(estimate_seconds(d, v), 2), "snapshot": False})
            grid.append(row)
    grid.sort(key=lambda r: (r["estimated_s"], r["id"]))
    _mark_snapshots(grid)
    return grid, skipped


def _mark_snapshots(grid):
    """A _dump_snapshot for the cheapest plain training step, LoRA step and static-cache generate."""
    plain = dict(mode="train", dtype="fp32", amp=False, optimizer="adamw", optimizer_impl="foreach", checkpoint="none",
                 lora_rank=0, frozen_top_level=0, attention="sdpa")
    wanted = [lambda r: all(r[k] == v for k, v in plain.items()),
              lambda r: r["mode"] == "train" and r["lora_rank"] > 0 and r["checkpoint"] == "none",
              lambda r: r["generate"] is not None and r["generate"]["cache"] == "static" and r["model_type"] in RICH_TYPES]
    for pred in wanted:
        for r in grid:
            if pred(r):
                r["snapshot"] = True
                break


def within_budget(grid, budget_s, startup_s=STARTUP_S):
    """The prefix of the grid whose estimated times, after the startup, fit the budget."""
    spent, out = startup_s, []
    for r in grid:
        if spent + r["estimated_s"] > budget_s:
            break
        spent += r["estimated_s"]
        out.append(r)
    return out, spent


def memviz_args(row, device):
    """The `memviz estimate` arguments that describe the row's step (compare.py adds --config)."""
    a = ["--device", device, "--batch", str(row["batch"]), "--dtype", row["dtype"], "--json"]
    if row["amp"]:
        a.append("--amp")
    a += ["--attention", "eager" if row.get("attention_used", row["attention"]) == "eager" else "flash"]
    if row["mode"] == "train":
        a += ["--seq", str(row["seq"]), "--optimizer", row["optimizer"]]
        impl = {"foreach": "foreach", "fused": "fused"}.get(row.get("optimizer_impl") or "")
        if impl:
            a += ["--optimizer-impl", impl]
        if row["checkpoint"] != "none":
            a += ["--checkpoint", row["checkpoint"]]
        if row["lora_rank"]:
            a += ["--lora-rank", str(row["lora_rank"]), "--lora-targets", row["lora_targets"]]
        if row["frozen_top_level"]:
            a += ["--frozen-layers", str(row["frozen_top_level"])]
    else:
        a += ["--inference", "--seq", str(row["seq"])]
        if row.get("generate"):
            a += ["--kv-cache", str(row["generate"]["context"])]
    return a


if __name__ == "__main__":
    g, s = build_grid()
    print(len(g), "configurations,", len(s), "skipped")
    print(math.fsum(r["estimated_s"] for r in g), "s")
