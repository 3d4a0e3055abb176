// SPDX-License-Identifier: MIT
#include "cli/CostModelOptions.h"

#include <QStringList>
#include <stdexcept>

#include "cli/CliSupport.h"
#include "costmodel/OptionNames.h"

namespace memviz::cli {

namespace {

using namespace costmodel;

std::int64_t positive(const QCommandLineParser& p, const QString& name) {
    bool ok = false;
    const qint64 v = p.value(name).toLongLong(&ok);
    if (!ok || v < 1) throw UsageError{QStringLiteral("--%1 needs a positive number, got \"%2\"").arg(name, p.value(name))};
    return v;
}

std::int64_t nonNegative(const QCommandLineParser& p, const QString& name) {
    bool ok = false;
    const qint64 v = p.value(name).toLongLong(&ok);
    if (!ok || v < 0) throw UsageError{QStringLiteral("--%1 needs 0 or a positive number, got \"%2\"").arg(name, p.value(name))};
    return v;
}

int smallCount(const QCommandLineParser& p, const QString& name, std::int64_t v) {
    if (v > (1 << 30)) throw UsageError{QStringLiteral("--%1 is too large: \"%2\"").arg(name, p.value(name))};
    return static_cast<int>(v);
}

} // namespace

EstimateOptions estimateOptionsFrom(const QCommandLineParser& p, EstimateOptions o) {
    // Only options that were given are listed, so an option a command does not declare is
    // never asked about (QCommandLineParser warns for those).
    const QStringList given = p.optionNames();
    const auto has = [&given](const char* name) { return given.contains(QLatin1String(name)); };
    const auto word = [&p](const char* name) { return p.value(QLatin1String(name)).toStdString(); };
    try {
        if (has("batch")) o.batch = positive(p, "batch");
        if (has("dtype")) o.dtype = parseDType(word("dtype"));
        if (has("amp")) o.amp = true;
        if (has("optimizer")) o.optimizer = parseOptimizer(word("optimizer"));
        if (has("optimizer-impl")) o.optimizerImpl = parseOptimizerImpl(word("optimizer-impl"));
        if (has("torch")) o.torch = parseTorchVersion(word("torch"));
        if (has("lbfgs-history")) o.lbfgsHistory = static_cast<int>(positive(p, "lbfgs-history"));
        if (has("checkpoint")) o.checkpoint = parseCheckpoint(word("checkpoint"));
        if (has("inference")) o.training = false;
        if (has("device")) o.device = parseDevice(word("device"));
        if (has("cuda-context")) o.cudaContextBytes = parseByteSize(word("cuda-context"));
        if (has("step")) o.step = static_cast<int>(positive(p, "step"));
        if (has("seq")) o.seqLen = positive(p, "seq");
        if (has("lora-rank")) o.lora.rank = smallCount(p, "lora-rank", nonNegative(p, "lora-rank"));
        if (has("lora-targets")) o.lora.targets = parseLoraTargets(word("lora-targets"));
        if (has("frozen-layers")) o.frozenLayers = smallCount(p, "frozen-layers", nonNegative(p, "frozen-layers"));
        if (has("attention")) o.attention = parseAttention(word("attention"));
        if (has("weights")) o.weights = parseWeightFormat(word("weights"));
        if (has("kv-cache")) {
            o.kvCacheTokens = positive(p, "kv-cache");
            o.training = false; // a KV cache is an inference knob
        }
        if (has("kv-block")) o.kvBlockTokens = smallCount(p, "kv-block", positive(p, "kv-block"));
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    return o;
}

} // namespace memviz::cli
