#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Count the parameters of every config in tests/data/hf with Hugging Face transformers, on the
meta device (no weights are made or downloaded): the independent count the model_type tables of
model/costmodel/HfFamilies.cpp are checked against where no published safetensors total was at
hand (tests/data/hf/SOURCES.md says which rows). Buffers are not counted; tied weights count once.

Encoder-only checkpoints published with a masked-LM head (bert, roberta, ...) are counted as the
base model with its pooler (what memviz reports for them); everything else as `architectures[0]`.

usage: hf_param_counts.py [DATA_DIR] > tests/data/hf/transformers_counts.json
needs: torch, transformers (any recent version; the committed file says which)."""
import json, os, sys, glob

import torch
import transformers
from transformers import AutoConfig, AutoModel

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "hf")
counts = {}
for path in sorted(glob.glob(os.path.join(data, "*.json"))):
    name = os.path.basename(path)[:-5]
    try:
        raw = json.load(open(path))
    except ValueError:
        continue
    if not isinstance(raw, dict) or "model_type" not in raw or "_comment" not in raw:
        continue
    raw.pop("_comment")
    if raw["model_type"] in ("RefinedWeb", "RefinedWebModel"):  # transformers reads these as falcon
        new = raw["model_type"] == "RefinedWeb"
        raw = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "hidden_size": raw["hidden_size"],
               "num_attention_heads": raw["n_head"], "num_hidden_layers": raw["n_layer"],
               "num_kv_heads": raw.get("n_head_kv", 1), "multi_query": raw.get("multi_query", True),
               "new_decoder_architecture": new, "parallel_attn": raw["parallel_attn"], "bias": raw["bias"],
               "alibi": raw["alibi"], "vocab_size": raw["vocab_size"]}
    mt = raw.pop("model_type")
    cfg = AutoConfig.for_model(mt, **raw)
    arch = (raw.get("architectures") or [""])[0]
    cls = getattr(transformers, arch, None) if arch and not arch.endswith("ForMaskedLM") else None
    with torch.device("meta"):
        model = cls(cfg) if cls is not None else AutoModel.from_config(cfg)
    n = sum(p.numel() for p in model.parameters())
    counts[name] = {"class": type(model).__name__, "parameters": n}
    print(name, type(model).__name__, n, file=sys.stderr)
json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "counts": counts}, sys.stdout, indent=1)
print()
