// SPDX-License-Identifier: MIT
#pragma once
// PyTorch's tensor element types as a learner writes them (torch.float32, "half", ...), with
// their sizes in bytes. Used by the tensor-size lesson and the OOM decoder's shape guesses.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::workshop {

struct TorchDType {
    const char* name;  // "float32": the canonical torch.<name>
    const char* alias; // "float" (torch.float), or "" when there is none
    int bytes;         // element size
    bool floating;
};

// All dtypes the workshop knows, from the most common (float32) on.
const std::vector<TorchDType>& torchDTypes();
// Finds "float32", "torch.float32", "float", "fp32", "half", "bf16", ... (case-insensitive).
std::optional<TorchDType> findTorchDType(std::string_view word);

} // namespace memviz::workshop
