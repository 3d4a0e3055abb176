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
        if (has("lbfgs-history")) o.lbfgsHistory = static_cast<int>(positive(p, "lbfgs-history"));
        if (has("checkpoint")) o.checkpoint = parseCheckpoint(word("checkpoint"));
        if (has("inference")) o.training = false;
        if (has("device")) o.device = parseDevice(word("device"));
        if (has("cuda-context")) o.cudaContextBytes = parseByteSize(word("cuda-context"));
        if (has("step")) o.step = static_cast<int>(positive(p, "step"));
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    return o;
}

} // namespace memviz::cli
