// SPDX-License-Identifier: MIT
#pragma once
// Shape inference over a ModelSpec: per-sample input/output shapes of every layer and the
// parameter list in torch.nn registration order (what model.parameters() yields). Checks the
// shapes the way spec_to_torch.py does and throws SpecError naming the layer.
#include <string>
#include <vector>

#include "costmodel/ModelSpec.h"

namespace memviz::costmodel {

// What a parameter is to LoRA and weight quantization: a linear weight of a transformer block's
// attention or MLP (the targets), or anything else (embeddings, norms, biases, heads).
enum class ParamRole { Other, AttentionWeight, MlpWeight, RouterWeight };

struct ParamInfo {
    std::string name; // "layers[1].weight"
    Shape shape;
    ParamRole role = ParamRole::Other;
    int topLevel = -1; // index of the top-level layer it belongs to
};

struct ResolvedLayer {
    Layer def;         // the layer's fields (its child lists are in body/skip below)
    std::string where; // "layers[3]" or "layers[3].layers[0]"
    Shape in, out;     // per sample
    DType inDtype = DType::F32;
    int firstParam = -1; // index into ResolvedModel::params of this layer's own parameters
    int paramCount = 0;
    int tiedParam = -1; // linear with "tied": the embedding weight it reuses
    std::vector<ResolvedLayer> body, skip;
};

struct ResolvedModel {
    ModelSpec spec;
    std::vector<ResolvedLayer> layers;
    std::vector<ParamInfo> params;  // trainable parameters, registration order
    std::vector<ParamInfo> buffers; // BatchNorm running statistics (num_batches_tracked is int64)
    Shape outShape;
    std::int64_t parameterCount() const;
    std::int64_t bufferElements() const;   // float buffer elements
    std::int64_t int64BufferCount() const; // num_batches_tracked scalars
    int topLevelLayerCount() const { return static_cast<int>(layers.size()); }
};

ResolvedModel resolveModel(const ModelSpec& spec);
// resolveModel(spec).parameterCount() without naming each parameter (a model of thousands of
// experts has hundreds of thousands).
std::int64_t simulatedParameterCount(const ModelSpec& spec);
// The parameter elements of one layer and the layers inside it (a block's body and skip path).
std::int64_t parametersIn(const ResolvedModel& m, const ResolvedLayer& l);

} // namespace memviz::costmodel
