// SPDX-License-Identifier: MIT
#pragma once
// Data parallelism and sharding over N devices: what each device keeps of the parameters,
// gradients and optimizer state (DDP, ZeRO-1/2/3, FSDP full-shard), following the ZeRO paper
// (Rajbhandari et al. 2020, arXiv:1910.02054, section 5: Pos, Pos+g, Pos+g+p), plus ZeRO-3 /
// FSDP's gathered unit and DDP's gradient buckets. And, as peers to compare with, DeepSpeed's
// published estimators (deepspeed/runtime/zero/stage_1_and_2.py and stage3.py,
// estimate_zero2/3_model_states_mem_needs), which count model states only. docs/costmodel.md.
#include <cstdint>
#include <string>
#include <vector>

namespace memviz::costmodel {

enum class ShardStrategy { None, Ddp, Zero1, Zero2, Zero3, Fsdp };

const char* shardName(ShardStrategy s);                   // "none", "ddp", "zero1", ..., "fsdp"
ShardStrategy parseShard(const std::string& word);        // throws std::invalid_argument
const std::vector<std::string>& shardNames();             // ddp zero1 zero2 zero3 fsdp

// The share of each kind of model state one device keeps (1 or 1/N).
struct ShardFractions {
    double parameters = 1, gradients = 1, optimizer = 1;
    bool gathersLayers = false; // ZeRO-3 / FSDP: a unit's full parameters are gathered to run it
    bool gradientBuckets = false; // DDP: a flat copy of the trainable gradients (measured: tst_costmodel_ddp_validation)
};
ShardFractions shardFractions(ShardStrategy s, int devices);

// Model states per device in the ZeRO paper's notation: Ψ parameters, 2 bytes each of fp16
// parameters and gradients, K bytes of optimizer state per parameter (K = 12 for mixed-precision
// Adam: fp32 master weights, momentum, variance). Baseline (2+2+K)Ψ, Pos 4Ψ + KΨ/N,
// Pos+g 2Ψ + (2+K)Ψ/N, Pos+g+p (2+2+K)Ψ/N.
std::int64_t zeroPaperModelStateBytes(std::int64_t psi, int k, ShardStrategy s, int devices);

// DeepSpeed's estimators for GPU memory per device (model states only), as the library computes
// them: ZeRO-2 without offload 4P + 16P/N, with the optimizer offloaded 2P; ZeRO-3 without
// offload 4L + 18P/N, optimizer offloaded 4L + 2P/N, parameters offloaded too 4L.
std::int64_t deepSpeedZero2GpuBytes(std::int64_t totalParams, int gpus, bool cpuOffload);
std::int64_t deepSpeedZero3GpuBytes(std::int64_t totalParams, std::int64_t largestLayerParams, int gpus, bool cpuOffload,
                                    bool cpuOffloadParams);

} // namespace memviz::costmodel
