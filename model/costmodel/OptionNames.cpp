// SPDX-License-Identifier: MIT
#include "costmodel/OptionNames.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace memviz::costmodel {

namespace {
std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

constexpr DType kDTypeChoices[] = {DType::F32, DType::BF16, DType::F16, DType::F64, DType::I8};
constexpr OptimizerKind kOptimizerChoices[] = {OptimizerKind::Sgd,   OptimizerKind::Momentum, OptimizerKind::Adam,
                                               OptimizerKind::AdamW, OptimizerKind::Adagrad,  OptimizerKind::RMSprop,
                                               OptimizerKind::Lbfgs, OptimizerKind::Adam8bit, OptimizerKind::Adafactor};
constexpr OptimizerImpl kOptimizerImplChoices[] = {OptimizerImpl::Auto, OptimizerImpl::ForLoop, OptimizerImpl::Foreach,
                                                   OptimizerImpl::Fused};
constexpr TorchVersion kTorchVersionChoices[] = {TorchVersion::V2, TorchVersion::V1_13};
constexpr DeviceKind kDeviceChoices[] = {DeviceKind::Cpu, DeviceKind::Cuda};
constexpr AttentionKind kAttentionChoices[] = {AttentionKind::Eager, AttentionKind::Flash};
constexpr WeightFormat kWeightChoices[] = {WeightFormat::Full, WeightFormat::Int8, WeightFormat::Nf4};
constexpr LoraTargets kLoraTargetChoices[] = {LoraTargets::Attention, LoraTargets::Mlp, LoraTargets::All};

// The canonical word of each value, in the order given.
template <typename T, std::size_t N>
std::vector<std::string> wordsOf(const T (&values)[N], const char* (*word)(T)) {
    std::vector<std::string> out;
    for (const T& v : values) out.emplace_back(word(v));
    return out;
}
} // namespace

DType parseDType(const std::string& word) {
    const std::string w = lower(word);
    if (w == "fp32" || w == "float32" || w == "float") return DType::F32;
    if (w == "fp16" || w == "float16" || w == "half") return DType::F16;
    if (w == "bf16" || w == "bfloat16") return DType::BF16;
    if (w == "fp64" || w == "float64" || w == "double") return DType::F64;
    if (w == "int8" || w == "qint8") return DType::I8;
    throw std::invalid_argument("unknown dtype \"" + word + "\" (use fp32, fp16, bf16, fp64 or int8)");
}

OptimizerKind parseOptimizer(const std::string& word) {
    const std::string w = lower(word);
    for (OptimizerKind k : kOptimizerChoices)
        if (w == optimizerName(k)) return k;
    throw std::invalid_argument("unknown optimizer \"" + word + "\" (use sgd, momentum, adam, adamw, adagrad, rmsprop, lbfgs, adam8bit or adafactor)");
}

OptimizerImpl parseOptimizerImpl(const std::string& word) {
    const std::string w = lower(word);
    for (OptimizerImpl i : kOptimizerImplChoices)
        if (w == optimizerImplName(i)) return i;
    throw std::invalid_argument("unknown optimizer implementation \"" + word + "\" (use auto, for-loop, foreach or fused)");
}

TorchVersion parseTorchVersion(const std::string& word) {
    const std::string w = lower(word);
    if (w == "1.13" || w == "1.13.0" || w == "1.13.1") return TorchVersion::V1_13;
    // "2", "2.x", or any 2.N / 2.N.M release: they share the habits the model tells apart.
    if (w == "2" || w == "2.x" || (w.size() > 2 && w.compare(0, 2, "2.") == 0 &&
                                  w.find_first_not_of("0123456789.", 2) == std::string::npos))
        return TorchVersion::V2;
    throw std::invalid_argument("unknown PyTorch version \"" + word + "\" (use 2.x or 1.13)");
}

Checkpointing parseCheckpoint(const std::string& word) {
    const std::string w = lower(word);
    if (w == "none" || w == "0") return {};
    if (w == "sqrt") return {CheckpointMode::Sqrt, 0};
    if (w == "per-layer" || w == "layer" || w == "full") return {CheckpointMode::PerLayer, 0};
    if (w == "selective") return {CheckpointMode::Selective, 0};
    std::size_t used = 0;
    int k = 0;
    try {
        k = std::stoi(w, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != w.size() || k < 1)
        throw std::invalid_argument("--checkpoint needs none, sqrt, a number of segments, per-layer or selective, got \"" + word + "\"");
    if (k == 1) return {};
    return {CheckpointMode::Segments, k};
}

DeviceKind parseDevice(const std::string& word) {
    const std::string w = lower(word);
    if (w == "cpu") return DeviceKind::Cpu;
    if (w == "cuda" || w == "gpu") return DeviceKind::Cuda;
    throw std::invalid_argument("unknown device \"" + word + "\" (use cpu or cuda)");
}

std::string checkpointName(const Checkpointing& c) {
    switch (c.mode) {
    case CheckpointMode::None: return "none";
    case CheckpointMode::Sqrt: return "sqrt";
    case CheckpointMode::Segments: return std::to_string(c.segments);
    case CheckpointMode::PerLayer: return "per-layer";
    case CheckpointMode::Selective: return "selective";
    }
    return "none";
}

AttentionKind parseAttention(const std::string& word) {
    const std::string w = lower(word);
    if (w == "eager") return AttentionKind::Eager;
    if (w == "flash" || w == "sdpa" || w == "memory-efficient" || w == "mem-efficient") return AttentionKind::Flash;
    throw std::invalid_argument("--attention needs eager or flash, got \"" + word + "\"");
}

WeightFormat parseWeightFormat(const std::string& word) {
    const std::string w = lower(word);
    if (w == "fp" || w == "full" || w == "none") return WeightFormat::Full;
    if (w == "int8" || w == "8bit") return WeightFormat::Int8;
    if (w == "nf4" || w == "4bit") return WeightFormat::Nf4;
    throw std::invalid_argument("--weights needs fp, int8 or nf4, got \"" + word + "\"");
}

LoraTargets parseLoraTargets(const std::string& word) {
    const std::string w = lower(word);
    if (w == "attn" || w == "attention") return LoraTargets::Attention;
    if (w == "mlp") return LoraTargets::Mlp;
    if (w == "all" || w == "all-linear") return LoraTargets::All;
    throw std::invalid_argument("--lora-targets needs attn, mlp or all, got \"" + word + "\"");
}

const char* attentionName(AttentionKind a) { return a == AttentionKind::Flash ? "flash" : "eager"; }

const char* weightFormatName(WeightFormat w) {
    switch (w) {
    case WeightFormat::Full: return "fp";
    case WeightFormat::Int8: return "int8";
    case WeightFormat::Nf4: return "nf4";
    }
    return "fp";
}

const char* loraTargetsName(LoraTargets t) {
    switch (t) {
    case LoraTargets::Attention: return "attn";
    case LoraTargets::Mlp: return "mlp";
    case LoraTargets::All: return "all";
    }
    return "attn";
}

const char* deviceName(DeviceKind d) { return d == DeviceKind::Cuda ? "cuda" : "cpu"; }

const std::vector<std::string>& dtypeNames() {
    static const std::vector<std::string> names = wordsOf(kDTypeChoices, dtypeName);
    return names;
}

const std::vector<std::string>& optimizerNames() {
    static const std::vector<std::string> names = wordsOf(kOptimizerChoices, optimizerName);
    return names;
}

const std::vector<std::string>& optimizerImplNames() {
    static const std::vector<std::string> names = wordsOf(kOptimizerImplChoices, optimizerImplName);
    return names;
}

const std::vector<std::string>& torchVersionNames() {
    static const std::vector<std::string> names = wordsOf(kTorchVersionChoices, torchVersionName);
    return names;
}

const std::vector<std::string>& attentionNames() {
    static const std::vector<std::string> names = wordsOf(kAttentionChoices, attentionName);
    return names;
}

const std::vector<std::string>& weightFormatNames() {
    static const std::vector<std::string> names = wordsOf(kWeightChoices, weightFormatName);
    return names;
}

const std::vector<std::string>& loraTargetsNames() {
    static const std::vector<std::string> names = wordsOf(kLoraTargetChoices, loraTargetsName);
    return names;
}

const std::vector<std::string>& deviceNames() {
    static const std::vector<std::string> names = wordsOf(kDeviceChoices, deviceName);
    return names;
}

} // namespace memviz::costmodel
