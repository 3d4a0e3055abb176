// SPDX-License-Identifier: MIT
#include "costmodel/Sharding.h"

#include <stdexcept>

namespace memviz::costmodel {

const char* shardName(ShardStrategy s) {
    switch (s) {
    case ShardStrategy::None: return "none";
    case ShardStrategy::Ddp: return "ddp";
    case ShardStrategy::Zero1: return "zero1";
    case ShardStrategy::Zero2: return "zero2";
    case ShardStrategy::Zero3: return "zero3";
    case ShardStrategy::Fsdp: return "fsdp";
    }
    return "?";
}

const std::vector<std::string>& shardNames() {
    static const std::vector<std::string> names = {"ddp", "zero1", "zero2", "zero3", "fsdp"};
    return names;
}

ShardStrategy parseShard(const std::string& word) {
    for (ShardStrategy s : {ShardStrategy::None, ShardStrategy::Ddp, ShardStrategy::Zero1, ShardStrategy::Zero2,
                            ShardStrategy::Zero3, ShardStrategy::Fsdp})
        if (word == shardName(s)) return s;
    throw std::invalid_argument("unknown sharding \"" + word + "\" (expected one of none, ddp, zero1, zero2, zero3, fsdp)");
}

ShardFractions shardFractions(ShardStrategy s, int devices) {
    if (devices < 1) throw std::invalid_argument("the number of devices must be at least 1");
    const double n = 1.0 / devices;
    ShardFractions f;
    switch (s) {
    case ShardStrategy::None: break;
    case ShardStrategy::Ddp: f.gradientBuckets = true; break;
    case ShardStrategy::Zero1: f.optimizer = n; break;
    case ShardStrategy::Zero2: f.optimizer = f.gradients = n; break;
    case ShardStrategy::Zero3:
    case ShardStrategy::Fsdp:
        f.optimizer = f.gradients = f.parameters = n;
        f.gathersLayers = true;
        break;
    }
    return f;
}

std::int64_t zeroPaperModelStateBytes(std::int64_t psi, int k, ShardStrategy s, int devices) {
    const ShardFractions f = shardFractions(s, devices);
    const auto part = [](std::int64_t bytes, double fraction) {
        return fraction == 1.0 ? bytes : static_cast<std::int64_t>(static_cast<double>(bytes) * fraction);
    };
    return part(2 * psi, f.parameters) + part(2 * psi, f.gradients) + part(static_cast<std::int64_t>(k) * psi, f.optimizer);
}

// The formulas of DeepSpeed's estimate_zero2_model_states_mem_needs and
// estimate_zero3_model_states_mem_needs (gpu_mem, one node of `gpus` GPUs).
std::int64_t deepSpeedZero2GpuBytes(std::int64_t p, int gpus, bool cpuOffload) {
    if (cpuOffload) return 2 * p;
    return 4 * p + static_cast<std::int64_t>(16.0 * static_cast<double>(p) / gpus);
}

std::int64_t deepSpeedZero3GpuBytes(std::int64_t p, std::int64_t largest, int gpus, bool cpuOffload, bool cpuOffloadParams) {
    const std::int64_t largestLayerMemory = 4 * largest;
    if (cpuOffload) {
        if (cpuOffloadParams) return largestLayerMemory;
        return largestLayerMemory + static_cast<std::int64_t>(2.0 * static_cast<double>(p) / gpus);
    }
    return largestLayerMemory + static_cast<std::int64_t>(18.0 * static_cast<double>(p) / gpus);
}

} // namespace memviz::costmodel
