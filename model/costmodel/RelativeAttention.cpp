// SPDX-License-Identifier: MIT
// DeBERTa-v2's disentangled self-attention, op by op as transformers' DisentangledSelfAttention
// runs it (eager, share_att_key, pos_att_type c2p and p2c; DeBERTa-v3's configs): the content
// scores plus a content-to-position and a position-to-content term, each a batched product with
// the projected relative embeddings ([B*H, S, 2 x span]) gathered down to [B*H, S, S]. Python's
// locals set the lifetimes: the gathered terms live until disentangled_attention_bias returns,
// the bias until the attention returns. q, k and v are made from the packed projection (one
// [B, S, 3E] output chunked) where DeBERTa runs three linears: the same copies, a larger
// transient before the scores; the relative embeddings' query and key likewise.
#include "costmodel/ModelRunner.h"

namespace memviz::costmodel::sim {

Tensor ModelRunner::disentangledAttention(const ResolvedLayer& l, const Tensor& x) {
    const Layer& d = l.def;
    const std::int64_t b = x.dim(0), s = x.dim(1), e = x.dim(2), h = d.nhead, hd = e / h, r = 2 * d.relativeSpan;
    const DType dt = x.dtype();
    const double p = ops_.cfg.training ? d.p : 0.0;
    if (relative_.empty()) { // built once per forward by DebertaV2Model / its encoder, alive through it
        relative_.push_back(g_.empty({r, e}, dt, Category::Activations)); // get_rel_embedding(): LayerNorm(rel_embeddings)
        g_.op("aten.native_layer_norm");
        relative_.push_back(g_.empty({1, s, s}, DType::I64, Category::Activations)); // build_relative_position (log buckets)
        g_.op("aten.where");
        relative_.push_back(g_.empty({b, 1, s, s}, DType::F32, Category::Activations)); // get_attention_mask of ones(B, S)
        g_.op("aten.mul");
    }
    const Tensor& embeddings = relative_[0];
    Tensor o;
    {
        Tensor q, k, v; // transpose_for_scores: contiguous [B*H, S, hd] copies
        {
            Tensor packed = proj(l, 0, x, &param(l, 1));
            std::vector<Tensor> qkv = ops_.chunk(packed, 3);
            packed.reset();
            q = ops_.view(ops_.clone(qkv[0]), {b * h, s, hd});
            k = ops_.view(ops_.clone(qkv[1]), {b * h, s, hd});
            v = ops_.view(ops_.clone(qkv[2]), {b * h, s, hd});
        }
        Tensor scores = ops_.bmm(q, ops_.divScalar(ops_.view(k, {b * h, hd, s}, false))); // q @ (k^T / scale)
        Tensor bias;                                                                       // rel_att
        {
            // query_proj and key_proj of the relative embeddings (one packed projection here, v's
            // third unused), split into heads, .repeat(B, 1, 1)
            Tensor posQuery, posKey;
            {
                Tensor packed = proj(l, 0, embeddings, &param(l, 1));
                std::vector<Tensor> parts = ops_.chunk(packed, 3);
                packed.reset();
                auto repeated = [&](const Tensor& part) {
                    Tensor heads = ops_.clone(ops_.view(part, {1, h, r, hd}, false));
                    return ops_.view(ops_.clone(ops_.expand(heads, {b, h, r, hd})), {b * h, r, hd});
                };
                posQuery = repeated(parts[0]);
                posKey = repeated(parts[1]);
            }
            Tensor c2pIndex = g_.empty({1, 1, s, s}, DType::I64); // clamp(relative_pos + span, 0, 2 span - 1)
            g_.op("aten.clamp");
            Tensor c2p = ops_.gather(ops_.bmm(q, ops_.view(posKey, {b * h, hd, r}, false)), c2pIndex, {b * h, s, s});
            Tensor score = ops_.scalarOp(ops_.divScalar(c2p), "aten.add"); // score = 0; score += c2p / scale
            Tensor p2cIndex = g_.empty({1, 1, s, s}, DType::I64);          // clamp(-relative_pos + span, ...)
            g_.op("aten.clamp");
            Tensor p2c = ops_.gather(ops_.bmm(k, ops_.view(posQuery, {b * h, hd, r}, false)), p2cIndex, {b * h, s, s});
            bias = ops_.addInPlace(score, ops_.divScalar(ops_.view(p2c, {b * h, s, s}, false))); // p2c^T / scale
        }
        Tensor masked;
        {
            Tensor all = ops_.add(scores, bias);
            scores.reset();
            Tensor keep = g_.empty({b, 1, s, s}, DType::Bool); // attention_mask.bool(), then ~
            g_.op("aten._to_copy");
            masked = ops_.where(keep, all); // masked_fill(~mask, finfo.min)
        }
        Tensor probs = ops_.dropout(ops_.softmax(masked, dt), p);
        o = ops_.bmm(probs, v);
    }
    Tensor oc = ops_.clone(ops_.view(o, {b, s, h, hd}, false)); // permute(0, 2, 1, 3).contiguous()
    o.reset();
    Tensor y = proj(l, 2, ops_.view(oc, {b, s, e}), &param(l, 3)); // DebertaV2SelfOutput.dense
    oc.reset();
    return ops_.dropout(y, p);
}

} // namespace memviz::costmodel::sim
