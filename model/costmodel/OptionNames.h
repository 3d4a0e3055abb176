// SPDX-License-Identifier: MIT
#pragma once
// The words the command line and the what-if panel use for the cost model's knobs, parsed
// and printed in one place. Parsers throw std::invalid_argument with a message that lists the
// accepted words.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Units.h"
#include "costmodel/CostModel.h"

namespace memviz::costmodel {

DType parseDType(const std::string& word);                 // fp32 fp16 bf16 fp64 int8 (also float32, ...)
OptimizerKind parseOptimizer(const std::string& word);     // sgd momentum adam adamw adagrad rmsprop lbfgs
OptimizerImpl parseOptimizerImpl(const std::string& word); // auto for-loop foreach fused
Checkpointing parseCheckpoint(const std::string& word);    // none sqrt K
DeviceKind parseDevice(const std::string& word);           // cpu cuda
std::string checkpointName(const Checkpointing& c);        // "none", "sqrt", "4"

// The canonical word of every value, in the order the what-if panel lists them: the one list
// the command line's parsers accept and the panel's choices come from.
const std::vector<std::string>& dtypeNames();         // fp32 bf16 fp16 fp64 int8
const std::vector<std::string>& optimizerNames();     // sgd momentum adam adamw adagrad rmsprop lbfgs
const std::vector<std::string>& optimizerImplNames(); // auto for-loop foreach fused
const std::vector<std::string>& deviceNames();        // cpu cuda
const char* deviceName(DeviceKind d);

// Sizes parse in one place, core/Units (parseByteSize).
using memviz::parseByteSize;

} // namespace memviz::costmodel
