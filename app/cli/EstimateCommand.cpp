// SPDX-License-Identifier: MIT
// memviz estimate: the cost model on the command line (see docs/costmodel.md).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <stdexcept>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/CostModelOptions.h"
#include "cli/EstimatePlan.h"
#include "cli/Output.h"
#include "words/Units.h"
#include "store/Database.h"
#include "costmodel/CostModel.h"
#include "costmodel/EstimateTrace.h"
#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"
#include "words/UnitTexts.h"

namespace memviz::cli {

namespace {

using namespace memviz::costmodel;

const char* const kUsage =
    "memviz estimate (--model PRESET | --spec FILE.json) --batch N [--dtype fp32|fp16|bf16|fp64|int8] [--amp]\n"
    "       [--optimizer sgd|momentum|adam|adamw|adagrad|rmsprop|lbfgs|adam8bit|adafactor] [--lbfgs-history H]\n"
    "       [--optimizer-impl auto|for-loop|foreach|fused] [--torch 2.x|1.13] [--checkpoint none|sqrt|K|per-layer|selective] [--inference]\n"
    "       [--seq N] [--lora-rank R] [--lora-targets attn|mlp|all] [--frozen-layers N] [--attention eager|flash]\n"
    "       [--weights fp|int8|nf4] [--kv-cache CONTEXT] [--kv-block TOKENS]\n"
    "       [--device cpu|cuda] [--cuda-context BYTES] [--step N] [--fit BYTES] [--savings] [--timeline]\n"
    "       [--save STORE.memviz] [--json] | --print-spec | --list-models\n"
    "memviz estimate (--config config.json [--safetensors FILE|INDEX] | --model PRESET | --spec FILE.json) [--seq N]\n"
    "       [--batch MICRO] [--grad-accum K] [--device GPU] [--gpus N --shard ddp|zero1|zero2|zero3|fsdp]\n"
    "       [--tp N] [--kv-cache-dtype fp8] [--offload-layers N] [--with-mtp]\n"
    "       [--gpu-catalog FILE] [knobs as above] [--fit BYTES] [--json] | --list-devices";

QJsonValue num(std::int64_t v) { return QJsonValue(static_cast<qint64>(v)); }
using words::bytes;

template <typename F>
auto orUsage(F&& f) {
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
}

QString listModels() {
    std::vector<QStringList> rows;
    for (const PresetInfo& info : presets()) {
        const ResolvedModel m = resolveModel(presetSpec(info.id));
        rows.push_back({QString::fromStdString(info.id), QString::fromStdString(info.title), QString::number(m.parameterCount()),
                        QString::fromStdString(info.description)});
    }
    return formatTable({"model", "name", "parameters", "description"}, rows);
}

QJsonObject estimateJson(const ModelSpec& spec, const EstimateOptions& o, const Estimate& e) {
    QJsonObject j{
        {"model", QString::fromStdString(spec.name)},
        {"parameter_count", num(e.parameterCount)},
        {"parameter_bytes", num(e.parameterBytes)},
        {"adapter_parameter_count", num(e.adapterParameterCount)},
        {"trainable_parameter_count", num(e.trainableParameterCount)},
        {"batch", num(o.batch)},
        {"dtype", dtypeName(o.dtype)},
        {"amp", o.amp},
        {"torch", torchVersionName(o.torch)},
        {"mode", o.training ? "train" : "inference"},
        {"device", deviceName(o.device)},
        {"peak_bytes", num(e.peakBytes)},
        {"peak_phase", phaseName(e.peakPhase)},
        {"peak_op", QString::fromStdString(e.peakOp)},
        {"true_peak_bytes", num(e.truePeakBytes)},
        {"accelerate_estimate_bytes", num(accelerateEstimate(e.parameterCount, o.amp ? DType::F32 : o.dtype, o.training))},
        {"attention", attentionName(o.attention)},
        {"weights", weightFormatName(o.weights)}};
    if (o.seqLen > 0) j.insert("seq", num(o.seqLen));
    if (o.lora.rank > 0) {
        j.insert("lora_rank", o.lora.rank);
        j.insert("lora_targets", loraTargetsName(o.lora.targets));
    }
    if (o.frozenLayers > 0) j.insert("frozen_layers", o.frozenLayers);
    if (o.kvCacheTokens > 0) {
        j.insert("kv_cache_tokens", num(o.kvCacheTokens));
        j.insert("kv_block_tokens", o.kvBlockTokens);
    }
    if (o.training) {
        j.insert("optimizer", optimizerName(o.optimizer));
        if (o.optimizer == OptimizerKind::Lbfgs) j.insert("lbfgs_history", o.lbfgsHistory);
        j.insert("checkpoint", QString::fromStdString(checkpointName(o.checkpoint)));
        j.insert("checkpoint_segments", e.checkpointSegments);
        j.insert("step", e.step);
    }
    for (int c = 0; c < kCategoryCount; ++c)
        j.insert(categoryKey(static_cast<Category>(c)), num(e.breakdown[static_cast<std::size_t>(c)]));
    QJsonArray phases;
    for (const PhaseMark& m : e.marks)
        phases.append(QJsonObject{{"name", QString::fromStdString(m.name)}, {"bytes", num(m.bytes)}});
    j.insert("phases", phases);
    QJsonArray warnings;
    for (const std::string& w : e.warnings) warnings.append(QString::fromStdString(w));
    j.insert("warnings", warnings);
    return j;
}

QString estimateText(const ModelSpec& spec, const EstimateOptions& o, const Estimate& e) {
    QString out = QStringLiteral("%1: %2 parameters (%3), batch %4, %5%6, %7")
                      .arg(QString::fromStdString(spec.name))
                      .arg(e.parameterCount)
                      .arg(bytes(e.parameterBytes))
                      .arg(o.batch)
                      .arg(dtypeName(o.dtype), o.amp ? " + amp" : "", o.training ? "training" : "inference");
    if (o.seqLen > 0) out += QStringLiteral(", %1 tokens").arg(o.seqLen);
    if (o.lora.rank > 0) out += QStringLiteral(", LoRA r=%1 on %2").arg(o.lora.rank).arg(loraTargetsName(o.lora.targets));
    if (o.frozenLayers > 0) out += QStringLiteral(", first %1 layers frozen").arg(o.frozenLayers);
    if (o.weights != WeightFormat::Full) out += QStringLiteral(", %1 weights").arg(weightFormatName(o.weights));
    if (o.attention == AttentionKind::Flash) out += QStringLiteral(", flash attention");
    if (o.kvCacheTokens > 0) out += QStringLiteral(", KV cache for %1 tokens").arg(o.kvCacheTokens);
    if (o.training) {
        out += QStringLiteral(", %1").arg(optimizerName(o.optimizer));
        if (e.checkpointSegments) out += QStringLiteral(", checkpoint_sequential K=%1").arg(e.checkpointSegments);
        if (o.checkpoint.mode == CheckpointMode::PerLayer) out += QStringLiteral(", every block checkpointed");
        if (o.checkpoint.mode == CheckpointMode::Selective) out += QStringLiteral(", attention recomputed");
        out += QStringLiteral(", step %1").arg(e.step);
    }
    out += QStringLiteral(", %1\n\n").arg(deviceName(o.device));
    std::vector<QStringList> rows;
    for (int c = 0; c < kCategoryCount; ++c) {
        const std::int64_t b = e.breakdown[static_cast<std::size_t>(c)];
        rows.push_back({categoryName(static_cast<Category>(c)), QString::number(b), bytes(b)});
    }
    rows.push_back({"peak", QString::number(e.peakBytes), bytes(e.peakBytes)});
    out += formatTable({"at the peak", "bytes", ""}, rows);
    out += QStringLiteral("\npeak in the %1 phase, after %2\n").arg(phaseName(e.peakPhase), QString::fromStdString(e.peakOp));
    if (e.truePeakBytes > e.peakBytes)
        out += QStringLiteral("with scratch inside ops (not visible between ops): %1\n").arg(bytes(e.truePeakBytes));
    for (const PhaseMark& m : e.marks) out += QStringLiteral("  %1: %2\n").arg(QString::fromStdString(m.name), bytes(m.bytes));
    for (const std::string& w : e.warnings) out += "warning: " + QString::fromStdString(w) + "\n";
    return out;
}

QString timelineText(const Estimate& e) {
    QString out = "sample\tphase\top\tbytes\n";
    for (std::size_t i = 0; i < e.timeline.size(); ++i)
        out += QStringLiteral("%1\t%2\t%3\t%4\n")
                   .arg(i)
                   .arg(phaseName(e.timeline[i].phase), e.timeline[i].op)
                   .arg(e.timeline[i].bytes);
    return out;
}

} // namespace

int estimateCommand(const QStringList& given) {
    QString gpu; // --device NAME of the GPU catalog (the knobs see --device cuda)
    const QStringList args = splitGpuDevice(given, gpu);
    QCommandLineParser p;
    for (const char* flag : {"json", "amp", "inference", "savings", "timeline", "print-spec", "list-models", "list-devices", "with-mtp"})
        p.addOption({flag, flag});
    for (const char* valued : {"model", "spec", "batch", "dtype", "optimizer", "optimizer-impl", "torch", "lbfgs-history", "checkpoint",
                               "device", "cuda-context", "step", "fit", "save", "seq", "lora-rank", "lora-targets",
                               "frozen-layers", "attention", "weights", "kv-cache", "kv-block", "config", "safetensors",
                               "gpus", "shard", "grad-accum", "gpu-catalog", "tp", "kv-cache-dtype", "offload-layers"})
        p.addOption({valued, valued, "VALUE"});
    parseOrThrow(p, args, 0, kUsage);
    if (p.isSet("list-models")) {
        printOut(listModels());
        return 0;
    }
    if (p.isSet("list-devices")) return listDevicesCommand(p);
    if (wantsPlan(p, gpu)) {
        for (const char* other : {"savings", "timeline", "save", "print-spec"})
            if (p.isSet(other))
                throw UsageError{QStringLiteral("--%1 is not available with --config, --seq, --gpus, --shard, --grad-accum or a GPU").arg(other)};
        return planCommand(p, gpu);
    }
    if (p.isSet("model") == p.isSet("spec"))
        throw UsageError{QStringLiteral("give exactly one of --model and --spec\nusage: %1").arg(kUsage)};
    const ModelSpec spec = p.isSet("model") ? presetSpec(p.value("model").toStdString())
                                            : readModelSpecFile(p.value("spec").toStdString());
    if (p.isSet("print-spec")) {
        printOut(QString::fromStdString(modelSpecToJson(spec)));
        return 0;
    }
    if (!p.isSet("batch") && !p.isSet("fit")) throw UsageError{QStringLiteral("--batch N is required\nusage: %1").arg(kUsage)};
    EstimateOptions o = estimateOptionsFrom(p);
    o.timeline = p.isSet("timeline") || p.isSet("save"); // a saved estimate keeps its samples
    const ResolvedModel model = resolveModel(spec);
    std::int64_t limit = -1, largest = -1;
    if (p.isSet("fit")) {
        limit = orUsage([&] { return parseByteSize(p.value("fit").toStdString()); });
        largest = orUsage([&] { return largestBatchThatFits(model, o, limit); });
        if (!p.isSet("batch")) o.batch = std::max<std::int64_t>(1, largest);
    }
    const Estimate e = orUsage([&] { return estimate(model, o); });
    std::vector<KnobSaving> savings;
    if (p.isSet("savings")) savings = knobSavings(model, o);
    std::int64_t savedId = 0;
    if (p.isSet("save")) {
        Database db(p.value("save").toStdString());
        savedId = saveEstimateTrace(db, estimateDescription(spec.name, o, e), o, e);
    }
    const QString savedText = savedId ? QStringLiteral("\nsaved as trace %1 of %2 (compare two with memviz diff %2#A %2#B)\n")
                                            .arg(savedId)
                                            .arg(p.value("save"))
                                      : QString();
    if (p.isSet("json")) {
        QJsonObject j = estimateJson(spec, o, e);
        if (limit >= 0) {
            j.insert("fit_limit_bytes", num(limit));
            j.insert("largest_batch", num(largest));
            j.insert("fits", e.peakBytes <= limit);
        }
        if (p.isSet("savings")) {
            QJsonArray a;
            for (const KnobSaving& s : savings)
                a.append(QJsonObject{{"knob", QString::fromStdString(s.knob)},
                                     {"description", QString::fromStdString(s.description)},
                                     {"peak_bytes", num(s.peakBytes)},
                                     {"saved_bytes", num(s.savedBytes)}});
            j.insert("savings", a);
        }
        if (savedId) j.insert("saved", QJsonObject{{"store", p.value("save")}, {"trace_id", num(savedId)}});
        if (p.isSet("timeline")) {
            QJsonArray t;
            for (const TimelineSample& s : e.timeline)
                t.append(QJsonObject{{"op", s.op}, {"phase", phaseName(s.phase)}, {"bytes", num(s.bytes)}});
            j.insert("timeline", t);
        }
        printOut(QString::fromUtf8(QJsonDocument(j).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (p.isSet("timeline")) {
        printOut(timelineText(e) + savedText);
        return 0;
    }
    QString out = estimateText(spec, o, e);
    if (limit >= 0) {
        out += QStringLiteral("\nlimit %1: ").arg(bytes(limit));
        out += e.peakBytes <= limit ? QStringLiteral("fits (%1 to spare)").arg(bytes(limit - e.peakBytes))
                                    : QStringLiteral("does not fit by %1").arg(bytes(e.peakBytes - limit));
        out += largest > 0 ? QStringLiteral("; largest batch that fits: %1\n").arg(largest)
                           : QStringLiteral("; not even batch 1 fits\n");
    }
    if (!savings.empty()) {
        std::vector<QStringList> rows;
        for (const KnobSaving& s : savings)
            rows.push_back(
                {QString::fromStdString(s.knob), QString::fromStdString(s.description), bytes(s.peakBytes), bytes(s.savedBytes)});
        out += "\n" + formatTable({"knob", "change", "peak", "saves"}, rows);
    }
    printOut(out + savedText);
    return 0;
}

} // namespace memviz::cli
