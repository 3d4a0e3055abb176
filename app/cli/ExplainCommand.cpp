// SPDX-License-Identifier: MIT
// memviz explain: the OOM decoder on the command line. The message comes as arguments (joined
// with spaces, so it need not be quoted), from a file (--file LOG) or from stdin ("-").
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <stdexcept>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/CostModelOptions.h"
#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"
#include "words/OomReport.h"

namespace memviz::cli {

namespace {

const char* const kUsage =
    "memviz explain MESSAGE... | --file LOG | - [--json]\n"
    "       [--model PRESET | --spec FILE.json] [--batch N] [--dtype fp32|bf16|fp16] [--amp]\n"
    "       [--optimizer sgd|momentum|adam|adamw|adagrad|rmsprop|lbfgs] [--checkpoint none|sqrt|K] [--device cpu|cuda]";

QJsonValue printedJson(const std::optional<workshop::PrintedSize>& s) {
    if (!s) return QJsonValue::Null;
    return QJsonObject{{"bytes", qint64(s->bytes)},
                       {"low_bytes", qint64(s->low)},
                       {"high_bytes", qint64(s->high)},
                       {"text", QString::fromStdString(s->text)}};
}

const char* tensorReasonId(workshop::TensorRangeReason r) {
    switch (r) {
    case workshop::TensorRangeReason::Exact: return "exact";
    case workshop::TensorRangeReason::Printed: return "printed";
    case workshop::TensorRangeReason::SmallSegment: return "small-segment";
    case workshop::TensorRangeReason::LargeBuffer: return "large-buffer";
    case workshop::TensorRangeReason::RoundedTo2MiB: return "rounded-to-2mib";
    case workshop::TensorRangeReason::TruncatedGiB: return "truncated-gib";
    }
    return "printed";
}

QJsonObject reportJson(const OomReport& r) {
    const workshop::OomMessage& m = r.message;
    const workshop::OomDiagnosis& d = r.diagnosis;
    QJsonObject o{{"recognized", m.recognized()},
                  {"form", workshop::oomFormId(m.form)},
                  {"title", r.title},
                  {"explanation", QJsonArray::fromStringList(r.explanation)}};
    if (!m.recognized()) return o;
    o["backend"] = QString::fromStdString(m.backend);
    o["device"] = m.device >= 0 ? QJsonValue(m.device) : QJsonValue::Null;
    o["excerpt"] = QString::fromStdString(m.excerpt);
    o["request"] = printedJson(m.request);
    o["total"] = printedJson(m.total);
    o["free"] = printedJson(m.free);
    o["allocated"] = printedJson(m.allocated);
    o["reserved"] = printedJson(m.reserved);
    o["reserved_unallocated"] = printedJson(m.reservedUnallocated);
    o["allowed"] = printedJson(m.allowed);
    o["private_pools"] = printedJson(m.privatePools);
    o["other_allocations"] = printedJson(m.otherAllocations);
    QJsonArray processes;
    for (const auto& p : m.processes)
        processes.append(
            QJsonObject{{"pid", p.pid >= 0 ? QJsonValue(qint64(p.pid)) : QJsonValue::Null}, {"in_use", printedJson(p.inUse)}});
    o["processes"] = processes;
    if (m.errorCode) o["error_code"] = m.errorCode;
    if (!m.errorText.empty()) o["error_text"] = QString::fromStdString(m.errorText);
    if (m.request) {
        o["tensor_low_bytes"] = qint64(d.tensorLow);
        o["tensor_high_bytes"] = qint64(d.tensorHigh);
        if (d.tensorAlsoLow > 0) {
            o["tensor_also_low_bytes"] = qint64(d.tensorAlsoLow);
            o["tensor_also_high_bytes"] = qint64(d.tensorAlsoHigh);
        }
        o["tensor_range"] = tensorReasonId(d.tensorReason);
    }
    o["shortfall_bytes"] = d.shortfallBytes ? QJsonValue(qint64(*d.shortfallBytes)) : QJsonValue::Null;
    o["capacity_needed_bytes"] = d.capacityNeeded ? QJsonValue(qint64(*d.capacityNeeded)) : QJsonValue::Null;
    o["larger_than_device"] = d.largerThanDevice;
    o["limited_by_fraction"] = d.limitedByFraction;
    o["fragmentation_likely"] = d.fragmentationLikely;
    o["fragmented_bytes"] = qint64(d.fragmentedBytes);
    o["other_processes_bytes"] = qint64(d.otherProcessesBytes);
    o["non_pytorch_bytes"] = qint64(d.nonPyTorchBytes);
    QJsonArray shapes;
    for (const auto& g : r.shapes) {
        QJsonArray dims;
        for (auto x : g.dims) dims.append(qint64(x));
        shapes.append(QJsonObject{{"shape", dims}, {"dtype", QString::fromStdString(g.dtype)}, {"bytes", qint64(g.bytes)}});
    }
    o["shapes"] = shapes;
    QJsonArray fixes;
    for (const OomFix& f : r.fixes)
        fixes.append(QJsonObject{{"id", f.id},
                                 {"title", f.title},
                                 {"detail", f.detail},
                                 {"saved_bytes", f.savedBytes >= 0 ? QJsonValue(f.savedBytes) : QJsonValue::Null},
                                 {"peak_bytes", f.peakBytes >= 0 ? QJsonValue(f.peakBytes) : QJsonValue::Null},
                                 {"fits", f.fits < 0 ? QJsonValue::Null : QJsonValue(f.fits == 1)},
                                 {"lesson", f.lessonId.isEmpty() ? QJsonValue::Null : QJsonValue(f.lessonId)}});
    o["fixes"] = fixes;
    o["fixes_for"] = r.context.isEmpty() ? QJsonValue::Null : QJsonValue(r.context);
    return o;
}

QString readMessage(const QCommandLineParser& p) {
    if (p.isSet("file")) {
        QFile f(p.value("file"));
        if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot read " + p.value("file").toStdString());
        return QString::fromUtf8(f.readAll());
    }
    const QStringList words = p.positionalArguments();
    if (words == QStringList{QStringLiteral("-")}) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) throw std::runtime_error("cannot read stdin");
        return QString::fromUtf8(in.readAll());
    }
    if (words.isEmpty()) throw UsageError{QStringLiteral("no message given\nusage: %1").arg(kUsage)};
    return words.join(QLatin1Char(' '));
}

// --model/--spec and the knobs: the fixes ranked for that training setup.
void addModelFixes(OomReport& report, const QCommandLineParser& p) {
    using namespace costmodel;
    if (!p.isSet("model") && !p.isSet("spec")) {
        for (const char* knob : {"batch", "dtype", "optimizer", "checkpoint", "device", "amp"})
            if (p.isSet(knob)) throw UsageError{QStringLiteral("--%1 needs --model or --spec").arg(QLatin1String(knob))};
        return;
    }
    if (!report.message.recognized()) return;
    EstimateOptions o;
    QString title;
    ModelSpec spec;
    try {
        if (p.isSet("model")) {
            spec = presetSpec(p.value("model").toStdString());
            for (const PresetInfo& info : presets())
                if (info.id == spec.name || QString::fromStdString(info.id).compare(p.value("model"), Qt::CaseInsensitive) == 0)
                    title = QString::fromStdString(info.title);
        } else {
            spec = readModelSpecFile(p.value("spec").toStdString());
        }
        if (title.isEmpty()) title = QString::fromStdString(spec.name);
        o.device = OomReportBuilder::deviceOf(report);
        o = estimateOptionsFrom(p, o);
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    } catch (const SpecError& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    OomReportBuilder::addModelFixes(report, title, resolveModel(spec), o);
}

} // namespace

int explainCommand(const QStringList& args) {
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOption({"json", "Print JSON."});
    p.addOption({"file", "Read the message (or a whole log) from a file.", "LOG"});
    p.addOption({"amp", "Mixed precision."});
    for (const char* valued : {"model", "spec", "batch", "dtype", "optimizer", "checkpoint", "device"})
        p.addOption({valued, valued, "VALUE"});
    if (!p.parse(QStringList{QStringLiteral("memviz")} + args)) throw UsageError{p.errorText() + "\nusage: " + kUsage};
    OomReport report = OomReportBuilder::build(readMessage(p));
    addModelFixes(report, p);
    if (p.isSet("json")) printOut(QString::fromUtf8(QJsonDocument(reportJson(report)).toJson(QJsonDocument::Indented)));
    else printOut(OomReportBuilder::plainText(report));
    // Not an OOM message: the helpful answer is printed, and the status says it was bad input.
    return report.message.recognized() ? 0 : 1;
}

} // namespace memviz::cli
