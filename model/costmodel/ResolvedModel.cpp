// SPDX-License-Identifier: MIT
#include "costmodel/ResolvedModel.h"

#include <limits>

namespace memviz::costmodel {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw SpecError(where + ": " + what); }

// A tensor of more than 2^48 elements (1 PiB of float32) is no real model, and its element
// count times 8 bytes, or a sum of a few thousand of them, would pass int64 (fuzz_model_spec:
// a padding of 2^34 made numel() overflow). Every input, output and parameter shape is held to it.
// `what` names the tensor in the error; it is only called when the shape is refused (a
// model with thousands of experts resolves hundreds of thousands of parameters).
template <typename What>
void checkElements(const Shape& shape, const std::string& where, What&& what) {
    constexpr std::int64_t kMaxElements = std::int64_t{1} << 48;
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > kMaxElements)
            fail(where, what() + " " + shapeText(shape) + ": more than 2^48 elements, not a real model");
}

// A padding near 2^62 must not overflow: a result past int64 becomes int64's maximum, which
// checkElements() then refuses.
std::int64_t poolOut(std::int64_t n, std::int64_t k, std::int64_t s, std::int64_t p) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t t = 0;
    if (__builtin_mul_overflow(p, 2, &t) || __builtin_add_overflow(t, n, &t) || __builtin_sub_overflow(t, k, &t)) return kMax;
    const std::int64_t q = t / s;
    return q == kMax ? q : q + 1;
}

void needRank(const Shape& shape, std::size_t rank, const char* type, const std::string& where) {
    if (shape.size() != rank)
        fail(where, std::string("'") + type + "' expects a per-sample input of rank " + std::to_string(rank) + ", got shape " +
                        shapeText(shape));
}

class Resolver {
public:
    Resolver(ResolvedModel& m, bool names) : names_(names), m_(m) {}

    std::vector<ResolvedLayer> list(const std::vector<Layer>& layers, Shape& shape, DType& dtype, const std::string& where) {
        std::vector<ResolvedLayer> out;
        out.reserve(layers.size());
        for (std::size_t i = 0; i < layers.size(); ++i) {
            if (where == "layers") topLevel_ = static_cast<int>(i);
            out.push_back(layer(layers[i], shape, dtype, where + "[" + std::to_string(i) + "]"));
        }
        return out;
    }

private:
    void param(ResolvedLayer& r, const std::string& name, Shape shape, ParamRole role = ParamRole::Other) {
        if (r.firstParam < 0) r.firstParam = static_cast<int>(m_.params.size());
        checkElements(shape, r.where, [&] { return "parameter '" + name + "' of shape"; });
        m_.params.push_back({names_ ? r.where + "." + name : std::string(), std::move(shape), role, topLevel_});
        ++r.paramCount;
    }

public:
    int topLevel_ = -1;
    const bool names_; // false: the parameters' names are left empty (only their count is wanted)

private:

    ResolvedLayer layer(const Layer& l, Shape& shape, DType& dtype, const std::string& where) {
        ResolvedLayer r;
        r.def = l;
        r.def.layers.clear();
        r.def.downsample.clear();
        r.where = where;
        r.in = shape;
        r.inDtype = dtype;
        const char* type = layerTypeName(l.type);
        if (l.type != LayerType::Embedding && dtype != DType::F32)
            fail(where, std::string("'") + type + "' needs a float input, got int64 (only 'embedding' takes integer input)");
        switch (l.type) {
        case LayerType::Linear: {
            if (shape.empty()) fail(where, "'linear' needs a non-scalar per-sample input");
            const std::int64_t in = shape.back();
            if (l.tied) {
                if (firstEmbedding_ < 0) fail(where, "'tied' needs an 'embedding' layer before it");
                const Shape& w = m_.params[static_cast<std::size_t>(firstEmbedding_)].shape;
                if (w[0] != l.outFeatures || w[1] != in || l.bias)
                    fail(where, "a tied linear must be " + std::to_string(in) + " -> " + std::to_string(w[0]) +
                                    " without bias, like the embedding " + shapeText(w));
                r.tiedParam = firstEmbedding_;
            } else {
                param(r, "weight", {l.outFeatures, in});
                if (l.bias) param(r, "bias", {l.outFeatures});
            }
            shape.back() = l.outFeatures;
            break;
        }
        case LayerType::Conv2d: {
            needRank(shape, 3, type, where);
            const std::int64_t c = shape[0];
            if (c % l.groups || l.outChannels % l.groups)
                fail(where, "groups=" + std::to_string(l.groups) + " must divide in_channels=" + std::to_string(c) +
                                " and out_channels=" + std::to_string(l.outChannels));
            param(r, "weight", {l.outChannels, c / l.groups, l.kernel.h, l.kernel.w});
            if (l.bias) param(r, "bias", {l.outChannels});
            shape = {l.outChannels, poolOut(shape[1], l.kernel.h, l.stride.h, l.padding.h),
                     poolOut(shape[2], l.kernel.w, l.stride.w, l.padding.w)};
            break;
        }
        case LayerType::BatchNorm2d:
            needRank(shape, 3, type, where);
            param(r, "weight", {shape[0]});
            param(r, "bias", {shape[0]});
            m_.buffers.push_back({where + ".running_mean", {shape[0]}});
            m_.buffers.push_back({where + ".running_var", {shape[0]}});
            break;
        case LayerType::LayerNorm:
        case LayerType::RMSNorm:
            if (shape.empty()) fail(where, std::string("'") + type + "' needs a non-scalar per-sample input");
            param(r, "weight", {shape.back()});
            if (l.type == LayerType::LayerNorm) param(r, "bias", {shape.back()});
            break;
        case LayerType::ReLU:
        case LayerType::GELU:
        case LayerType::Sigmoid:
        case LayerType::Tanh:
        case LayerType::Dropout: break;
        case LayerType::MaxPool2d:
        case LayerType::AvgPool2d: {
            needRank(shape, 3, type, where);
            const Pair s = l.strideSet ? l.stride : l.kernel;
            shape = {shape[0], poolOut(shape[1], l.kernel.h, s.h, l.padding.h), poolOut(shape[2], l.kernel.w, s.w, l.padding.w)};
            break;
        }
        case LayerType::AdaptiveAvgPool2d:
            needRank(shape, 3, type, where);
            shape = {shape[0], l.outputSize.h, l.outputSize.w};
            break;
        case LayerType::Flatten: shape = {numel(shape)}; break;
        case LayerType::Embedding:
            if (dtype != DType::I64) fail(where, "'embedding' needs an int64 input, got float32");
            if (firstEmbedding_ < 0) firstEmbedding_ = static_cast<int>(m_.params.size());
            param(r, "weight", {l.numEmbeddings, l.embeddingDim});
            shape.push_back(l.embeddingDim);
            dtype = DType::F32;
            break;
        case LayerType::TransformerEncoderLayer:
        case LayerType::LlamaDecoderLayer:
        case LayerType::Gpt2Block: {
            needRank(shape, 2, type, where);
            if (l.dModel != shape.back())
                fail(where, "d_model=" + std::to_string(l.dModel) + " does not match the input's last dim " +
                                std::to_string(shape.back()));
            if (l.dModel % l.nhead && !(l.type == LayerType::LlamaDecoderLayer && l.headDim))
                fail(where, "nhead=" + std::to_string(l.nhead) + " must divide d_model");
            if (l.headDim && l.type != LayerType::LlamaDecoderLayer) fail(where, "head_dim is a llama_decoder_layer field");
            const std::int64_t e = l.dModel, f = l.dimFeedforward;
            constexpr ParamRole A = ParamRole::AttentionWeight, M = ParamRole::MlpWeight;
            if (l.type == LayerType::TransformerEncoderLayer) {
                param(r, "self_attn.in_proj_weight", {3 * e, e}, A);
                param(r, "self_attn.in_proj_bias", {3 * e});
                param(r, "self_attn.out_proj.weight", {e, e}, A);
                param(r, "self_attn.out_proj.bias", {e});
                param(r, "linear1.weight", {f, e}, M);
                param(r, "linear1.bias", {f});
                param(r, "linear2.weight", {e, f}, M);
                param(r, "linear2.bias", {e});
                param(r, "norm1.weight", {e});
                param(r, "norm1.bias", {e});
                param(r, "norm2.weight", {e});
                param(r, "norm2.bias", {e});
            } else if (l.type == LayerType::Gpt2Block) {
                // transformers' GPT2Block; Conv1D weights are stored [in, out], held here as
                // [out, in] like nn.Linear (the same elements).
                param(r, "ln_1.weight", {e});
                param(r, "ln_1.bias", {e});
                param(r, "attn.c_attn.weight", {3 * e, e}, A);
                param(r, "attn.c_attn.bias", {3 * e});
                param(r, "attn.c_proj.weight", {e, e}, A);
                param(r, "attn.c_proj.bias", {e});
                param(r, "ln_2.weight", {e});
                param(r, "ln_2.bias", {e});
                param(r, "mlp.c_fc.weight", {f, e}, M);
                param(r, "mlp.c_fc.bias", {f});
                param(r, "mlp.c_proj.weight", {e, f}, M);
                param(r, "mlp.c_proj.bias", {e});
            } else {
                const std::int64_t kvh = l.numKvHeads ? l.numKvHeads : l.nhead;
                if (l.nhead % kvh)
                    fail(where, "num_key_value_heads=" + std::to_string(kvh) + " must divide nhead=" + std::to_string(l.nhead));
                if (l.numExperts && l.expertsPerToken > l.numExperts)
                    fail(where, "experts_per_token=" + std::to_string(l.expertsPerToken) + " exceeds num_experts=" +
                                    std::to_string(l.numExperts));
                if (!l.numExperts && l.expertsPerToken) fail(where, "experts_per_token needs num_experts");
                if (l.numExperts > (1 << 14))
                    fail(where, "num_experts=" + std::to_string(l.numExperts) + ": more than 16384 experts, not a real model");
                const std::int64_t hd = headDimOf(l), q = l.nhead * hd, kv = kvh * hd;
                if (hd % 2) fail(where, "head_dim=" + std::to_string(hd) + " must be even (rotary positions)");
                const bool mla = l.mlaKvRank > 0; // projections 0..3 hold q (q_b), kv_a, kv_b and o
                const std::int64_t kvOut = mla ? l.mlaKvRank + l.mlaRope : kv, vOut = mla ? l.nhead * (hd - l.mlaRope + l.mlaValue) : kv;
                const std::int64_t oIn = mla ? l.nhead * l.mlaValue : q;
                if (mla && (l.mlaRope <= 0 || l.mlaRope >= hd || l.mlaValue <= 0 || l.mlaQRank < 0))
                    fail(where, "latent attention needs 0 < rope dims < head_dim and value dims > 0");
                param(r, mla ? "self_attn.q_b_proj.weight" : "self_attn.q_proj.weight", {q, l.mlaQRank > 0 ? l.mlaQRank : e}, A);
                param(r, mla ? "self_attn.kv_a_proj_with_mqa.weight" : "self_attn.k_proj.weight", {kvOut, e}, A);
                param(r, mla ? "self_attn.kv_b_proj.weight" : "self_attn.v_proj.weight", {vOut, mla ? l.mlaKvRank : e}, A);
                param(r, "self_attn.o_proj.weight", {e, oIn}, A);
                if (!l.numExperts) {
                    param(r, "mlp.gate_proj.weight", {f, e}, M);
                    param(r, "mlp.up_proj.weight", {f, e}, M);
                    param(r, "mlp.down_proj.weight", {e, f}, M);
                } else { // Mixtral's block_sparse_moe: gate (router), then w1, w2, w3 per expert
                    param(r, "block_sparse_moe.gate.weight", {l.numExperts, e}, ParamRole::RouterWeight);
                    for (std::int64_t x = 0; x < l.numExperts; ++x) {
                        const std::string p = names_ ? "block_sparse_moe.experts." + std::to_string(x) : std::string();
                        param(r, p + ".w1.weight", {f, e}, M);
                        param(r, p + ".w2.weight", {e, f}, M);
                        param(r, p + ".w3.weight", {f, e}, M);
                    }
                }
                param(r, "input_layernorm.weight", {e});
                param(r, "post_attention_layernorm.weight", {e});
                // the biases after the norms (llamaBiasIndex), in projection order
                if (l.qkvBias) {
                    param(r, "self_attn.q_proj.bias", {q});
                    param(r, "self_attn.k_proj.bias", {kvOut});
                    param(r, "self_attn.v_proj.bias", {vOut});
                }
                if (l.oBias) param(r, "self_attn.o_proj.bias", {e});
                if (l.mlpBias && l.numExperts) fail(where, "mlp_bias with num_experts is not supported");
                if (l.mlpBias) {
                    param(r, "mlp.gate_proj.bias", {f});
                    param(r, "mlp.up_proj.bias", {f});
                    param(r, "mlp.down_proj.bias", {e});
                }
                if (mla) { // after the biases (mlaExtraIndex): the q bottleneck and the two latent norms
                    if (l.mlaQRank > 0) {
                        param(r, "self_attn.q_a_proj.weight", {l.mlaQRank, e}, A);
                        param(r, "self_attn.q_a_layernorm.weight", {l.mlaQRank});
                    }
                    param(r, "self_attn.kv_a_layernorm.weight", {l.mlaKvRank});
                }
            }
            break;
        }
        case LayerType::Residual: {
            Shape bodyShape = shape, skipShape = shape;
            DType bodyType = dtype, skipType = dtype;
            r.body = list(l.layers, bodyShape, bodyType, where + ".layers");
            r.skip = list(l.downsample, skipShape, skipType, where + ".downsample");
            if (bodyShape != skipShape)
                fail(where, "residual branches disagree: layers give " + shapeText(bodyShape) + ", skip path gives " +
                                shapeText(skipShape));
            shape = bodyShape;
            break;
        }
        case LayerType::Scale: break;
        case LayerType::TextTower: {
            needRank(shape, 1, type, where);
            Shape textShape{l.tokens};
            DType textType = DType::I64;
            r.body = list(l.layers, textShape, textType, where + ".layers");
            if (textShape != shape)
                fail(where, "the text tower gives " + shapeText(textShape) + ", the image " + shapeText(shape));
            break;
        }
        case LayerType::PositionEmbedding:
        case LayerType::TokenTypeEmbedding:
            needRank(shape, 2, type, where);
            if (l.embeddingDim != shape[1])
                fail(where, "embedding_dim=" + std::to_string(l.embeddingDim) + " does not match the input's last dim " +
                                std::to_string(shape[1]));
            if (l.type == LayerType::PositionEmbedding && shape[0] > l.numEmbeddings)
                fail(where, "sequence length " + std::to_string(shape[0]) +
                                " exceeds num_embeddings=" + std::to_string(l.numEmbeddings));
            param(r, "weight", {l.numEmbeddings, l.embeddingDim});
            break;
        case LayerType::ClassToken:
            needRank(shape, 2, type, where);
            if (l.embeddingDim != shape[1])
                fail(where, "embedding_dim=" + std::to_string(l.embeddingDim) + " does not match the input's last dim " +
                                std::to_string(shape[1]));
            param(r, "token", {1, 1, l.embeddingDim});
            shape[0] += 1;
            break;
        case LayerType::ToSequence:
            needRank(shape, 3, type, where);
            shape = {shape[1] * shape[2], shape[0]};
            break;
        case LayerType::SelectToken:
            needRank(shape, 2, type, where);
            if (l.index >= shape[0])
                fail(where, "index=" + std::to_string(l.index) + " is outside the sequence of " + std::to_string(shape[0]));
            shape = {shape[1]};
            break;
        }
        for (std::int64_t d : shape)
            if (d <= 0) fail(where, "'" + std::string(type) + "' gives an empty output shape " + shapeText(shape));
        checkElements(shape, where, [&] { return "'" + std::string(type) + "' gives an output shape"; });
        r.out = shape;
        return r;
    }

    ResolvedModel& m_;
    int firstEmbedding_ = -1;
};

} // namespace

std::int64_t ResolvedModel::parameterCount() const {
    std::int64_t n = 0;
    for (const ParamInfo& p : params) n += numel(p.shape);
    return n;
}

std::int64_t ResolvedModel::bufferElements() const {
    std::int64_t n = 0;
    for (const ParamInfo& b : buffers) n += numel(b.shape);
    return n;
}

std::int64_t ResolvedModel::int64BufferCount() const { return static_cast<std::int64_t>(buffers.size() / 2); }

std::int64_t parametersIn(const ResolvedModel& m, const ResolvedLayer& l) {
    std::int64_t n = 0;
    for (int i = 0; i < l.paramCount; ++i) n += numel(m.params[static_cast<std::size_t>(l.firstParam + i)].shape);
    for (const ResolvedLayer& c : l.body) n += parametersIn(m, c);
    for (const ResolvedLayer& c : l.skip) n += parametersIn(m, c);
    return n;
}

namespace {
ResolvedModel resolve(const ModelSpec& spec, bool names) {
    ResolvedModel m;
    m.spec = spec;
    if (spec.layers.empty()) throw SpecError("layers: the model has no layers");
    Shape shape = spec.input.shape;
    checkElements(shape, "input", [] { return std::string("the shape"); });
    DType dtype = spec.input.dtype;
    m.layers = Resolver(m, names).list(spec.layers, shape, dtype, "layers");
    m.outShape = shape;
    const Shape& tgt = spec.target.shape;
    if (spec.loss == Loss::CrossEntropy) {
        if (spec.target.dtype != DType::I64) throw SpecError("cross_entropy needs an int64 target");
        if (shape.empty() || tgt != Shape(shape.begin(), shape.end() - 1))
            throw SpecError("cross_entropy: target shape " + shapeText(tgt) + " must be the output shape " + shapeText(shape) +
                            " without its last (class) dim");
    } else if (spec.target.dtype != DType::F32 || tgt != shape) {
        throw SpecError("mse: target must be float32 with the output shape " + shapeText(shape) + ", got " +
                        std::string(spec.target.dtype == DType::F32 ? "float32 " : "int64 ") + shapeText(tgt));
    }
    return m;
}
} // namespace

ResolvedModel resolveModel(const ModelSpec& spec) { return resolve(spec, true); }

std::int64_t simulatedParameterCount(const ModelSpec& spec) { return resolve(spec, false).parameterCount(); }

} // namespace memviz::costmodel
