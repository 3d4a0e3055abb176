// SPDX-License-Identifier: MIT
#include "words/CostModelLabels.h"

#include <QCoreApplication>

namespace memviz {

using namespace costmodel;

namespace {

// The presets' descriptions, listed for lupdate (the texts live in model/costmodel/Presets.cpp).
[[maybe_unused]] const char* const kPresetDescriptions[] = {
    QT_TRANSLATE_NOOP("memviz::CostModelLabels",
                      "3x32x32 -> 2048 -> 2048 -> 512 -> 10 (bench/costmodel/specs/mlp.json), 11.5 M parameters"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "50x50x3, conv 32/64 3x3, 2x2 pools, FC 500, 10 classes"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "torchvision resnet18, 3x224x224, 1000 classes"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "torchvision resnet50 (v1.5), 3x224x224, 1000 classes"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "torchvision vgg16, 3x224x224, 1000 classes"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "torchvision vit_b_16, 3x224x224 (196 patches + class token), 1000 classes"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "BERT-base (uncased) for 2-class sequence classification, 512 tokens"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "GPT-2 (124 M, tied lm_head), 1024 tokens, next-token loss"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "GPT-2 medium (355 M, tied lm_head), 1024 tokens"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "Llama-2-7B (eager attention), 4096 tokens, next-token loss"),
    QT_TRANSLATE_NOOP("memviz::CostModelLabels", "CNN for 3x4096x4096 medical images (1000 of them = batch 1000)"),
};

} // namespace

QString categoryLabel(Category c) {
    switch (c) {
    case Category::Parameters: return QCoreApplication::translate("memviz::CostModelLabels", "parameters");
    case Category::Gradients: return QCoreApplication::translate("memviz::CostModelLabels", "gradients");
    case Category::OptimizerState: return QCoreApplication::translate("memviz::CostModelLabels", "optimizer state");
    case Category::Activations: return QCoreApplication::translate("memviz::CostModelLabels", "activations");
    case Category::Input: return QCoreApplication::translate("memviz::CostModelLabels", "input batch");
    case Category::Temporaries: return QCoreApplication::translate("memviz::CostModelLabels", "temporaries");
    case Category::KvCache: return QCoreApplication::translate("memviz::CostModelLabels", "KV cache");
    case Category::Overhead: return QCoreApplication::translate("memviz::CostModelLabels", "allocator overhead");
    }
    return QString::fromUtf8(categoryName(c));
}

QString phaseLabel(Phase p) {
    switch (p) {
    case Phase::Forward: return QCoreApplication::translate("memviz::CostModelLabels", "forward");
    case Phase::Backward: return QCoreApplication::translate("memviz::CostModelLabels", "backward");
    case Phase::Optimizer: return QCoreApplication::translate("memviz::CostModelLabels", "optimizer");
    }
    return QString::fromUtf8(phaseName(p));
}

QString optimizerLabel(OptimizerKind k) {
    switch (k) {
    case OptimizerKind::Sgd: return QCoreApplication::translate("memviz::CostModelLabels", "SGD");
    case OptimizerKind::Momentum: return QCoreApplication::translate("memviz::CostModelLabels", "SGD with momentum");
    case OptimizerKind::Adam: return QCoreApplication::translate("memviz::CostModelLabels", "Adam");
    case OptimizerKind::AdamW: return QCoreApplication::translate("memviz::CostModelLabels", "AdamW");
    case OptimizerKind::Adagrad: return QCoreApplication::translate("memviz::CostModelLabels", "Adagrad");
    case OptimizerKind::RMSprop: return QCoreApplication::translate("memviz::CostModelLabels", "RMSprop");
    case OptimizerKind::Lbfgs: return QCoreApplication::translate("memviz::CostModelLabels", "LBFGS");
    case OptimizerKind::Adam8bit: return QCoreApplication::translate("memviz::CostModelLabels", "8-bit Adam (bitsandbytes)");
    case OptimizerKind::Adafactor: return QCoreApplication::translate("memviz::CostModelLabels", "Adafactor");
    }
    return QString::fromUtf8(optimizerName(k));
}

QString dtypeLabel(DType d) {
    switch (d) {
    case DType::F32: return QStringLiteral("float32");
    case DType::F16: return QStringLiteral("float16");
    case DType::BF16: return QStringLiteral("bfloat16");
    case DType::F64: return QStringLiteral("float64");
    case DType::I8: return QStringLiteral("int8");
    case DType::I64: return QStringLiteral("int64");
    case DType::Bool: return QStringLiteral("bool");
    case DType::U8: return QStringLiteral("uint8");
    }
    return QString::fromUtf8(dtypeName(d));
}

QString knobLabel(const std::string& knob, const std::string& fallback) {
    if (knob == "batch/2") return QCoreApplication::translate("memviz::CostModelLabels", "halve the batch size");
    if (knob == "bf16") return QCoreApplication::translate("memviz::CostModelLabels", "parameters and activations in bf16");
    if (knob == "amp") return QCoreApplication::translate("memviz::CostModelLabels", "mixed precision (autocast)");
    if (knob == "sgd") return QCoreApplication::translate("memviz::CostModelLabels", "plain SGD instead (no optimizer state)");
    if (knob == "checkpoint sqrt")
        return QCoreApplication::translate("memviz::CostModelLabels", "checkpoint_sequential with K = sqrt(layers) segments");
    if (knob == "inference") return QCoreApplication::translate("memviz::CostModelLabels", "inference only (torch.no_grad)");
    return QString::fromStdString(fallback);
}

QString presetDescription(const std::string& description) {
    return QCoreApplication::translate("memviz::CostModelLabels", description.c_str());
}

} // namespace memviz
