# SPDX-License-Identifier: MIT
"""Plain-PyTorch decoder blocks of today's language models, for the cost-model
validation (built by ``spec_to_torch.py`` from the ``llama_decoder_layer`` and
``gpt2_block`` spec types), and the run-time options the grid varies: LoRA
adapters, frozen layers, per-layer and selective (attention-only) activation
checkpointing, and a preallocated KV cache for inference.

The blocks follow Hugging Face transformers' eager implementations op for op
(the memory is what matters, not the numerics of every detail):

* ``LlamaDecoderLayer``: ``LlamaDecoderLayer`` / ``LlamaAttention`` (eager):
  RMSNorm (float32 inside), q/k/v/o projections (biases on q/k/v as Qwen2's,
  on o as Llama's ``attention_bias``; ``head_dim`` may differ from
  hidden/heads, as Qwen2's and Mistral-Nemo's), rotary position
  embedding (cos/sin tables computed per call, ``rotate_half``), grouped-query
  attention (``repeat_kv``: expand + reshape, a copy when heads > kv heads),
  ``matmul(q, k^T) / sqrt(d)``, an additive causal mask in the model dtype,
  ``softmax(dtype=float32).to(dtype)``, ``matmul(p, v)``, SwiGLU MLP
  (``down(silu(gate(x)) * up(x))``, biases with ``mlp_bias``), residuals.  ``num_experts`` > 0 gives a
  Mixtral-style sparse MoE MLP (router, softmax, top-k, each expert on its
  tokens) -- built and counted, not part of the measured grid.
* ``GPT2Block``: ``GPT2Block`` / ``GPT2Attention`` (eager): pre-LayerNorm,
  fused ``c_attn`` (qkv) split into heads, ``matmul(q, k^T) / full([], sqrt(d))``,
  the causal mask through ``torch.where`` with the dtype's minimum, softmax,
  attention dropout, ``matmul(p, v)``, merge heads, ``c_proj``, residual dropout;
  MLP ``c_fc``, ``gelu_new`` (the tanh approximation written out in Python, as
  transformers' ``NewGELUActivation``), ``c_proj``, dropout.  ``nn.Linear``
  stands in for transformers' ``Conv1D`` (the same ``addmm``).
* LoRA (PEFT's ``lora.Linear``): ``base(x) + lora_B(lora_A(x)) * scaling``
  with lora_A ``r x in`` and lora_B ``out x r`` (no bias, no LoRA dropout),
  ``scaling = alpha / r`` with ``alpha = 2r``; base weights frozen.
* Checkpointing: ``torch.utils.checkpoint.checkpoint`` (reentrant, 1.13) of a
  whole block (``per-layer``, as transformers' gradient checkpointing) or of
  the core attention only (``selective``).  With a frozen embedding its output
  gets ``requires_grad_(True)`` (PEFT's ``enable_input_require_grads``).
* KV cache: per block a key and a value buffer ``[B, kv_heads, capacity, hd]``
  (zeros, capacity rounded up to whole blocks as in vLLM's paged attention);
  new keys/values are copied in place (``copy_``) and attention reads the
  filled prefix (a view).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

__all__ = ["RMSNorm", "LlamaDecoderLayer", "GPT2Block", "apply_lora", "freeze_first",
           "set_checkpointing", "KVCache", "attach_cache", "BLOCK_TYPES"]


class RMSNorm(nn.Module):
    def __init__(self, dim, device, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, device=device))
        self.eps = eps

    def forward(self, x):
        h = x.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


# How the blocks checkpoint and attend (measure.py sets them per configuration, issue 54):
# torch.utils.checkpoint's mode, and "eager" (matmul, softmax, matmul) or "sdpa"
# (F.scaled_dot_product_attention, PyTorch 2.x) for the Llama block's core attention.
_MODE = {"reentrant": True, "attention": "eager"}


def configure(reentrant=True, attention="eager"):
    if attention not in ("eager", "sdpa"):
        raise ValueError(f"attention must be eager or sdpa, not {attention!r}")
    if attention == "sdpa" and not hasattr(F, "scaled_dot_product_attention"):
        raise RuntimeError(f"SDPA needs PyTorch 2.x (this is {torch.__version__})")
    _MODE.update(reentrant=reentrant, attention=attention)


def _checkpoint(fn, *args):
    return checkpoint(fn, *args, use_reentrant=_MODE["reentrant"])


class _Block(nn.Module):
    """Run-time switches shared by the decoder blocks."""

    def _init_switches(self):
        self.ckpt_layer = False   # the whole block under checkpoint()
        self.selective = False    # the core attention under checkpoint()
        self.cache = None         # (KVCache, index of this block)

    def forward(self, x):
        if self.ckpt_layer and torch.is_grad_enabled():
            return _checkpoint(self._forward, x)
        return self._forward(x)

    def _cached(self, k, v):
        if self.cache is None:
            return k, v
        cache, i = self.cache
        return cache.update(i, k, v)

    def _core(self, fn, q, k, v):
        if self.selective and torch.is_grad_enabled():
            return _checkpoint(fn, q, k, v)
        return fn(q, k, v)


def _repeat_kv(x, n):
    if n == 1:
        return x
    b, kvh, t, hd = x.shape
    return x[:, :, None, :, :].expand(b, kvh, n, t, hd).reshape(b, kvh * n, t, hd)


def _rotate(x, cos, sin):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class LlamaDecoderLayer(_Block):
    """transformers' LlamaDecoderLayer (eager attention, rotary base 10000)."""

    def __init__(self, d, heads, ff, device, kv_heads=None, experts=0, top_k=2, head_dim=None,
                 qkv_bias=False, o_bias=False, mlp_bias=False):
        super().__init__()
        lin = lambda i, o, bias=False: nn.Linear(i, o, bias=bias, device=device)  # noqa: E731
        self.heads, self.hd = heads, head_dim or d // heads
        self.kvh = kv_heads or heads
        q, kv = heads * self.hd, self.kvh * self.hd
        self.q_proj, self.k_proj = lin(d, q, qkv_bias), lin(d, kv, qkv_bias)
        self.v_proj, self.o_proj = lin(d, kv, qkv_bias), lin(q, d, o_bias)
        self.experts_n, self.top_k = experts, top_k
        if experts:
            self.gate = lin(d, experts)
            self.experts = nn.ModuleList(nn.ModuleDict({"w1": lin(d, ff), "w2": lin(ff, d), "w3": lin(d, ff)})
                                         for _ in range(experts))
        else:
            self.gate_proj, self.up_proj = lin(d, ff, mlp_bias), lin(d, ff, mlp_bias)
            self.down_proj = lin(ff, d, mlp_bias)
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(d, device), RMSNorm(d, device)
        self._init_switches()

    def _tables(self, s, offset, dtype, device):
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2, device=device).float() / self.hd))
        t = torch.arange(offset, offset + s, device=device).float()
        freqs = torch.outer(t, inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype), emb.sin().to(dtype)

    def _attend(self, q, k, v):
        s, t = q.shape[2], k.shape[2]
        if _MODE["attention"] == "sdpa":  # transformers' sdpa attention: causal when s == t
            return F.scaled_dot_product_attention(q, k, v, is_causal=s > 1 and s == t)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd)
        if s > 1:
            w = w + torch.full((s, t), float("-inf"), dtype=w.dtype, device=w.device).triu_(t - s + 1)
        w = torch.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)

    def _attention(self, h):
        b, s, d = h.shape
        q = self.q_proj(h).view(b, s, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.kvh, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.kvh, self.hd).transpose(1, 2)
        offset = self.cache[0].pos if self.cache is not None else 0
        cos, sin = self._tables(s, offset, h.dtype, h.device)
        q, k = _rotate(q, cos, sin), _rotate(k, cos, sin)
        k, v = self._cached(k, v)
        n = self.heads // self.kvh
        k, v = _repeat_kv(k, n), _repeat_kv(v, n)
        a = self._core(self._attend, q, k, v)
        a = a.transpose(1, 2).contiguous().reshape(b, s, self.heads * self.hd)
        return self.o_proj(a)

    def _mlp(self, h):
        if not self.experts_n:
            return self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        b, s, d = h.shape
        x = h.view(-1, d)
        logits = self.gate(x)
        weights = F.softmax(logits, dim=1, dtype=torch.float)
        weights, chosen = torch.topk(weights, self.top_k, dim=-1)
        weights = (weights / weights.sum(dim=-1, keepdim=True)).to(h.dtype)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows, slot = torch.where(chosen == e)
            if rows.numel() == 0:
                continue
            xe = x[rows]
            ye = expert["w2"](F.silu(expert["w1"](xe)) * expert["w3"](xe)) * weights[rows, slot, None]
            out = out.index_add(0, rows, ye)
        return out.view(b, s, d)

    def _forward(self, x):
        residual = x
        h = self.input_layernorm(x)
        h = self._attention(h)
        h = residual + h
        residual = h
        h = self.post_attention_layernorm(h)
        h = self._mlp(h)
        return residual + h


def _gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class GPT2Block(_Block):
    """transformers' GPT2Block (eager attention), nn.Linear for Conv1D."""

    def __init__(self, d, heads, ff, dropout, device):
        super().__init__()
        self.heads, self.hd, self.d = heads, d // heads, d
        self.ln_1 = nn.LayerNorm(d, device=device)
        self.c_attn = nn.Linear(d, 3 * d, device=device)
        self.c_proj = nn.Linear(d, d, device=device)
        self.ln_2 = nn.LayerNorm(d, device=device)
        self.c_fc = nn.Linear(d, ff, device=device)
        self.mlp_proj = nn.Linear(ff, d, device=device)
        self.attn_dropout, self.resid_dropout, self.mlp_dropout = (nn.Dropout(dropout) for _ in range(3))
        self._init_switches()

    def _split(self, t, b, s):
        return t.view(b, s, self.heads, self.hd).permute(0, 2, 1, 3)

    def _attend(self, q, k, v):
        s, t = q.shape[2], k.shape[2]
        w = torch.matmul(q, k.transpose(-1, -2))
        w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype, device=w.device)
        mask = torch.ones((s, t), dtype=torch.bool, device=w.device).tril_(t - s)
        w = torch.where(mask, w, torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype, device=w.device))
        w = F.softmax(w, dim=-1)
        w = w.type(v.dtype)
        w = self.attn_dropout(w)
        return torch.matmul(w, v)

    def _attention(self, h):
        b, s, d = h.shape
        q, k, v = self.c_attn(h).split(d, dim=2)
        q, k, v = self._split(q, b, s), self._split(k, b, s), self._split(v, b, s)
        k, v = self._cached(k, v)
        a = self._core(self._attend, q, k, v)
        a = a.permute(0, 2, 1, 3).contiguous().view(b, s, d)
        a = self.c_proj(a)
        return self.resid_dropout(a)

    def _forward(self, x):
        residual = x
        h = self.ln_1(x)
        h = self._attention(h)
        h = h + residual
        residual = h
        h = self.ln_2(h)
        h = self.mlp_dropout(self.mlp_proj(_gelu_new(self.c_fc(h))))
        return residual + h


BLOCK_TYPES = (LlamaDecoderLayer, GPT2Block)

ATTENTION_LINEARS = {"q_proj", "k_proj", "v_proj", "o_proj", "c_attn", "c_proj"}
MLP_LINEARS = {"gate_proj", "up_proj", "down_proj", "c_fc", "mlp_proj", "w1", "w2", "w3"}


class LoraLinear(nn.Module):
    """PEFT's lora.Linear without dropout: base(x) + lora_B(lora_A(x)) * scaling."""

    def __init__(self, base, r):
        super().__init__()
        self.base_layer = base
        dev, dt = base.weight.device, base.weight.dtype
        self.lora_A = nn.Linear(base.in_features, r, bias=False, device=dev, dtype=dt)
        self.lora_B = nn.Linear(r, base.out_features, bias=False, device=dev, dtype=dt)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = 2.0  # alpha = 2r

    def forward(self, x):
        result = self.base_layer(x)
        return result + self.lora_B(self.lora_A(x)) * self.scaling


def apply_lora(model, r, targets):
    """Freezes every parameter and wraps the targeted linears of the blocks
    (targets: attn, mlp, all) in LoRA adapters (trainable)."""
    names = {"attn": ATTENTION_LINEARS, "mlp": MLP_LINEARS, "all": ATTENTION_LINEARS | MLP_LINEARS}[targets]
    for p in model.parameters():
        p.requires_grad_(False)
    for block in [m for m in model.modules() if isinstance(m, BLOCK_TYPES)]:
        for name, child in list(block.named_children()):
            if name in names and isinstance(child, nn.Linear):
                setattr(block, name, LoraLinear(child, r))
        if getattr(block, "experts_n", 0):
            for expert in block.experts:
                for name in list(expert.keys()):
                    if name in names:
                        expert[name] = LoraLinear(expert[name], r)
    _input_requires_grad(model)


def freeze_first(model, n):
    """requires_grad_(False) for the first n top-level layers."""
    for layer in list(model)[:n]:
        for p in layer.parameters():
            p.requires_grad_(False)
    _input_requires_grad(model)


def _input_requires_grad(model):
    # PEFT's enable_input_require_grads: the frozen embedding's output requires grad, so that
    # reentrant checkpoints of the blocks after it still produce gradients.
    first = list(model)[0]
    if isinstance(first, nn.Embedding) and not first.weight.requires_grad:
        first.register_forward_hook(lambda mod, inp, out: out.requires_grad_(True))


def set_checkpointing(model, mode):
    """mode: None, 'per-layer' or 'selective'."""
    for block in [m for m in model.modules() if isinstance(m, BLOCK_TYPES)]:
        block.ckpt_layer = mode == "per-layer"
        block.selective = mode == "selective"


class KVCache:
    """A preallocated cache: per block key and value buffers [B, kv heads, capacity, hd]."""

    def __init__(self, blocks, batch, capacity, dtype):
        self.k, self.v = [], []
        for blk in blocks:
            kvh = getattr(blk, "kvh", blk.heads)
            self.k.append(torch.zeros(batch, kvh, capacity, blk.hd, dtype=dtype))
            self.v.append(torch.zeros(batch, kvh, capacity, blk.hd, dtype=dtype))
        self.pos = 0
        self.blocks = len(blocks)

    def update(self, i, k, v):
        s = k.shape[2]
        end = self.pos + s
        self.k[i][:, :, self.pos:end].copy_(k)
        self.v[i][:, :, self.pos:end].copy_(v)
        out = self.k[i][:, :, :end], self.v[i][:, :, :end]
        if i == self.blocks - 1:
            self.pos = end
        return out


def attach_cache(model, batch, capacity, dtype):
    blocks = [m for m in model.modules() if isinstance(m, BLOCK_TYPES)]
    cache = KVCache(blocks, batch, capacity, dtype)
    for i, blk in enumerate(blocks):
        blk.cache = (cache, i)
    return cache
