// SPDX-License-Identifier: MIT
#pragma once
// Reads a JSON model spec (docs/costmodel.md) into a ModelSpec, validates every field and the
// shapes, and writes a ModelSpec back as JSON (for `memviz estimate --print-spec`).
#include <string>
#include <string_view>

#include "costmodel/ModelSpec.h"

namespace memviz::costmodel {

// `source` names the text in error messages ("model.json: layers[2]: unknown field(s) ['foo']").
ModelSpec parseModelSpec(std::string_view json, const std::string& source = "spec");
ModelSpec readModelSpecFile(const std::string& path);

std::string modelSpecToJson(const ModelSpec& spec);

} // namespace memviz::costmodel
