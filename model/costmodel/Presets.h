// SPDX-License-Identifier: MIT
#pragma once
// Built-in models, as ModelSpecs built from the same layer types as the JSON specs (so
// `memviz estimate --model X --print-spec` gives a file spec_to_torch.py can build).
#include <string>
#include <vector>

#include "costmodel/ModelSpec.h"

namespace memviz::costmodel {

struct PresetInfo {
    std::string id;          // "resnet50"
    std::string title;       // "ResNet-50"
    std::string description; // input, source of the architecture
};

const std::vector<PresetInfo>& presets();
// Throws SpecError naming the known presets when `id` is unknown (case-insensitive).
ModelSpec presetSpec(const std::string& id);

} // namespace memviz::costmodel
