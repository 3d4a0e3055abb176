#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes header-only .safetensors files (and sharded indexes) for the test configs in this
folder, with the tensor names, shapes and dtypes of the published Hugging Face checkpoints, and
checks each total against the published number (the independent expectation): the parameter
count the model card / paper gives and, where the checkpoint is sharded, the byte total its
model.safetensors.index.json declares (metadata.total_size). No tensor data is written: the
header's data_offsets describe it, the file ends after the header (memviz reads headers only).

Run with any python3 (standard library only):  python3 tests/data/hf/make_headers.py
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = {"F32": 4, "F16": 2, "BF16": 2, "I64": 8}


def header_bytes(tensors):
    """tensors: [(name, dtype, shape)] -> the 8-byte length + JSON header (padded with spaces)."""
    offset, head = 0, {"__metadata__": {"format": "pt"}}
    for name, dtype, shape in tensors:
        n = 1
        for d in shape:
            n *= d
        head[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + n * SIZE[dtype]]}
        offset += n * SIZE[dtype]
    text = json.dumps(head, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text, offset


def counts(tensors, buffer_suffixes=(".inv_freq", ".attn.bias", "position_ids")):
    params = buffers = nbytes = 0
    for name, dtype, shape in tensors:
        n = 1
        for d in shape:
            n *= d
        nbytes += n * SIZE[dtype]
        if name.endswith(buffer_suffixes):
            buffers += n
        else:
            params += n
    return params, buffers, nbytes


def gpt2(c):
    h, i, V, P, L = c["n_embd"], c["n_inner"] or 4 * c["n_embd"], c["vocab_size"], c["n_positions"], c["n_layer"]
    t = [("wte.weight", "F32", [V, h]), ("wpe.weight", "F32", [P, h])]
    for l in range(L):
        p = "h.%d." % l
        t += [(p + "ln_1.weight", "F32", [h]), (p + "ln_1.bias", "F32", [h]),
              (p + "attn.bias", "F32", [1, 1, P, P]),  # the causal mask buffer the checkpoint keeps
              (p + "attn.c_attn.weight", "F32", [h, 3 * h]), (p + "attn.c_attn.bias", "F32", [3 * h]),
              (p + "attn.c_proj.weight", "F32", [h, h]), (p + "attn.c_proj.bias", "F32", [h]),
              (p + "ln_2.weight", "F32", [h]), (p + "ln_2.bias", "F32", [h]),
              (p + "mlp.c_fc.weight", "F32", [h, i]), (p + "mlp.c_fc.bias", "F32", [i]),
              (p + "mlp.c_proj.weight", "F32", [i, h]), (p + "mlp.c_proj.bias", "F32", [h])]
    t += [("ln_f.weight", "F32", [h]), ("ln_f.bias", "F32", [h])]
    return t


def llama(c, dtype, inv_freq=False):
    h, L, H, V, I = c["hidden_size"], c["num_hidden_layers"], c["num_attention_heads"], c["vocab_size"], c["intermediate_size"]
    KV = c.get("num_key_value_heads", H)
    hd = c.get("head_dim", h // H)
    qwen2 = c["model_type"] == "qwen2"
    E = c.get("num_local_experts", 0)
    t = [("model.embed_tokens.weight", dtype, [V, h])]
    for l in range(L):
        p = "model.layers.%d." % l
        t += [(p + "self_attn.q_proj.weight", dtype, [H * hd, h]), (p + "self_attn.k_proj.weight", dtype, [KV * hd, h]),
              (p + "self_attn.v_proj.weight", dtype, [KV * hd, h]), (p + "self_attn.o_proj.weight", dtype, [h, H * hd])]
        if qwen2:
            t += [(p + "self_attn.q_proj.bias", dtype, [H * hd]), (p + "self_attn.k_proj.bias", dtype, [KV * hd]),
                  (p + "self_attn.v_proj.bias", dtype, [KV * hd])]
        if inv_freq:
            t += [(p + "self_attn.rotary_emb.inv_freq", "F32", [hd // 2])]
        if E:
            t += [(p + "block_sparse_moe.gate.weight", dtype, [E, h])]
            for e in range(E):
                q = p + "block_sparse_moe.experts.%d." % e
                t += [(q + "w1.weight", dtype, [I, h]), (q + "w2.weight", dtype, [h, I]), (q + "w3.weight", dtype, [I, h])]
        else:
            t += [(p + "mlp.gate_proj.weight", dtype, [I, h]), (p + "mlp.up_proj.weight", dtype, [I, h]),
                  (p + "mlp.down_proj.weight", dtype, [h, I])]
        t += [(p + "input_layernorm.weight", dtype, [h]), (p + "post_attention_layernorm.weight", dtype, [h])]
    t += [("model.norm.weight", dtype, [h])]
    if not c.get("tie_word_embeddings", False):
        t += [("lm_head.weight", dtype, [V, h])]
    return t


def bert(c):
    h, L, V, I = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["intermediate_size"]
    P, T = c["max_position_embeddings"], c["type_vocab_size"]
    t = [("embeddings.position_ids", "I64", [1, P]),
         ("embeddings.word_embeddings.weight", "F32", [V, h]), ("embeddings.position_embeddings.weight", "F32", [P, h]),
         ("embeddings.token_type_embeddings.weight", "F32", [T, h]),
         ("embeddings.LayerNorm.weight", "F32", [h]), ("embeddings.LayerNorm.bias", "F32", [h])]
    for l in range(L):
        p = "encoder.layer.%d." % l
        for m in ("query", "key", "value"):
            t += [(p + "attention.self.%s.weight" % m, "F32", [h, h]), (p + "attention.self.%s.bias" % m, "F32", [h])]
        t += [(p + "attention.output.dense.weight", "F32", [h, h]), (p + "attention.output.dense.bias", "F32", [h]),
              (p + "attention.output.LayerNorm.weight", "F32", [h]), (p + "attention.output.LayerNorm.bias", "F32", [h]),
              (p + "intermediate.dense.weight", "F32", [I, h]), (p + "intermediate.dense.bias", "F32", [I]),
              (p + "output.dense.weight", "F32", [h, I]), (p + "output.dense.bias", "F32", [h]),
              (p + "output.LayerNorm.weight", "F32", [h]), (p + "output.LayerNorm.bias", "F32", [h])]
    t += [("pooler.dense.weight", "F32", [h, h]), ("pooler.dense.bias", "F32", [h])]
    return t


def vit(c):
    h, L, I, C, S, p_ = c["hidden_size"], c["num_hidden_layers"], c["intermediate_size"], c["num_channels"], c["image_size"], c["patch_size"]
    n = (S // p_) ** 2
    t = [("vit.embeddings.cls_token", "F32", [1, 1, h]), ("vit.embeddings.position_embeddings", "F32", [1, n + 1, h]),
         ("vit.embeddings.patch_embeddings.projection.weight", "F32", [h, C, p_, p_]),
         ("vit.embeddings.patch_embeddings.projection.bias", "F32", [h])]
    for l in range(L):
        p = "vit.encoder.layer.%d." % l
        for m in ("query", "key", "value"):
            t += [(p + "attention.attention.%s.weight" % m, "F32", [h, h]), (p + "attention.attention.%s.bias" % m, "F32", [h])]
        t += [(p + "attention.output.dense.weight", "F32", [h, h]), (p + "attention.output.dense.bias", "F32", [h]),
              (p + "intermediate.dense.weight", "F32", [I, h]), (p + "intermediate.dense.bias", "F32", [I]),
              (p + "output.dense.weight", "F32", [h, I]), (p + "output.dense.bias", "F32", [h]),
              (p + "layernorm_before.weight", "F32", [h]), (p + "layernorm_before.bias", "F32", [h]),
              (p + "layernorm_after.weight", "F32", [h]), (p + "layernorm_after.bias", "F32", [h])]
    t += [("vit.layernorm.weight", "F32", [h]), ("vit.layernorm.bias", "F32", [h]),
          ("classifier.weight", "F32", [c["num_labels"], h]), ("classifier.bias", "F32", [c["num_labels"]])]
    return t


def t5(c):
    d, L, H, dkv, F, V = c["d_model"], c["num_layers"], c["num_heads"], c["d_kv"], c["d_ff"], c["vocab_size"]
    inner, B = H * dkv, c.get("relative_attention_num_buckets", 32)
    t = [("shared.weight", "F32", [V, d])]

    def attn(p, kind):
        return [(p + "%s.%s.weight" % (kind, x), "F32", [inner, d] if x != "o" else [d, inner]) for x in "qkvo"]

    for l in range(L):
        p = "encoder.block.%d.layer." % l
        t += attn(p + "0.", "SelfAttention")
        if l == 0:
            t += [(p + "0.SelfAttention.relative_attention_bias.weight", "F32", [B, H])]
        t += [(p + "0.layer_norm.weight", "F32", [d]), (p + "1.DenseReluDense.wi.weight", "F32", [F, d]),
              (p + "1.DenseReluDense.wo.weight", "F32", [d, F]), (p + "1.layer_norm.weight", "F32", [d])]
    t += [("encoder.final_layer_norm.weight", "F32", [d])]
    for l in range(c.get("num_decoder_layers", L)):
        p = "decoder.block.%d.layer." % l
        t += attn(p + "0.", "SelfAttention")
        if l == 0:
            t += [(p + "0.SelfAttention.relative_attention_bias.weight", "F32", [B, H])]
        t += [(p + "0.layer_norm.weight", "F32", [d])] + attn(p + "1.", "EncDecAttention")
        t += [(p + "1.layer_norm.weight", "F32", [d]), (p + "2.DenseReluDense.wi.weight", "F32", [F, d]),
              (p + "2.DenseReluDense.wo.weight", "F32", [d, F]), (p + "2.layer_norm.weight", "F32", [d])]
    t += [("decoder.final_layer_norm.weight", "F32", [d])]
    return t


# name -> (tensors builder, published parameter count, published index total_size or None, shards)
MODELS = {
    # 124,439,808: GPT-2 small (Radford et al. 2019; openai-community/gpt2, tied lm_head)
    "gpt2": (gpt2, 124_439_808, None, 1),
    # 6,738,415,616: Llama-2-7B (meta-llama/Llama-2-7b-hf); its index's total_size 13,476,839,424
    # = 2 bytes x the parameters + the fp32 rotary inv_freq buffers (32 layers x 64 x 4 bytes)
    "llama-2-7b": (lambda c: llama(c, "F16", inv_freq=True), 6_738_415_616, 13_476_839_424, 2),
    # 7,241,732,096: Mistral-7B-v0.1; index total_size 14,483,464,192 (bf16)
    "mistral-7b": (lambda c: llama(c, "BF16"), 7_241_732_096, 14_483_464_192, 1),
    # 46,702,792,704: Mixtral-8x7B-v0.1; index total_size 93,405,585,408 (bf16)
    "mixtral-8x7b": (lambda c: llama(c, "BF16"), 46_702_792_704, 93_405_585_408, 3),
    # 7,615,616,512: Qwen2.5-7B(-Instruct), qwen2 architecture; index total_size 15,231,233,024 (bf16)
    "qwen2-7b": (lambda c: llama(c, "BF16"), 7_615_616_512, 15_231_233_024, 1),
    # 494,032,768: Qwen2-0.5B (tied embeddings)
    "qwen2-0.5b": (lambda c: llama(c, "BF16"), 494_032_768, None, 1),
    # 109,482,240: BERT-base uncased, BertModel with its pooler (Devlin et al. 2019: "110M")
    "bert-base-uncased": (bert, 109_482_240, None, 1),
    # 86,567,656: ViT-B/16 for 1000 ImageNet classes (google/vit-base-patch16-224; torchvision's vit_b_16 too)
    "vit-base-patch16-224": (vit, 86_567_656, None, 1),
    # 60,506,624: t5-small (T5ForConditionalGeneration, tied lm_head)
    "t5-small": (t5, 60_506_624, None, 1),
}


def main():
    ok = True
    for name, (build, published, total_size, shards) in MODELS.items():
        with open(os.path.join(HERE, name + ".json")) as f:
            config = json.load(f)
        tensors = build(config)
        params, buffers, nbytes = counts(tensors)
        if params != published or (total_size is not None and nbytes != total_size):
            print("%s: %d parameters, %d bytes; published %d, %s" % (name, params, nbytes, published, total_size))
            ok = False
            continue
        if shards == 1:
            with open(os.path.join(HERE, name + ".safetensors"), "wb") as f:
                f.write(header_bytes(tensors)[0])
        else:
            folder = os.path.join(HERE, name)
            os.makedirs(folder, exist_ok=True)
            per = -(-len(tensors) // shards)
            weight_map = {}
            for s in range(shards):
                part = tensors[s * per:(s + 1) * per]
                file = "model-%05d-of-%05d.safetensors" % (s + 1, shards)
                with open(os.path.join(folder, file), "wb") as f:
                    f.write(header_bytes(part)[0])
                for t in part:
                    weight_map[t[0]] = file
            with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
                json.dump({"metadata": {"total_size": nbytes}, "weight_map": weight_map}, f, indent=1)
        print("%s: %d parameters (+%d buffer elements), %d bytes: matches the published count" % (name, params, buffers, nbytes))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
