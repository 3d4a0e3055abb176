// SPDX-License-Identifier: MIT
#pragma once
// The bytes of a quantized checkpoint's weights, from its config's `quantization_config`:
// bitsandbytes 8-bit (int8 + fp32 row scales) and 4-bit (packed NF4/FP4 + per-64 absmax, double
// quantization), GPTQ (packed int32 qweight, qzeros, fp16 scales per group, g_idx) and AWQ (no
// g_idx), FP8 with block scales (DeepSeek-V3's weight_scale_inv), compressed-tensors
// (pack-quantized ints, float-quantized fp8). The blocks' linear layers are quantized; the
// embeddings, norms, routers and the head stay in the checkpoint's 16-bit dtype.
// docs/costmodel.md ("Quantized checkpoints").
#include <cstdint>
#include <string>

namespace memviz::costmodel {

struct HfModel;

struct HfQuantization {
    std::string method;          // "gptq", "awq", "bitsandbytes", "fp8", "compressed-tensors" ("" when none)
    int bits = 16;
    std::int64_t groupSize = 0;  // 0: per output channel (one group over the whole input)
    bool doubleQuant = false;    // bitsandbytes 4-bit: bnb_4bit_use_double_quant
    std::string format;          // bitsandbytes 4-bit: nf4 / fp4; compressed-tensors: pack-quantized / float-quantized
    std::int64_t blockOut = 0, blockIn = 0; // fp8: weight_block_size
};

// The checkpoint's weight bytes under its quantization (0 when it has none or the model's
// stack is not one whose linear layers are enumerated: encoders, T5, vision).
std::int64_t quantizedWeightBytes(const HfModel& m);
// "gptq 4-bit, group 128" for messages.
std::string quantizationText(const HfQuantization& q);

} // namespace memviz::costmodel
