// SPDX-License-Identifier: MIT
#pragma once
// Short constructors of spec layers, for the code that writes a ModelSpec by hand: the presets
// (Presets.cpp) and the Hugging Face configs (HfConfig.cpp).
#include <cstdint>

#include "costmodel/ModelSpec.h"

namespace memviz::costmodel::build {

inline Layer make(LayerType t) {
    Layer l;
    l.type = t;
    return l;
}
inline Layer linear(std::int64_t out, bool bias = true, bool tied = false) {
    Layer l = make(LayerType::Linear);
    l.outFeatures = out;
    l.bias = bias;
    l.tied = tied;
    return l;
}
inline Layer embedding(LayerType t, std::int64_t n, std::int64_t dim) {
    Layer l = make(t);
    l.numEmbeddings = n;
    l.embeddingDim = dim;
    return l;
}
inline Layer dropout(double p) {
    Layer l = make(LayerType::Dropout);
    l.p = p;
    return l;
}
inline Layer encoder(std::int64_t d, std::int64_t heads, std::int64_t ff, double p, bool gelu, bool normFirst, bool causal) {
    Layer l = make(LayerType::TransformerEncoderLayer);
    l.dModel = d;
    l.nhead = heads;
    l.dimFeedforward = ff;
    l.p = p;
    l.gelu = gelu;
    l.normFirst = normFirst;
    l.causal = causal;
    return l;
}
// transformers' GPT2Block (eager attention, pre-norm, GELU MLP).
inline Layer gpt2Block(std::int64_t d, std::int64_t heads, std::int64_t ff, double p) {
    Layer l = make(LayerType::Gpt2Block);
    l.dModel = d;
    l.nhead = heads;
    l.dimFeedforward = ff;
    l.p = p;
    return l;
}

} // namespace memviz::costmodel::build
