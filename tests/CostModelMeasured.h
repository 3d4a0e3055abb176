// SPDX-License-Identifier: MIT
#pragma once
// The measurement protocol's configurations (tests/data/costmodel/measured*.json, written by
// bench/costmodel/measure.py and measure_ddp.py) read as the cost model's options, the one way
// every validation suite reads them, and the median the aims are stated in.
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <vector>

#include "costmodel/CostModel.h"
#include "costmodel/OptionNames.h"
#include "costmodel/SpecParser.h"

namespace memviz::test {

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One measured configuration beside its estimate (and accelerate's rule, where a suite has it).
struct MeasuredRow {
    QString id;
    double measured = 0, predicted = 0, accelerate = 0;
    QString measuredPhase, predictedPhase;
    double error() const { return (predicted - measured) / measured * 100.0; }
    double accelerateError() const { return (accelerate - measured) / measured * 100.0; }
};

// The spec the configuration names (bench/costmodel/specs/).
inline costmodel::ModelSpec measuredSpec(const QJsonObject& c) {
    return costmodel::readModelSpecFile(
        (QStringLiteral(MEMVIZ_SOURCE_DIR) + "/bench/costmodel/specs/" + c["spec"].toString()).toStdString());
}

// The measured file of the release the suite runs for: MEMVIZ_MEASURED_RELEASE unset or "1.13"
// reads tests/data/costmodel/<stem>.json (PyTorch 1.13), "2.13" reads <stem>_2.13.json (the same
// grid under the pinned PyTorch 2.13, issue 54). ctest runs each suite once per release.
inline QString measuredFile(const QString& stem) {
    const QString release = qEnvironmentVariable("MEMVIZ_MEASURED_RELEASE", QStringLiteral("1.13"));
    return QStringLiteral(MEMVIZ_TEST_DATA) + "/costmodel/" + stem + (release == "1.13" ? QString() : "_" + release) +
           ".json";
}

// The PyTorch release a measured file names in its "machine" ("1.13.0a0", "2.13.0+cpu").
inline costmodel::TorchVersion measuredTorch(const QJsonObject& file) {
    const QStringList parts = file["machine"].toObject()["torch"].toString().split('.');
    return costmodel::parseTorchVersion((parts.value(0) + "." + parts.value(1)).toStdString());
}

// The options the configuration was measured with, on the CPU, at the protocol's second step.
// The files written before issue 54 are all PyTorch 1.13's.
inline costmodel::EstimateOptions measuredOptions(const QJsonObject& c,
                                                  costmodel::TorchVersion torch = costmodel::TorchVersion::V1_13) {
    using namespace costmodel;
    EstimateOptions o;
    o.torch = torch;
    o.batch = c["batch"].toInteger();
    o.dtype = parseDType(c["dtype"].toString().toStdString());
    o.device = DeviceKind::Cpu;
    o.timeline = false;
    o.training = c["mode"].toString() == "train";
    if (c.contains("seq")) o.seqLen = c["seq"].toInteger();
    if (c["attention"].toString() == "sdpa") o.attention = costmodel::AttentionKind::Flash;
    if (o.training) {
        o.optimizer = parseOptimizer(c["optimizer"].toString().toStdString());
        if (c.contains("optimizer_impl")) o.optimizerImpl = parseOptimizerImpl(c["optimizer_impl"].toString().toStdString());
        if (c.contains("lbfgs_history")) o.lbfgsHistory = c["lbfgs_history"].toInt();
        if (c["checkpoint"].isString()) o.checkpoint = parseCheckpoint(c["checkpoint"].toString().toStdString());
        else if (!c["checkpoint"].isNull() && c.contains("checkpoint"))
            o.checkpoint = {CheckpointMode::Segments, c["checkpoint"].toInt()};
        o.lora.rank = c["lora"].toInt();
        if (c.contains("lora_targets")) o.lora.targets = parseLoraTargets(c["lora_targets"].toString().toStdString());
        o.frozenLayers = c["frozen"].toInt();
        o.step = 2; // the protocol measures the second step
    } else if (c.contains("kv_cache")) {
        o.kvCacheTokens = c["kv_cache"].toInteger();
        o.kvBlockTokens = c["kv_block"].toInt(1);
    }
    return o;
}

} // namespace memviz::test
