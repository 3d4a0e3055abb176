// SPDX-License-Identifier: MIT
#include "costmodel/HfParams.h"

#include <algorithm>

namespace memviz::costmodel::hf {

namespace {

Big normSize(const HfBlock& b, Big width) { return b.norm == HfNorm::LayerNorm && b.normBias ? 2 * width : width; }

Big mlp(Big h, Big width, bool gated, bool bias) {
    return gated ? 3 * h * width + (bias ? 2 * width + h : 0) : 2 * h * width + (bias ? width + h : 0);
}

Big attention(const HfModel& m) {
    const HfBlock& b = m.block;
    const Big h = Big(m.hidden), heads = Big(m.heads), kv = Big(m.kvHeads), hd = Big(m.headDim);
    if (b.attention == HfAttention::Mla) {
        const Big qk = Big(b.qkNopeDim + b.qkRopeDim), rank = Big(b.kvLoraRank);
        Big q = b.qLoraRank ? h * Big(b.qLoraRank) + Big(b.qLoraRank) + Big(b.qLoraRank) * heads * qk : h * heads * qk;
        const Big kvA = h * (rank + Big(b.qkRopeDim)) + rank; // kv_a_proj_with_mqa and kv_a_layernorm
        const Big kvB = rank * heads * Big(b.qkNopeDim + b.vHeadDim);
        return q + kvA + kvB + heads * Big(b.vHeadDim) * h + (b.oBias ? h : 0);
    }
    Big a = 2 * h * heads * hd + 2 * h * kv * hd;
    if (b.qkvBias) a += heads * hd + (b.kProjBias ? 2 : 1) * kv * hd;
    if (b.oBias) a += h;
    const Big qkNormFactor = b.normBias ? 2 : 1;
    if (b.qkNorm == HfQkNorm::PerHead) a += 2 * hd * qkNormFactor;
    if (b.qkNorm == HfQkNorm::Full) a += (heads + kv) * hd * qkNormFactor;
    return a;
}

Big stateSpace(const HfModel& m) {
    const HfBlock& b = m.block;
    const Big h = Big(m.hidden), di = Big(b.ssmInner), n = Big(b.ssmState), r = Big(b.ssmDtRank);
    Big p = h * 2 * di + (b.ssmProjBias ? 2 * di : 0);             // in_proj
    p += di * Big(b.ssmConv) + (b.ssmConvBias ? di : 0);           // depthwise conv1d
    p += di * (r + 2 * n) + r * di + di;                           // x_proj, dt_proj with bias
    p += di * n + di;                                              // A_log, D
    p += di * h + (b.ssmProjBias ? h : 0);                         // out_proj
    if (b.ssmInnerNorms) p += r + 2 * n;                           // Jamba's dt, B and C norms
    return p;
}

Big feedForward(const HfModel& m, std::int64_t i) {
    const HfBlock& b = m.block;
    const Big h = Big(m.hidden);
    if (!hasExperts(m, i)) return mlp(h, Big(m.intermediate), b.gatedMlp, b.mlpBias);
    Big p = h * Big(b.experts) + (b.routerBias ? Big(b.experts) : 0);
    p += Big(b.experts) * mlp(h, Big(b.moeIntermediate), b.gatedMlp, false);
    if (b.sharedIntermediate) p += mlp(h, Big(b.sharedIntermediate), b.gatedMlp, false) + (b.sharedExpertGate ? h : 0);
    return p;
}

Big decoderLayer(const HfModel& m, std::int64_t i) {
    const HfBlock& b = m.block;
    const Big norms = Big(b.normsPerLayer) * normSize(b, Big(m.hidden));
    if (b.stack == HfStack::StateSpace) return norms + stateSpace(m);
    const Big mixer = b.stack == HfStack::Hybrid && !hasAttention(m, i) ? stateSpace(m) : attention(m);
    return norms + mixer + feedForward(m, i);
}

} // namespace

bool hasExperts(const HfModel& m, std::int64_t i) {
    const HfBlock& b = m.block;
    return b.experts > 0 && i >= b.firstDense && i % b.moeEvery == b.moeOffset;
}

bool hasAttention(const HfModel& m, std::int64_t i) {
    const HfBlock& b = m.block;
    if (b.stack == HfStack::StateSpace) return false;
    return b.stack != HfStack::Hybrid || (b.attnEvery > 0 && i % b.attnEvery == b.attnOffset);
}

Big encoderLayer(Big h, Big i) { return 4 * h * h + 4 * h + 2 * h + 2 * h * i + i + h + 2 * h; }

std::int64_t checkedTotal(const Keys& k, Big total, std::string_view key) {
    if (!(total <= Big(kLimit))) k.fail(key, "gives more than 2^48 parameters: not a real model");
    return static_cast<std::int64_t>(total);
}

void countParameters(const Keys& k, HfModel& m) {
    const HfBlock& b = m.block;
    constexpr std::int64_t kMostLayers = 10'000; // the spec holds one layer per block
    if (m.layers > kMostLayers || m.decoderLayers > kMostLayers)
        k.fail(k.firstOf({"num_hidden_layers", "n_layer", "num_layers", "n_layers", "encoder_layers"}),
               std::to_string(std::max(m.layers, m.decoderLayers)) + " layers is absurd (more than 10,000)");
    const Big h = Big(m.hidden), vocab = Big(m.vocab);
    Big total = 0, largest = 0;
    switch (b.stack) {
    case HfStack::Decoder:
    case HfStack::StateSpace:
    case HfStack::Hybrid: {
        for (std::int64_t i = 0; i < m.layers; ++i) {
            const Big layer = decoderLayer(m, i);
            total += layer;
            largest = std::max(largest, layer);
        }
        const Big width = b.embedProjection ? Big(b.embedProjection) : h;
        total += vocab * width;
        if (b.embedProjection) total += 2 * width * h; // project_in, project_out
        if (b.positions == HfPositions::Learned) total += Big(m.maxPositions + b.positionOffset) * h;
        if (b.embeddingNorm) total += normSize(b, h);
        if (b.finalNorm) total += normSize(b, h);
        if (b.head == HfHead::CausalLm) total += (m.tiedEmbeddings ? 0 : vocab * width) + (b.lmHeadBias ? vocab : 0);
        if (b.head == HfHead::SequenceClassification) total += Big(b.labels) * h;
        if (b.head == HfHead::QuestionAnswering) total += 2 * h + 2;
        break;
    }
    case HfStack::Encoder: {
        largest = encoderLayer(h, Big(m.intermediate));
        total = Big(m.layers) * largest + vocab * h + 2 * h;
        if (b.positions == HfPositions::Learned) total += Big(m.maxPositions) * h;
        total += Big(m.typeVocab) * h;
        if (b.relativePositions) total += Big(b.relativePositions) * h + 2 * h;
        if (b.head == HfHead::Pooler) total += h * h + h;
        break;
    }
    case HfStack::EncoderDecoder: {
        const Big f = Big(m.intermediate);
        const Big attn = 4 * h * h + (b.kProjBias ? 4 : 3) * h;
        const Big ffn = 2 * h * f + f + h;
        const Big enc = attn + ffn + 4 * h, dec = 2 * attn + ffn + 6 * h;
        largest = std::max(enc, dec);
        total = Big(m.layers) * enc + Big(m.decoderLayers) * dec + vocab * h;
        if (b.melBins) total += Big(b.melBins) * h * 3 + h + h * h * 3 + h + Big(b.sourcePositions) * h;
        else total += Big(m.maxPositions + b.positionOffset) * h;
        total += Big(m.maxPositions + b.positionOffset) * h; // the decoder's positions
        if (b.embeddingNorm) total += 4 * h;                 // layernorm_embedding, both stacks
        if (b.finalNorm) total += 4 * h;
        if (!m.tiedEmbeddings) total += vocab * h;
        break;
    }
    case HfStack::Vision:
    case HfStack::TextVision: break; // counted by their readers
    }
    m.parameterCount = checkedTotal(k, total, "num_hidden_layers");
    m.largestLayerParameters = checkedTotal(k, largest, "num_hidden_layers");
    // A multi-token-prediction layer (DeepSeek-V3's layer 61): the decoder layer that would come
    // next (MoE), its own embedding and head, eh_proj (2h -> h, no bias) and enorm, hnorm and the
    // shared head's norm.
    if (m.mtpLayers > 0 && b.stack == HfStack::Decoder) {
        const Big one = decoderLayer(m, m.layers) + 2 * vocab * h + 2 * h * h + 3 * normSize(b, h);
        m.mtpParameters = checkedTotal(k, Big(m.mtpLayers) * one, "num_nextn_predict_layers");
    }
}

} // namespace memviz::costmodel::hf
