# SPDX-License-Identifier: MIT
"""Reference implementation of the memviz cost-model JSON model specs.

A spec describes a purely sequential model (a ``torch.nn.Sequential``) plus
its input, target and loss.  This module is the *definition* of the spec
semantics: the C++ cost model parses the same files and must agree with what
is built here.

Spec format
-----------
::

    {"name": "tiny-cnn",
     "input":  {"shape": [3, 32, 32], "dtype": "float32"},
     "target": {"shape": [], "dtype": "int64"},
     "loss": "cross_entropy",
     "layers": [
       {"type": "conv2d", "out_channels": 16, "kernel_size": 3, "padding": 1},
       {"type": "relu"},
       {"type": "maxpool2d", "kernel_size": 2},
       {"type": "flatten"},
       {"type": "linear", "out_features": 10}]}

* ``input.shape`` / ``target.shape`` are per sample; the batch dimension is
  prepended.  ``dtype`` is ``float32`` or ``int64`` (``int64`` input is only
  valid when the first layer is an ``embedding``).
* Every entry of ``layers`` becomes one child of the top-level
  ``nn.Sequential`` (this matters for ``checkpoint_sequential``, which splits
  the model by top-level children).
* Each layer is the matching ``torch.nn`` module with PyTorch defaults for
  every field the spec does not set.  In-features / in-channels are inferred
  from the output shape of the previous layer.
* Unknown top-level keys, unknown layer types and unknown layer fields raise
  ``SpecError`` naming them; so do missing required fields and shape
  mismatches.

Layer types (``field`` = required, ``field=default`` = optional):

==========================  ==================================================
``linear``                  ``out_features``, ``bias=true``.  Applies to the
                            last dim (``nn.Linear``).
``conv2d``                  ``out_channels``, ``kernel_size``, ``stride=1``,
                            ``padding=0``, ``bias=true``, ``groups=1``.  Input
                            ``[C, H, W]``.  Sizes are an int or ``[h, w]``.
``batchnorm2d``             (no fields) ``nn.BatchNorm2d(C)``, input ``[C,H,W]``.
``layernorm``               (no fields) ``nn.LayerNorm(last_dim)``.
``relu`` ``gelu``           (no fields) element-wise, not in-place.
``sigmoid`` ``tanh``
``dropout``                 ``p=0.5`` (``nn.Dropout``, not in-place).
``maxpool2d``               ``kernel_size``, ``stride=kernel_size``,
                            ``padding=0``.
``avgpool2d``               ``kernel_size``, ``stride=kernel_size``,
                            ``padding=0``.
``adaptiveavgpool2d``       ``output_size`` (int or ``[h, w]``).
``flatten``                 (no fields) ``nn.Flatten()`` i.e. start_dim=1 on
                            the batched tensor: per-sample shape -> ``[prod]``.
``embedding``               ``num_embeddings``, ``embedding_dim``.  Integer
                            input ``[*]`` -> ``[*, embedding_dim]``.
``transformer_encoder_layer`` ``d_model`` (must equal the last input dim),
                            ``nhead``, ``dim_feedforward=2048``,
                            ``dropout=0.1``, ``batch_first=true`` (only
                            ``true`` is accepted), ``activation="relu"``
                            (``relu`` | ``gelu``).  Post-norm (PyTorch
                            default ``norm_first=False``).  Input ``[S, E]``.
``residual``                ``layers`` (list of layers, required),
                            ``downsample=[]`` (list of layers).  Output is
                            ``body(x) + skip(x)`` where ``skip`` is the
                            downsample list (identity when empty).  Both
                            branches must produce the same shape.  No
                            activation after the add; put a ``relu`` layer
                            after the block for ResNet style.
==========================  ==================================================

memviz extensions (used by the built-in presets of ``memviz estimate``; the
``--print-spec`` output of a preset builds with this module):

==========================  ==================================================
``linear``                  ``tied=false``: when true the layer reuses the
                            weight of the first ``embedding`` (GPT-2's
                            ``lm_head``); ``bias`` must be false.
``transformer_encoder_layer`` ``norm_first=false`` (pre-norm, as
                            ``nn.TransformerEncoderLayer``), ``causal=false``
                            (a square subsequent mask is passed as
                            ``src_mask``).
``position_embedding``      ``num_embeddings``, ``embedding_dim``: a learned
                            table added to ``[S, E]``: ``x + weight[:S]``.
``token_type_embedding``    ``num_embeddings``, ``embedding_dim``: BERT's token
                            types, all zero: ``x + emb(zeros(B, S))``.
``class_token``             ``embedding_dim``: a learned ``[1, 1, E]`` token
                            prepended: ``[S, E] -> [S+1, E]`` (ViT).
``to_sequence``             (no fields) ``[C, H, W] -> [H*W, C]``
                            (``x.flatten(2).transpose(1, 2)``, ViT patches).
``select_token``            ``index=0``: ``x[:, index]``, ``[S, E] -> [E]``.
``rmsnorm``                 (no fields) Llama's RMSNorm over the last dim
                            (eps 1e-6, computed in float32).
``llama_decoder_layer``     ``d_model``, ``nhead``, ``dim_feedforward``:
                            transformers' ``LlamaDecoderLayer`` (pre-norm
                            RMSNorm, q/k/v/o, rotary positions,
                            causal eager attention, SwiGLU MLP);
                            ``num_key_value_heads=nhead`` (GQA/MQA),
                            ``num_experts=0``, ``experts_per_token=2``
                            (Mixtral-style MoE MLP), ``head_dim=d_model/nhead``
                            (Qwen2, Mistral-Nemo: q is nhead*head_dim wide),
                            ``qkv_bias=false`` (Qwen2), ``o_bias=false``,
                            ``mlp_bias=false`` (Llama's attention_bias /
                            mlp_bias).  See llm_blocks.py.
``gpt2_block``              ``d_model``, ``nhead``, ``dim_feedforward=4*d_model``,
                            ``dropout=0.1``: transformers' ``GPT2Block``
                            (eager).  See llm_blocks.py.
==========================  ==================================================

Losses:

* ``cross_entropy`` -- ``F.cross_entropy`` (mean reduction).  Target dtype
  ``int64``.  If the model output is ``[B, C]`` the target shape is ``[]``;
  if it is ``[B, *, C]`` (e.g. a per-token classifier head) the target shape
  is ``[*]`` and output/target are reshaped to ``[N, C]`` / ``[N]`` (views,
  no copy) before the loss, as in language-model training.
* ``mse`` -- ``F.mse_loss`` (mean).  Target shape equals the per-sample output
  shape, dtype ``float32`` (converted to the model dtype when the model runs
  in bf16).
"""

import json
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from llm_blocks import GPT2Block, LlamaDecoderLayer, RMSNorm

__all__ = ["SpecError", "load_spec", "build_model", "make_loss_fn",
           "make_batch", "infer_shapes", "DTYPES"]

DTYPES = {"float32": torch.float32, "int64": torch.int64}


class SpecError(ValueError):
    pass


# --------------------------------------------------------------------------
# field handling

# type -> (required fields, {optional field: default})
LAYER_FIELDS = {
    "linear": (["out_features"], {"bias": True, "tied": False}),
    "conv2d": (["out_channels", "kernel_size"],
               {"stride": 1, "padding": 0, "bias": True, "groups": 1}),
    "batchnorm2d": ([], {}),
    "layernorm": ([], {}),
    "relu": ([], {}),
    "gelu": ([], {}),
    "sigmoid": ([], {}),
    "tanh": ([], {}),
    "dropout": ([], {"p": 0.5}),
    "maxpool2d": (["kernel_size"], {"stride": None, "padding": 0}),
    "avgpool2d": (["kernel_size"], {"stride": None, "padding": 0}),
    "adaptiveavgpool2d": (["output_size"], {}),
    "flatten": ([], {}),
    "embedding": (["num_embeddings", "embedding_dim"], {}),
    "transformer_encoder_layer": (["d_model", "nhead"],
                                  {"dim_feedforward": 2048, "dropout": 0.1,
                                   "batch_first": True, "activation": "relu",
                                   "norm_first": False, "causal": False}),
    "residual": (["layers"], {"downsample": []}),
    # memviz extensions (presets)
    "position_embedding": (["num_embeddings", "embedding_dim"], {}),
    "token_type_embedding": (["num_embeddings", "embedding_dim"], {}),
    "class_token": (["embedding_dim"], {}),
    "to_sequence": ([], {}),
    "select_token": ([], {"index": 0}),
    "rmsnorm": ([], {}),
    "llama_decoder_layer": (["d_model", "nhead", "dim_feedforward"],
                            {"num_key_value_heads": None, "num_experts": 0, "experts_per_token": 2,
                             "head_dim": None, "qkv_bias": False, "o_bias": False, "mlp_bias": False}),
    "gpt2_block": (["d_model", "nhead"], {"dim_feedforward": None, "dropout": 0.1}),
}

# value kinds: "int" (positive int; padding may be 0), "size" (int or [int, int]),
# "bool", "prob" (number in [0, 1)), "str", "layers" (list of layer objects)
FIELD_KINDS = {
    "out_features": "int", "out_channels": "int", "groups": "int",
    "num_embeddings": "int", "embedding_dim": "int", "d_model": "int", "nhead": "int",
    "dim_feedforward": "int", "kernel_size": "size", "stride": "size", "padding": "size",
    "output_size": "size", "bias": "bool", "batch_first": "bool", "p": "prob",
    "dropout": "prob", "activation": "str", "layers": "layers", "downsample": "layers",
    "tied": "bool", "norm_first": "bool", "causal": "bool", "index": "int",
    "num_key_value_heads": "int", "num_experts": "int", "experts_per_token": "int",
    "head_dim": "int", "qkv_bias": "bool", "o_bias": "bool", "mlp_bias": "bool",
}

TOP_LEVEL_FIELDS = {"name", "input", "target", "loss", "layers"}
LOSSES = {"cross_entropy", "mse"}


def _fields(layer, where):
    """Return the layer's fields with defaults filled in; validate names."""
    if not isinstance(layer, dict) or "type" not in layer:
        raise SpecError(f"{where}: layer must be an object with a 'type'")
    ltype = layer["type"]
    if ltype not in LAYER_FIELDS:
        raise SpecError(f"{where}: unknown layer type '{ltype}'")
    required, optional = LAYER_FIELDS[ltype]
    unknown = sorted(set(layer) - {"type"} - set(required) - set(optional))
    if unknown:
        raise SpecError(f"{where}: unknown field(s) {unknown} for layer type '{ltype}'")
    missing = [f for f in required if f not in layer]
    if missing:
        raise SpecError(f"{where}: missing field(s) {missing} for layer type '{ltype}'")
    for k, v in layer.items():
        if k != "type" and not (k == "stride" and v is None):
            _check_kind(k, v, where)
    out = dict(optional)
    out.update({k: v for k, v in layer.items() if k != "type"})
    return ltype, out


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_kind(name, v, where):
    kind = FIELD_KINDS[name]
    lo = 0 if name in ("padding", "index") else 1
    ok = {
        "int": lambda: _is_int(v) and v >= lo,
        "size": lambda: (_is_int(v) and v >= lo) or (
            isinstance(v, list) and len(v) == 2 and all(_is_int(x) and x >= lo for x in v)),
        "bool": lambda: isinstance(v, bool),
        "prob": lambda: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 1,
        "str": lambda: isinstance(v, str),
        "layers": lambda: isinstance(v, list),
    }[kind]()
    if not ok:
        raise SpecError(f"{where}: bad value {v!r} for field '{name}' (expected {kind})")


def _pair(v, name, where):
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v)
    if (isinstance(v, list) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        return (v[0], v[1])
    raise SpecError(f"{where}: '{name}' must be an int or a list of two ints, got {v!r}")


def _need_rank(shape, rank, ltype, where):
    if len(shape) != rank:
        raise SpecError(f"{where}: '{ltype}' expects a per-sample input of rank {rank}, "
                        f"got shape {list(shape)}")


def _pool_out(n, k, s, p):
    # floor mode (ceil_mode=False), dilation 1
    return (n + 2 * p - k) // s + 1


# --------------------------------------------------------------------------
# building

def _build_layer(layer, shape, dtype, where, device):
    """Build one layer.  ``shape`` is the per-sample input shape (tuple),
    ``dtype`` the input dtype name, ``device`` "cpu" or "meta" (shape
    inference only).  Returns (module, out_shape, out_dtype)."""
    dev = {"device": device}
    ltype, f = _fields(layer, where)
    if ltype != "embedding" and dtype != "float32":
        raise SpecError(f"{where}: '{ltype}' needs a float input, got {dtype} "
                        "(only 'embedding' takes integer input)")

    if ltype == "linear":
        if len(shape) < 1:
            raise SpecError(f"{where}: 'linear' needs a non-scalar per-sample input")
        mod = nn.Linear(shape[-1], f["out_features"], bias=f["bias"], **dev)
        if f["tied"]:
            emb = _CONTEXT.get("embedding")
            if emb is None:
                raise SpecError(f"{where}: 'tied' needs an 'embedding' layer before it")
            if f["bias"] or tuple(emb.weight.shape) != (f["out_features"], shape[-1]):
                raise SpecError(f"{where}: a tied linear must be {shape[-1]} -> "
                                f"{emb.weight.shape[0]} without bias, like the embedding")
            mod.weight = emb.weight
        return mod, shape[:-1] + (f["out_features"],), dtype

    if ltype == "conv2d":
        _need_rank(shape, 3, ltype, where)
        c, h, w = shape
        k = _pair(f["kernel_size"], "kernel_size", where)
        s = _pair(f["stride"], "stride", where)
        p = _pair(f["padding"], "padding", where)
        g = f["groups"]
        if c % g or f["out_channels"] % g:
            raise SpecError(f"{where}: groups={g} must divide in_channels={c} "
                            f"and out_channels={f['out_channels']}")
        mod = nn.Conv2d(c, f["out_channels"], k, stride=s, padding=p,
                        groups=g, bias=f["bias"], **dev)
        oh, ow = _pool_out(h, k[0], s[0], p[0]), _pool_out(w, k[1], s[1], p[1])
        return mod, (f["out_channels"], oh, ow), dtype

    if ltype == "batchnorm2d":
        _need_rank(shape, 3, ltype, where)
        return nn.BatchNorm2d(shape[0], **dev), shape, dtype

    if ltype == "layernorm":
        if len(shape) < 1:
            raise SpecError(f"{where}: 'layernorm' needs a non-scalar per-sample input")
        return nn.LayerNorm(shape[-1], **dev), shape, dtype

    if ltype in ("relu", "gelu", "sigmoid", "tanh"):
        cls = {"relu": nn.ReLU, "gelu": nn.GELU, "sigmoid": nn.Sigmoid, "tanh": nn.Tanh}[ltype]
        return cls(), shape, dtype

    if ltype == "dropout":
        return nn.Dropout(p=f["p"]), shape, dtype

    if ltype in ("maxpool2d", "avgpool2d"):
        _need_rank(shape, 3, ltype, where)
        c, h, w = shape
        k = _pair(f["kernel_size"], "kernel_size", where)
        s = k if f["stride"] is None else _pair(f["stride"], "stride", where)
        p = _pair(f["padding"], "padding", where)
        cls = nn.MaxPool2d if ltype == "maxpool2d" else nn.AvgPool2d
        mod = cls(k, stride=s, padding=p)
        return mod, (c, _pool_out(h, k[0], s[0], p[0]), _pool_out(w, k[1], s[1], p[1])), dtype

    if ltype == "adaptiveavgpool2d":
        _need_rank(shape, 3, ltype, where)
        o = _pair(f["output_size"], "output_size", where)
        return nn.AdaptiveAvgPool2d(o), (shape[0],) + o, dtype

    if ltype == "flatten":
        return nn.Flatten(), (math.prod(shape),), dtype

    if ltype == "embedding":
        if dtype != "int64":
            raise SpecError(f"{where}: 'embedding' needs an int64 input, got {dtype}")
        mod = nn.Embedding(f["num_embeddings"], f["embedding_dim"], **dev)
        _CONTEXT.setdefault("embedding", mod)
        return mod, tuple(shape) + (f["embedding_dim"],), "float32"

    if ltype == "transformer_encoder_layer":
        _need_rank(shape, 2, ltype, where)
        if f["d_model"] != shape[-1]:
            raise SpecError(f"{where}: d_model={f['d_model']} does not match the input's "
                            f"last dim {shape[-1]}")
        if f["batch_first"] is not True:
            raise SpecError(f"{where}: only batch_first=true is supported")
        if f["activation"] not in ("relu", "gelu"):
            raise SpecError(f"{where}: activation must be 'relu' or 'gelu', "
                            f"got {f['activation']!r}")
        mod = nn.TransformerEncoderLayer(
            f["d_model"], f["nhead"], dim_feedforward=f["dim_feedforward"],
            dropout=f["dropout"], activation=f["activation"], batch_first=True,
            norm_first=f["norm_first"], **dev)
        return (CausalLayer(mod) if f["causal"] else mod), shape, dtype

    if ltype in ("position_embedding", "token_type_embedding", "class_token"):
        _need_rank(shape, 2, ltype, where)
        if f["embedding_dim"] != shape[-1]:
            raise SpecError(f"{where}: embedding_dim={f['embedding_dim']} does not match the "
                            f"input's last dim {shape[-1]}")
        if ltype == "class_token":
            return ClassToken(shape[-1], device), (shape[0] + 1, shape[1]), dtype
        if ltype == "position_embedding" and shape[0] > f["num_embeddings"]:
            raise SpecError(f"{where}: sequence length {shape[0]} exceeds num_embeddings="
                            f"{f['num_embeddings']}")
        cls = PositionEmbedding if ltype == "position_embedding" else TokenTypeEmbedding
        return cls(f["num_embeddings"], f["embedding_dim"], device), shape, dtype

    if ltype == "to_sequence":
        _need_rank(shape, 3, ltype, where)
        return ToSequence(), (shape[1] * shape[2], shape[0]), dtype

    if ltype == "select_token":
        _need_rank(shape, 2, ltype, where)
        if f["index"] >= shape[0]:
            raise SpecError(f"{where}: index={f['index']} is outside the sequence of {shape[0]}")
        return SelectToken(f["index"]), (shape[1],), dtype

    if ltype == "rmsnorm":
        if len(shape) < 1:
            raise SpecError(f"{where}: 'rmsnorm' needs a non-scalar per-sample input")
        return RMSNorm(shape[-1], device), shape, dtype

    if ltype == "llama_decoder_layer":
        _need_rank(shape, 2, ltype, where)
        if f["d_model"] != shape[-1] or (f["d_model"] % f["nhead"] and not f["head_dim"]):
            raise SpecError(f"{where}: d_model={f['d_model']} must be the input's last dim "
                            f"{shape[-1]} and a multiple of nhead={f['nhead']}")
        kvh = f["num_key_value_heads"] or f["nhead"]
        if f["nhead"] % kvh:
            raise SpecError(f"{where}: num_key_value_heads={kvh} must divide nhead={f['nhead']}")
        if f["mlp_bias"] and f["num_experts"]:
            raise SpecError(f"{where}: mlp_bias with num_experts is not supported")
        return LlamaDecoderLayer(f["d_model"], f["nhead"], f["dim_feedforward"], device, kvh,
                                 f["num_experts"], f["experts_per_token"], head_dim=f["head_dim"],
                                 qkv_bias=f["qkv_bias"], o_bias=f["o_bias"], mlp_bias=f["mlp_bias"]), shape, dtype

    if ltype == "gpt2_block":
        _need_rank(shape, 2, ltype, where)
        if f["d_model"] != shape[-1] or f["d_model"] % f["nhead"]:
            raise SpecError(f"{where}: d_model={f['d_model']} must be the input's last dim "
                            f"{shape[-1]} and a multiple of nhead={f['nhead']}")
        ff = f["dim_feedforward"] or 4 * f["d_model"]
        return GPT2Block(f["d_model"], f["nhead"], ff, f["dropout"], device), shape, dtype

    if ltype == "residual":
        body, body_shape, _ = _build_list(f["layers"], shape, dtype, where + ".layers", device)
        skip, skip_shape, _ = _build_list(f["downsample"], shape, dtype, where + ".downsample", device)
        if body_shape != skip_shape:
            raise SpecError(f"{where}: residual branches disagree: layers give "
                            f"{list(body_shape)}, skip path gives {list(skip_shape)}")
        return Residual(body, skip if len(skip) else None), body_shape, dtype

    raise AssertionError(ltype)  # unreachable: _fields checked the type


def _build_list(layers, shape, dtype, where, device):
    if not isinstance(layers, list):
        raise SpecError(f"{where}: must be a list of layers")
    mods = []
    shape = tuple(shape)
    for i, layer in enumerate(layers):
        mod, shape, dtype = _build_layer(layer, shape, dtype, f"{where}[{i}]", device)
        mods.append(mod)
    return nn.Sequential(*mods), shape, dtype


_CONTEXT = {}  # the first embedding while a model is built (for tied linears)


class CausalLayer(nn.Module):
    """A transformer layer called with a square subsequent mask."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        s = x.shape[1]
        mask = torch.triu(torch.full((s, s), float("-inf"), device=x.device), diagonal=1)
        return self.layer(x, src_mask=mask)


class PositionEmbedding(nn.Module):
    def __init__(self, num, dim, device):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num, dim, device=device) * 0.02)

    def forward(self, x):
        return x + self.weight[: x.shape[1]]


class TokenTypeEmbedding(nn.Module):
    def __init__(self, num, dim, device):
        super().__init__()
        self.embedding = nn.Embedding(num, dim, device=device)

    def forward(self, x):
        ids = torch.zeros(x.shape[:2], dtype=torch.int64, device=x.device)
        return x + self.embedding(ids)


class ClassToken(nn.Module):
    def __init__(self, dim, device):
        super().__init__()
        self.token = nn.Parameter(torch.zeros(1, 1, dim, device=device))

    def forward(self, x):
        return torch.cat([self.token.expand(x.shape[0], -1, -1), x], dim=1)


class ToSequence(nn.Module):
    def forward(self, x):
        return x.flatten(2).transpose(1, 2)


class SelectToken(nn.Module):
    def __init__(self, index):
        super().__init__()
        self.index = index

    def forward(self, x):
        return x[:, self.index]


class Residual(nn.Module):
    """``body(x) + skip(x)``; skip is the identity when no downsample is given."""

    def __init__(self, body, downsample=None):
        super().__init__()
        self.body = body
        self.downsample = downsample

    def forward(self, x):
        skip = x if self.downsample is None else self.downsample(x)
        return self.body(x) + skip


# --------------------------------------------------------------------------
# public API

def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    validate_spec(spec)
    return spec


def validate_spec(spec):
    unknown = sorted(set(spec) - TOP_LEVEL_FIELDS)
    if unknown:
        raise SpecError(f"unknown top-level field(s) {unknown}")
    missing = sorted(TOP_LEVEL_FIELDS - set(spec))
    if missing:
        raise SpecError(f"missing top-level field(s) {missing}")
    for key in ("input", "target"):
        t = spec[key]
        if not isinstance(t, dict) or set(t) != {"shape", "dtype"}:
            raise SpecError(f"'{key}' must be an object with exactly 'shape' and 'dtype'")
        if t["dtype"] not in DTYPES:
            raise SpecError(f"'{key}.dtype' must be one of {sorted(DTYPES)}, got {t['dtype']!r}")
    if spec["loss"] not in LOSSES:
        raise SpecError(f"unknown loss '{spec['loss']}' (expected one of {sorted(LOSSES)})")
    out_shape, out_dtype = infer_shapes(spec)
    tgt = tuple(spec["target"]["shape"])
    if spec["loss"] == "cross_entropy":
        if spec["target"]["dtype"] != "int64":
            raise SpecError("cross_entropy needs an int64 target")
        if tgt != tuple(out_shape[:-1]):
            raise SpecError(f"cross_entropy: target shape {list(tgt)} must be the output "
                            f"shape {list(out_shape)} without its last (class) dim")
    else:
        if spec["target"]["dtype"] != "float32" or tgt != tuple(out_shape):
            raise SpecError(f"mse: target must be float32 with the output shape "
                            f"{list(out_shape)}, got {spec['target']}")


def infer_shapes(spec):
    """Per-sample output shape and dtype name of the model.  The modules are
    built on the meta device, so this allocates no parameter memory."""
    _, shape, dtype = _build(spec, "meta")
    return shape, dtype


def _build(spec, device):
    _CONTEXT.clear()
    try:
        return _build_list(spec["layers"], spec["input"]["shape"],
                           spec["input"]["dtype"], "layers", device)
    finally:
        _CONTEXT.clear()


def build_model(spec, device="cpu"):
    """The ``nn.Sequential`` described by ``spec`` (float32, on ``device``;
    ``"meta"`` builds it without allocating parameters)."""
    model, _, _ = _build(spec, device)
    return model


def make_loss_fn(spec):
    if spec["loss"] == "cross_entropy":
        def loss_fn(out, target):
            return F.cross_entropy(out.reshape(-1, out.shape[-1]), target.reshape(-1))
    else:
        def loss_fn(out, target):
            return F.mse_loss(out, target)
    return loss_fn


def make_batch(spec, batch, dtype=torch.float32, generator=None):
    """Random input and target batch.  Float tensors are created in ``dtype``
    (float32 or bfloat16); integer inputs are uniform in [0, num_embeddings)
    of the first layer, integer targets uniform in [0, num_classes)."""
    def make(t, high):
        shape = [batch] + list(t["shape"])
        if t["dtype"] == "int64":
            return torch.randint(0, high, shape, dtype=torch.int64, generator=generator)
        return torch.randn(shape, generator=generator).to(dtype)

    first = spec["layers"][0]
    x = make(spec["input"], first.get("num_embeddings", 0))
    out_shape, _ = infer_shapes(spec)
    y = make(spec["target"], out_shape[-1] if out_shape else 0)
    return x, y


def _selftest():
    """Validate every spec in specs/, check the shape inference against a real
    forward pass, and check that malformed specs are rejected by name."""
    import copy
    import glob
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "specs", "*.json"))):
        spec = load_spec(path)
        model = build_model(spec)
        x, y = make_batch(spec, 2)
        out = model(x)
        shape, _ = infer_shapes(spec)
        assert tuple(out.shape[1:]) == tuple(shape), (path, out.shape, shape)
        make_loss_fn(spec)(out, y).backward()
        n = sum(p.numel() for p in model.parameters())
        print(f"ok  {os.path.basename(path):24} {len(model):3} top-level layers "
              f"{n:>10} params  output {list(shape)}")
    base = load_spec(os.path.join(here, "specs", "cnn-bn.json"))
    bad = [({"type": "conv3d"}, "conv3d"),
           ({"type": "linear", "out_features": 3, "foo": 1}, "foo"),
           ({"type": "linear"}, "out_features"),
           ({"type": "linear", "out_features": 3, "bias": "yes"}, "bias"),
           ({"type": "dropout", "p": 1.5}, "'p'"),
           ({"type": "residual", "layers": [{"type": "relu", "inplace": True}]}, "inplace")]
    for layer, word in bad:
        spec = copy.deepcopy(base)
        spec["layers"][2] = layer
        try:
            validate_spec(spec)
        except SpecError as e:
            assert word in str(e), (word, str(e))
            print(f"ok  rejected: {e}")
        else:
            raise AssertionError(f"not rejected: {layer}")
    tiny = [
        ("tiny-gpt", [128], [{"type": "embedding", "num_embeddings": 50, "embedding_dim": 16},
                            {"type": "position_embedding", "num_embeddings": 16, "embedding_dim": 16},
                            {"type": "transformer_encoder_layer", "d_model": 16, "nhead": 2,
                             "dim_feedforward": 32, "norm_first": True, "causal": True,
                             "activation": "gelu"},
                            {"type": "layernorm"},
                            {"type": "linear", "out_features": 50, "bias": False, "tied": True}]),
        ("tiny-vit", None, [{"type": "conv2d", "out_channels": 16, "kernel_size": 4, "stride": 4},
                            {"type": "to_sequence"},
                            {"type": "class_token", "embedding_dim": 16},
                            {"type": "position_embedding", "num_embeddings": 5, "embedding_dim": 16},
                            {"type": "transformer_encoder_layer", "d_model": 16, "nhead": 2,
                             "dim_feedforward": 32, "norm_first": True, "activation": "gelu"},
                            {"type": "layernorm"}, {"type": "select_token"},
                            {"type": "linear", "out_features": 3}]),
        ("tiny-bert", [], [{"type": "embedding", "num_embeddings": 50, "embedding_dim": 16},
                           {"type": "token_type_embedding", "num_embeddings": 2, "embedding_dim": 16},
                           {"type": "position_embedding", "num_embeddings": 16, "embedding_dim": 16},
                           {"type": "layernorm"}, {"type": "dropout", "p": 0.1},
                           {"type": "transformer_encoder_layer", "d_model": 16, "nhead": 2,
                            "dim_feedforward": 32, "activation": "gelu"},
                           {"type": "select_token"}, {"type": "linear", "out_features": 16},
                           {"type": "tanh"}, {"type": "linear", "out_features": 2}]),
        ("tiny-llama", [128], [{"type": "embedding", "num_embeddings": 50, "embedding_dim": 16},
                              {"type": "llama_decoder_layer", "d_model": 16, "nhead": 2,
                               "dim_feedforward": 40},
                              {"type": "rmsnorm"},
                              {"type": "linear", "out_features": 50, "bias": False}]),
        ("tiny-qwen2", [128], [{"type": "embedding", "num_embeddings": 50, "embedding_dim": 16},
                              {"type": "llama_decoder_layer", "d_model": 16, "nhead": 4,
                               "num_key_value_heads": 2, "head_dim": 6, "qkv_bias": True,
                               "o_bias": True, "mlp_bias": True, "dim_feedforward": 40},
                              {"type": "rmsnorm"},
                              {"type": "linear", "out_features": 50, "bias": False}]),
    ]
    for name, target, layers in tiny:
        integer = layers[0]["type"] == "embedding"
        spec = {"name": name, "loss": "cross_entropy", "layers": layers,
                "input": {"shape": [8] if integer else [3, 8, 8],
                          "dtype": "int64" if integer else "float32"},
                "target": {"shape": [8] if target else [], "dtype": "int64"}}
        validate_spec(spec)
        model = build_model(spec)
        x, y = make_batch(spec, 2)
        make_loss_fn(spec)(model(x), y).backward()
        n = sum(p.numel() for p in model.parameters())
        print(f"ok  extension spec {name:14} {n:>6} params")
    spec = copy.deepcopy(base)
    spec["extra"] = 1
    try:
        validate_spec(spec)
        raise AssertionError("unknown top-level key not rejected")
    except SpecError as e:
        print(f"ok  rejected: {e}")


if __name__ == "__main__":
    _selftest()
