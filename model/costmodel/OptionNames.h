#pragma once
// The words the command line and the what-if panel use for the cost model's knobs, parsed
// and printed in one place. Parsers throw std::invalid_argument with a message that lists the
// accepted words.
#include <cstdint>
#include <string>

#include "costmodel/CostModel.h"

namespace memviz::costmodel {

DType parseDType(const std::string& word);                // fp32 fp16 bf16 fp64 int8 (also float32, ...)
OptimizerKind parseOptimizer(const std::string& word);    // sgd momentum adam adamw adagrad rmsprop lbfgs
OptimizerImpl parseOptimizerImpl(const std::string& word); // auto for-loop foreach fused
Checkpointing parseCheckpoint(const std::string& word);   // none sqrt K
DeviceKind parseDevice(const std::string& word);          // cpu cuda
std::string checkpointName(const Checkpointing& c);       // "none", "sqrt", "4"
const char* deviceName(DeviceKind d);

// "1073741824", "16GiB", "16G" (binary), "80GB" (decimal), "512MiB", "1.5TiB".
std::int64_t parseByteSize(const std::string& text);

} // namespace memviz::costmodel
