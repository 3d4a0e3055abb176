// SPDX-License-Identifier: MIT
#include "cli/EstimatePlan.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "cli/CliSupport.h"
#include "cli/CostModelOptions.h"
#include "cli/Output.h"
#include "costmodel/FitPlan.h"
#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "costmodel/Safetensors.h"
#include "costmodel/SpecParser.h"
#include "words/UnitTexts.h"

namespace memviz::cli {

namespace {

using namespace memviz::costmodel;
using words::bytes;

QJsonValue num(std::int64_t v) { return QJsonValue(static_cast<qint64>(v)); }
QString qs(const std::string& s) { return QString::fromStdString(s); }

int positiveInt(const QCommandLineParser& p, const char* name, int most) {
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < 1 || v > most)
        throw UsageError{QStringLiteral("--%1 needs a whole number from 1 to %2, got \"%3\"").arg(name).arg(most).arg(p.value(name))};
    return v;
}

QJsonObject partsJson(const PlanBytes& b) {
    QJsonObject j;
    for (int i = 0; i < kPlanPartCount; ++i) j.insert(planPartKey(static_cast<PlanPart>(i)), num(b[static_cast<std::size_t>(i)]));
    return j;
}

QString optionsText(const PlanOptions& o) {
    const EstimateOptions& e = o.estimate;
    QString s = QStringLiteral("micro-batch %1").arg(e.batch);
    if (o.gradAccumulation > 1) s += QStringLiteral(" x %1 accumulation steps").arg(o.gradAccumulation);
    s += QStringLiteral(", %1%2, %3").arg(dtypeName(e.dtype), e.amp ? " + amp" : "", e.training ? "training" : "inference");
    if (e.training) {
        s += QStringLiteral(", %1").arg(optimizerName(e.optimizer));
        if (e.checkpoint.mode != CheckpointMode::None) s += QStringLiteral(", checkpoint %1").arg(qs(checkpointName(e.checkpoint)));
    }
    if (e.lora.rank > 0) s += QStringLiteral(", LoRA r=%1 on %2").arg(e.lora.rank).arg(loraTargetsName(e.lora.targets));
    if (e.weights != WeightFormat::Full) s += QStringLiteral(", %1 weights").arg(weightFormatName(e.weights));
    s += QStringLiteral(", %1 attention").arg(attentionName(e.attention));
    if (o.devices > 1 || o.shard != ShardStrategy::None) s += QStringLiteral(", %1 x %2").arg(o.devices).arg(shardName(o.shard));
    if (o.tensorParallel > 1) s += QStringLiteral(", tensor parallel over %1 GPUs").arg(o.tensorParallel);
    if (o.fp8KvCache) s += QStringLiteral(", fp8 KV cache");
    if (o.offloadLayers > 0) s += QStringLiteral(", %1 layers offloaded to the CPU").arg(o.offloadLayers);
    return s;
}

} // namespace

QStringList splitGpuDevice(const QStringList& args, QString& gpu) {
    QStringList out;
    for (int i = 0; i < args.size(); ++i) {
        QString value;
        bool inline_ = false;
        if (args[i] == "--device" && i + 1 < args.size()) value = args[i + 1];
        else if (args[i].startsWith("--device=")) {
            value = args[i].mid(9);
            inline_ = true;
        } else {
            out << args[i];
            continue;
        }
        const bool word = std::find(deviceNames().begin(), deviceNames().end(), value.toStdString()) != deviceNames().end();
        if (word) {
            out << args[i];
        } else {
            gpu = value;
            out << (inline_ ? QStringLiteral("--device=cuda") : QStringLiteral("--device"));
            if (!inline_) out << QStringLiteral("cuda");
        }
        if (!inline_) {
            if (word) out << value;
            ++i;
        }
    }
    return out;
}

QString userGpuCatalogPath() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/memviz/gpus.json");
}

GpuCatalog loadGpuCatalog(const QCommandLineParser& p) {
    GpuCatalog c = GpuCatalog::builtin();
    try {
        const QString user = userGpuCatalogPath();
        if (QFileInfo::exists(user)) c.mergeFile(user.toStdString());
        if (p.isSet("gpu-catalog")) c.mergeFile(p.value("gpu-catalog").toStdString());
    } catch (const GpuCatalogError& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    return c;
}

bool wantsPlan(const QCommandLineParser& p, const QString& gpu) {
    for (const char* o : {"config", "safetensors", "gpus", "shard", "grad-accum", "tp", "kv-cache-dtype", "offload-layers"})
        if (p.isSet(o)) return true;
    return !gpu.isEmpty();
}

int listDevicesCommand(const QCommandLineParser& p) {
    const GpuCatalog c = loadGpuCatalog(p);
    if (p.isSet("json")) {
        QJsonArray a;
        for (const GpuInfo& g : c.gpus())
            a.append(QJsonObject{{"id", qs(g.id)},
                                 {"name", qs(g.name)},
                                 {"memory_bytes", num(g.memoryBytes)},
                                 {"cuda_context_bytes", num(g.contextBytes)},
                                 {"source", qs(g.source)}});
        printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{"gpus", a}}).toJson(QJsonDocument::Indented)));
        return 0;
    }
    std::vector<QStringList> rows;
    for (const GpuInfo& g : c.gpus())
        rows.push_back({qs(g.id), qs(g.name), bytes(g.memoryBytes), QString::number(g.memoryBytes), bytes(g.contextBytes), qs(g.source)});
    printOut(formatTable({"device", "name", "memory", "bytes", "CUDA context", "size from"}, rows) +
             QStringLiteral("\nyour own: %1 (docs/costmodel.md, \"GPU catalog\")\n").arg(userGpuCatalogPath()));
    return 0;
}

int planCommand(const QCommandLineParser& p, const QString& gpuName) {
    const GpuCatalog catalog = loadGpuCatalog(p);
    std::vector<std::string> inputWarnings;
    // The model: a config.json, or a preset / spec; the safetensors header counts exactly.
    std::optional<SafetensorsCount> tensors;
    if (p.isSet("safetensors")) {
        try {
            tensors = readSafetensors(p.value("safetensors").toStdString());
        } catch (const SafetensorsError& e) {
            printErr(QString::fromUtf8(e.what()));
            return 1;
        }
        inputWarnings.insert(inputWarnings.end(), tensors->warnings.begin(), tensors->warnings.end());
    }
    const int modelInputs = int(p.isSet("config")) + int(p.isSet("model")) + int(p.isSet("spec"));
    if (modelInputs != 1)
        throw UsageError{QStringLiteral("give exactly one of --config, --model and --spec (with --safetensors: --config)")};
    FitModel model;
    std::int64_t sequence = 0;
    if (p.isSet("seq")) sequence = positiveInt(p, "seq", 1 << 24);
    try {
        if (p.isSet("config")) {
            const HfModel hf = p.isSet("with-mtp") ? withMtpLayers(readHfConfigFile(p.value("config").toStdString()))
                                                   : readHfConfigFile(p.value("config").toStdString());
            const std::int64_t seq = sequence ? sequence : (hf.maxPositions > 0 ? std::min<std::int64_t>(hf.maxPositions, 4096) : 2048);
            model = fitModelFromHf(hf, seq);
            inputWarnings.insert(inputWarnings.end(), model.hf->warnings.begin(), model.hf->warnings.end());
            // An index whose shards are not beside it still says how many bytes the weights take.
            if (tensors && tensors->shardsMissing > 0 && tensors->declaredTotalSize > 0)
                inputWarnings.push_back("the index's shards are not beside it: the checkpoint's weights are its total_size, " +
                                        std::to_string(tensors->declaredTotalSize) + " bytes (" +
                                        words::bytes(tensors->declaredTotalSize).toStdString() + "); the parameters come from the config");
            if (tensors && tensors->shardsMissing == 0 && tensors->parameterCount != hf.parameterCount)
                inputWarnings.push_back("the config's architecture has " + std::to_string(hf.parameterCount) +
                                        " parameters, the safetensors header " + std::to_string(tensors->parameterCount));
        } else {
            model = fitModelFromSpec(p.isSet("model") ? presetSpec(p.value("model").toStdString())
                                                      : readModelSpecFile(p.value("spec").toStdString()));
            if (sequence && !model.sequence()) throw UsageError{QStringLiteral("--seq: this model takes no token sequence")};
        }
    } catch (const HfConfigError& e) {
        printErr(QString::fromUtf8(e.what()));
        return 1;
    } catch (const SpecError& e) {
        printErr(QString::fromUtf8(e.what()));
        return 1;
    }
    PlanOptions o;
    EstimateOptions base;
    base.batch = 1;
    o.estimate = estimateOptionsFrom(p, base);
    // A quantized checkpoint: its weight bytes are exact (HfQuant.h); the step is simulated with
    // the nearest weight format the simulation has (8-bit, else 4-bit) unless --weights says.
    if (const auto q = model.hf ? simulatedQuantizedWeights(*model.hf) : std::nullopt; q && !p.isSet("weights") && !o.estimate.training) {
        o.estimate.weights = *q;
        inputWarnings.push_back("quantized checkpoint (" + quantizationText(model.hf->quantization) + "): its weights are " +
                                std::to_string(model.hf->quantizedWeightBytes) + " bytes; the step is simulated with " +
                                weightFormatName(o.estimate.weights) + " weights");
    }
    // A KV cache when planning is served paged, as vLLM and TGI do: blocks of 16 tokens unless
    // --kv-block says otherwise (the spec estimate keeps 1: transformers' preallocated cache).
    if (o.estimate.kvCacheTokens > 0 && !p.isSet("kv-block")) o.estimate.kvBlockTokens = kServedKvBlockTokens;
    // The dtype: --dtype, else for inference the config's torch_dtype (what from_pretrained
    // loads in with torch_dtype="auto", and what serving stacks use), else fp32.
    QString dtypeSource;
    if (p.isSet("dtype")) {
        dtypeSource = QStringLiteral("--dtype");
    } else if (model.hf && !o.estimate.training) {
        const std::string& t = model.hf->torchDtype;
        if (const std::optional<DType> d = checkpointDType(*model.hf)) {
            o.estimate.dtype = *d;
            dtypeSource = QStringLiteral("the config's torch_dtype %1 (inference loads the checkpoint in it; --dtype overrides)").arg(qs(t));
        } else {
            dtypeSource = t.empty() ? QStringLiteral("the default: the config names no torch_dtype (--dtype overrides)")
                                    : QStringLiteral("the default: the config's torch_dtype %1 is not a float dtype memviz models").arg(qs(t));
        }
    } else if (o.estimate.training) {
        dtypeSource = o.estimate.amp ? QStringLiteral("training with amp: fp32 master weights, optimizer state and gradients")
                                     : QStringLiteral("training assumed in full fp32 precision (--amp for mixed precision, --dtype bf16 for pure bf16)");
    } else {
        dtypeSource = QStringLiteral("the default (--dtype overrides)");
    }
    o.sequence = sequence;
    if (p.isSet("grad-accum")) o.gradAccumulation = positiveInt(p, "grad-accum", 1 << 20);
    if (p.isSet("gpus")) o.devices = positiveInt(p, "gpus", 1 << 16);
    if (p.isSet("tp")) {
        o.tensorParallel = positiveInt(p, "tp", 1 << 10);
        if (o.estimate.training && o.tensorParallel > 1)
            throw UsageError{QStringLiteral("--tp: tensor parallelism is modelled for inference (--inference or --kv-cache)")};
    }
    if (p.isSet("offload-layers")) {
        o.offloadLayers = positiveInt(p, "offload-layers", 1 << 16);
        if (o.estimate.training) throw UsageError{QStringLiteral("--offload-layers: CPU offload is modelled for inference (--inference or --kv-cache)")};
    }
    if (p.isSet("kv-cache-dtype")) {
        if (p.value("kv-cache-dtype") != "fp8") throw UsageError{QStringLiteral("--kv-cache-dtype: only fp8 is known (the default is the model's dtype)")};
        o.fp8KvCache = true;
    }
    try {
        if (p.isSet("shard")) o.shard = parseShard(p.value("shard").toStdString());
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    if (o.devices > 1 && o.shard == ShardStrategy::None) o.shard = ShardStrategy::Ddp;
    if (!gpuName.isEmpty()) {
        const GpuInfo* g = catalog.find(gpuName.toStdString());
        if (!g)
            throw UsageError{QStringLiteral("--device: \"%1\" is neither cpu, cuda nor a GPU of the catalog (%2; --list-devices)")
                                 .arg(gpuName, qs(catalog.knownIds()))};
        o.memoryBytes = g->memoryBytes;
        o.contextBytes = g->contextBytes;
        o.gpu = g->id;
        o.estimate.device = DeviceKind::Cuda;
    }
    if (p.isSet("fit")) {
        try {
            o.memoryBytes = parseByteSize(p.value("fit").toStdString());
        } catch (const std::invalid_argument& e) {
            throw UsageError{QString::fromUtf8(e.what())};
        }
    }
    if (p.isSet("cuda-context")) o.contextBytes = o.estimate.cudaContextBytes;
    FitAnswer a;
    try {
        a = answerFit(model, o, catalog);
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    } catch (const HfConfigError& e) {
        printErr(QString::fromUtf8(e.what()));
        return 1;
    } catch (const SpecError& e) {
        printErr(QString::fromUtf8(e.what()));
        return 1;
    }
    const Plan& plan = a.plan;
    std::vector<std::string> warnings = inputWarnings;
    for (const std::string& w : plan.warnings)
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    const std::int64_t params = tensors && tensors->shardsMissing == 0 ? tensors->parameterCount
                                : model.exactParameters                ? model.exactParameters
                                                                       : plan.step.parameterCount;
    const std::int64_t accelerate = accelerateEstimate(params, o.estimate.amp ? DType::F32 : o.estimate.dtype, o.estimate.training);
    const std::int64_t deepspeed2 = deepSpeedZero2GpuBytes(params, o.devices, false);
    const std::int64_t largestLayer = model.hf ? model.hf->largestLayerParameters : 0;
    const std::int64_t deepspeed3 = deepSpeedZero3GpuBytes(params, largestLayer, o.devices, false, false);

    if (p.isSet("json")) {
        QJsonObject j{{"model", qs(model.name)},
                      {"parameter_count", num(params)},
                      {"simulated_parameter_count", num(plan.step.parameterCount)},
                      {"micro_batch", num(o.estimate.batch)},
                      {"grad_accum", o.gradAccumulation},
                      {"effective_batch", num(plan.effectiveBatch)},
                      {"sequence", num(plan.sequence)},
                      {"dtype", dtypeName(o.estimate.dtype)},
                      {"dtype_source", dtypeSource},
                      {"amp", o.estimate.amp},
                      {"mode", o.estimate.training ? "train" : "inference"},
                      {"device", o.gpu.empty() ? QString(deviceName(o.estimate.device)) : qs(o.gpu)},
                      {"gpus", o.devices},
                      {"quantization", model.hf ? qs(quantizationText(model.hf->quantization)) : QStringLiteral("none")},
                      {"quantized_weight_bytes", num(model.hf ? model.hf->quantizedWeightBytes : 0)},
                      {"tensor_parallel", o.tensorParallel},
                      {"kv_block_tokens", o.estimate.kvBlockTokens},
                      {"kv_cache_fp8", o.fp8KvCache},
                      {"offloaded_layers", num(plan.offloadedLayers)},
                      {"offload_copy_bytes_per_forward", num(plan.offloadCopyBytes)},
                      {"shard", shardName(o.shard)},
                      {"peak_bytes_per_device", num(plan.peakBytes)},
                      {"peak_phase", phaseName(plan.peakPhase)},
                      {"peak_op", qs(plan.peakOp)},
                      {"breakdown", partsJson(plan.perDevice)},
                      {"peers",
                       QJsonObject{{"accelerate_bytes", num(accelerate)},
                                   {"deepspeed_zero2_bytes", num(deepspeed2)},
                                   {"deepspeed_zero3_bytes", num(deepspeed3)}}}};
        if (o.estimate.training) {
            j.insert("optimizer", optimizerName(o.estimate.optimizer));
            j.insert("checkpoint", qs(checkpointName(o.estimate.checkpoint)));
        }
        if (tensors) {
            QJsonObject byDtype;
            for (const auto& [d, n] : tensors->elementsByDtype) byDtype.insert(qs(d), num(n));
            j.insert("safetensors", QJsonObject{{"parameter_count", num(tensors->parameterCount)},
                                                {"total_size", num(tensors->declaredTotalSize)},
                                                {"shards_missing", tensors->shardsMissing},
                                                {"buffer_elements", num(tensors->bufferElements)},
                                                {"tensors", num(tensors->tensors)},
                                                {"data_bytes", num(tensors->dataBytes)},
                                                {"elements_by_dtype", byDtype}});
        }
        if (o.memoryBytes > 0) {
            j.insert("memory_bytes", num(o.memoryBytes));
            j.insert("fits", plan.fits);
            j.insert("largest_micro_batch", num(a.largestMicroBatch));
            if (a.largestSequence >= 0) j.insert("largest_sequence", num(a.largestSequence));
            QJsonArray fixes;
            int rank = 0;
            for (const Fix& f : a.fixes)
                fixes.append(QJsonObject{{"rank", ++rank},
                                         {"id", qs(f.id)},
                                         {"change", qs(f.description)},
                                         {"cost", qs(f.cost)},
                                         {"peak_bytes_per_device", num(f.peakBytes)},
                                         {"fits", f.fits}});
            j.insert("fixes", fixes);
        }
        QJsonArray w;
        for (const std::string& s : warnings) w.append(qs(s));
        j.insert("warnings", w);
        printOut(QString::fromUtf8(QJsonDocument(j).toJson(QJsonDocument::Indented)));
        return 0;
    }

    QString out = QStringLiteral("%1: %2 parameters").arg(qs(model.name)).arg(params);
    if (tensors) {
        QStringList parts;
        for (const auto& [d, n] : tensors->elementsByDtype) parts << QStringLiteral("%1 %2").arg(n).arg(qs(d));
        out += QStringLiteral(" (safetensors: %1)").arg(parts.join(", "));
    }
    if (plan.sequence) out += QStringLiteral(", sequence %1").arg(plan.sequence);
    out += QStringLiteral("\ndtype %1: %2").arg(dtypeName(o.estimate.dtype), dtypeSource);
    if (o.estimate.kvCacheTokens > 0)
        out += QStringLiteral("\nKV cache: %1 tokens per sequence in blocks of %2%3")
                   .arg(o.estimate.kvCacheTokens)
                   .arg(o.estimate.kvBlockTokens)
                   .arg(p.isSet("kv-block") ? QStringLiteral(" (--kv-block)")
                                            : QStringLiteral(" (paged, as vLLM serves; --kv-block 1 for a preallocated cache)"));
    if (model.hf && model.hf->quantizedWeightBytes > 0)
        out += QStringLiteral("\nweights: %1 bytes (%2), %3").arg(model.hf->quantizedWeightBytes).arg(bytes(model.hf->quantizedWeightBytes), qs(quantizationText(model.hf->quantization)));
    if (model.hf) out += QStringLiteral("\nfamily: %1%2").arg(qs(model.hf->modelType), model.hf->generic ? " (generic decoder)" : "");
    out += QStringLiteral("\n%1 on %2\n\n")
               .arg(optionsText(o), o.gpu.empty() ? QString(deviceName(o.estimate.device))
                                                  : qs(catalog.find(o.gpu)->name) + " (" + bytes(o.memoryBytes) + ")");
    std::vector<QStringList> rows;
    for (int i = 0; i < kPlanPartCount; ++i) {
        const std::int64_t b = plan.perDevice[static_cast<std::size_t>(i)];
        if (b == 0 && i >= static_cast<int>(PlanPart::GradientBuckets)) continue;
        rows.push_back({planPartName(static_cast<PlanPart>(i)), QString::number(b), bytes(b)});
    }
    rows.push_back({o.devices > 1 ? "peak per device" : "peak", QString::number(plan.peakBytes), bytes(plan.peakBytes)});
    out += formatTable({"at the peak, per device", "bytes", ""}, rows);
    out += QStringLiteral("\npeak in the %1 phase, after %2\n").arg(phaseName(plan.peakPhase), qs(plan.peakOp));
    if (o.memoryBytes > 0) {
        out += QStringLiteral("\n%1: ").arg(bytes(o.memoryBytes));
        out += plan.fits ? QStringLiteral("fits (%1 to spare)").arg(bytes(o.memoryBytes - plan.peakBytes))
                         : QStringLiteral("does not fit by %1").arg(bytes(plan.peakBytes - o.memoryBytes));
        out += a.largestMicroBatch > 0 ? QStringLiteral("\nlargest micro-batch that fits: %1").arg(a.largestMicroBatch)
                                       : QStringLiteral("\nnot even micro-batch 1 fits");
        if (a.largestSequence > 0) out += QStringLiteral("\nlongest sequence that fits at micro-batch %1: %2").arg(o.estimate.batch).arg(a.largestSequence);
        else if (a.largestSequence == 0) out += QStringLiteral("\nno sequence fits at micro-batch %1").arg(o.estimate.batch);
        out += "\n";
        if (!a.fixes.empty()) {
            std::vector<QStringList> fixRows;
            int rank = 0;
            for (const Fix& f : a.fixes)
                fixRows.push_back({QString::number(++rank), qs(f.description), bytes(f.peakBytes), f.fits ? "fits" : "not enough",
                                   qs(f.cost)});
            out += "\nchanges that make it fit, cheapest first:\n" +
                   formatTable({"#", "change", "new peak", "", "what it costs"}, fixRows);
        }
    }
    out += QStringLiteral("\nothers' rules (weights, gradients, optimizer only; no activations): accelerate %1")
               .arg(bytes(accelerate));
    if (o.estimate.training)
        out += QStringLiteral(", DeepSpeed ZeRO-2 %1, ZeRO-3 %2 per GPU (mixed-precision Adam, %3 GPU(s))")
                   .arg(bytes(deepspeed2), bytes(deepspeed3))
                   .arg(o.devices);
    out += "\n";
    for (const std::string& w : warnings) out += "warning: " + qs(w) + "\n";
    printOut(out);
    return 0;
}

} // namespace memviz::cli
