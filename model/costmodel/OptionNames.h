// SPDX-License-Identifier: MIT
#pragma once
// The words the command line and the what-if panel use for the cost model's knobs, parsed
// and printed in one place. Parsers throw std::invalid_argument with a message that lists the
// accepted words.
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"
#include "words/Units.h" // parseByteSize: sizes are read in one place

namespace memviz::costmodel {

DType parseDType(const std::string& word);                 // fp32 fp16 bf16 fp64 int8 (also float32, ...)
OptimizerKind parseOptimizer(const std::string& word);     // sgd momentum adam adamw adagrad rmsprop lbfgs
OptimizerImpl parseOptimizerImpl(const std::string& word); // auto for-loop foreach fused
TorchVersion parseTorchVersion(const std::string& word);   // 1.13, 2.x (also 2, 2.4, 2.13, ...)
Checkpointing parseCheckpoint(const std::string& word);    // none sqrt K per-layer selective
AttentionKind parseAttention(const std::string& word);     // eager flash (also sdpa, memory-efficient)
WeightFormat parseWeightFormat(const std::string& word);   // fp int8 nf4
LoraTargets parseLoraTargets(const std::string& word);     // attn mlp all
const char* attentionName(AttentionKind a);                // "eager", "flash"
const char* weightFormatName(WeightFormat w);              // "fp", "int8", "nf4"
const char* loraTargetsName(LoraTargets t);                // "attn", "mlp", "all"
DeviceKind parseDevice(const std::string& word);           // cpu cuda
std::string checkpointName(const Checkpointing& c);        // "none", "sqrt", "4", "per-layer", "selective"

// The canonical word of every value, in the order the what-if panel lists them: the one list
// the command line's parsers accept and the panel's choices come from.
const std::vector<std::string>& dtypeNames();         // fp32 bf16 fp16 fp64 int8
const std::vector<std::string>& optimizerNames();     // sgd momentum adam adamw adagrad rmsprop lbfgs adam8bit adafactor
const std::vector<std::string>& attentionNames();     // eager flash
const std::vector<std::string>& weightFormatNames();  // fp int8 nf4
const std::vector<std::string>& loraTargetsNames();   // attn mlp all
const std::vector<std::string>& optimizerImplNames(); // auto for-loop foreach fused
const std::vector<std::string>& torchVersionNames();  // 2.x 1.13
const std::vector<std::string>& deviceNames();        // cpu cuda
const char* deviceName(DeviceKind d);

} // namespace memviz::costmodel
