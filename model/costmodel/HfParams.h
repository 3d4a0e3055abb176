// SPDX-License-Identifier: MIT
#pragma once
// The parameter count of a model described by HfBlock (HfBlock.h): per layer (attention or
// latent attention or a state-space mixer, dense MLP or experts, norms), embeddings, the final
// norm and the head, exactly as the checkpoint's tensors hold them (buffers aside). Internal to
// the config reader (HfConfig.cpp, HfFamilies.cpp).
#include <cstdint>

#include "costmodel/HfConfig.h"
#include "costmodel/HfKeys.h"

namespace memviz::costmodel::hf {

// Counts in long double: every term of a real model is far below 2^64 and the total is
// checked against 2^48 before it becomes an integer, so no product overflows.
using Big = long double;

// Sets m.parameterCount and m.largestLayerParameters; `k` names the key in errors.
void countParameters(const Keys& k, HfModel& m);
// Whether layer `i` of a mixture-of-experts model has experts; whether layer `i` of a hybrid
// has attention (else a state-space mixer).
bool hasExperts(const HfModel& m, std::int64_t i);
bool hasAttention(const HfModel& m, std::int64_t i);
// One pre-norm encoder layer (q, k, v, o with biases, two LayerNorms, plain MLP with biases).
Big encoderLayer(Big h, Big i);
// Reads `quantization_config` into m.quantization (HfQuant.cpp); throws HfConfigError naming the key.
void readQuantization(const Keys& k, HfModel& m);
// A total in range, or an error naming `key`.
std::int64_t checkedTotal(const Keys& k, Big total, std::string_view key);

} // namespace memviz::costmodel::hf
