// SPDX-License-Identifier: MIT
#include "words/OomReport.h"

#include <algorithm>

#include <cmath>

#include "words/Units.h"
#include "words/CostModelLabels.h"
#include "workshop/CheckpointPlan.h"
#include "words/Units.h"
#include "workshop/ModelFixes.h"

namespace memviz {

using namespace workshop;

namespace {

QString both(qint64 bytes) { return QString::fromStdString(formatBothUnits(double(bytes))); }
QString binary(qint64 bytes) { return QString::fromStdString(formatBytes(double(bytes), 2)); }
// "20 MiB": the allocator's constants, whole numbers of their unit.
QString whole(qint64 bytes) { return QString::fromStdString(formatBytes(double(bytes), 0)); }
// Rounded up in the last decimal, for "a device of at least this much".
QString binaryAtLeast(qint64 bytes) {
    const ScaledUnit u = byteUnitFor(double(bytes));
    const double shown = std::ceil(double(bytes) / u.divisor * 100.0) / 100.0;
    return QStringLiteral("%1 %2").arg(shown, 0, 'f', u.divisor == 1.0 ? 0 : 2).arg(QLatin1String(u.suffix));
}

// The allocator's rounding is worth a line only where it shows at two decimals.
bool showsTensorRange(const OomDiagnosis& d) {
    if (d.tensorReason == TensorRangeReason::Exact || d.tensorReason == TensorRangeReason::Printed) return false;
    return binary(d.tensorLow) != binary(d.tensorHigh);
}

} // namespace

QString OomReportBuilder::bytesText(qint64 bytes) {
    if (bytes < 1000) return tr("%1 bytes").arg(bytes);
    return tr("%1 bytes (%2)").arg(QString::fromStdString(groupDigits(bytes)), both(bytes));
}

QString OomReportBuilder::printedText(const PrintedSize& s) {
    if (s.exact()) return bytesText(s.bytes);
    if (s.text.empty()) return tr("about %1").arg(binary(s.bytes)); // derived, not printed
    return tr("%1 (%2)").arg(QString::fromStdString(s.text), QString::fromStdString(formatDecimalBytes(double(s.bytes), 1)));
}

QString OomReportBuilder::shapeText(const ShapeGuess& g) {
    QString dtype = QString::fromStdString(g.dtype);
    if (dtype == QLatin1String("float16")) dtype = tr("float16 or bfloat16");
    else if (dtype == QLatin1String("float64")) dtype = tr("float64 or int64");
    else if (dtype == QLatin1String("uint8")) dtype = tr("uint8, int8 or bool");
    return QStringLiteral("%1 %2").arg(QString::fromStdString(dimsText(g.dims)), dtype);
}

QString OomReportBuilder::formTitle(const OomMessage& m) {
    const QString backend = QString::fromStdString(m.backend);
    switch (m.form) {
    case OomForm::CpuNotEnoughMemory: return tr("CPU out of memory (DefaultCPUAllocator: not enough memory)");
    case OomForm::CpuCannotAllocate: return tr("CPU out of memory (DefaultCPUAllocator: can't allocate memory)");
    case OomForm::TorchLegacy: return tr("CPU out of memory (the old TH allocator of PyTorch 0.4 and earlier)");
    case OomForm::GpuSemicolons: return tr("%1 out of memory (the message of PyTorch 1.x to 2.0)").arg(backend);
    case OomForm::GpuSentences: return tr("%1 out of memory (the message of PyTorch 2.1 and later)").arg(backend);
    case OomForm::MpsBackend: return tr("Apple MPS out of memory");
    case OomForm::GpuNoNumbers: return tr("%1 error: out of memory (outside PyTorch's caching allocator)").arg(backend);
    case OomForm::Unrecognized: break;
    }
    return tr("Not an out-of-memory message memviz recognizes");
}

OomReport OomReportBuilder::build(const QString& text) {
    OomReport r;
    r.message = parseOomMessage(text.toStdString());
    r.diagnosis = diagnose(r.message);
    r.title = formTitle(r.message);
    if (!r.message.recognized()) {
        addUnrecognized(r, text);
        return r;
    }
    addFacts(r);
    addExplanation(r);
    const OomDiagnosis& d = r.diagnosis;
    if (r.message.request && d.tensorLow > 0) {
        // Two readings of the printed size: shapes of both, most from the first.
        r.shapes = guessShapes(d.tensorLow, d.tensorHigh, d.tensorAlsoLow > 0 ? 4 : 6);
        if (d.tensorAlsoLow > 0)
            for (ShapeGuess& g : guessShapes(d.tensorAlsoLow, d.tensorAlsoHigh, 2)) r.shapes.push_back(std::move(g));
    }
    setFixes(r, modelFreeFixes(r));
    return r;
}

void OomReportBuilder::addFacts(OomReport& r) {
    const OomMessage& m = r.message;
    const OomDiagnosis& d = r.diagnosis;
    const auto fact = [&r](const QString& label, const std::optional<PrintedSize>& s) {
        if (s) r.facts.push_back({label, printedText(*s)});
    };
    if (m.device >= 0)
        r.facts.push_back({tr("Device"), QStringLiteral("%1 %2").arg(QString::fromStdString(m.backend)).arg(m.device)});
    fact(tr("Requested"), m.request);
    if (m.request && showsTensorRange(d))
        r.facts.push_back({tr("The tensor itself"),
                           d.tensorAlsoLow > 0 ? tr("between %1 and %2, or between %3 and %4")
                                                     .arg(binary(d.tensorLow), binary(d.tensorHigh), binary(d.tensorAlsoLow),
                                                          binary(d.tensorAlsoHigh))
                                               : tr("between %1 and %2").arg(binary(d.tensorLow), binary(d.tensorHigh))});
    fact(tr("Total capacity"), m.total);
    fact(tr("Allowed (memory fraction)"), m.form == OomForm::MpsBackend ? std::nullopt : m.allowed);
    fact(tr("Maximum allowed (MPS watermark)"), m.form == OomForm::MpsBackend ? m.allowed : std::nullopt);
    fact(tr("Free on the device"), m.free);
    fact(tr("Allocated by PyTorch"), m.allocated);
    fact(tr("In CUDA graph private pools"), m.privatePools);
    fact(tr("Reserved by PyTorch"), m.reserved);
    fact(tr("Reserved but unallocated"), m.reservedUnallocated);
    fact(tr("Other allocations"), m.otherAllocations);
    for (const ProcessMemory& p : m.processes)
        r.facts.push_back({p.pid < 0 ? tr("This process in use") : tr("Process %1 in use").arg(p.pid), printedText(p.inUse)});
    if (m.errorCode)
        r.facts.push_back(
            {tr("Error code"), QStringLiteral("%1 (%2)").arg(m.errorCode).arg(QString::fromStdString(m.errorText))});
    if (d.shortfallBytes)
        r.facts.push_back(
            {tr("Missing for this allocation"), m.isGpu() ? binary(*d.shortfallBytes) : bytesText(*d.shortfallBytes)});
    if (d.capacityNeeded)
        r.facts.push_back({tr("Capacity that would have fit it"),
                           m.isGpu() ? tr("at least %1").arg(binaryAtLeast(*d.capacityNeeded)) : bytesText(*d.capacityNeeded)});
}

void OomReportBuilder::addExplanation(OomReport& r) {
    const OomMessage& m = r.message;
    const OomDiagnosis& d = r.diagnosis;
    QStringList& e = r.explanation;
    const QString request = !m.request           ? QString()
                            : m.request->exact() ? bytesText(m.request->bytes)
                                                 : QString::fromStdString(m.request->text);
    switch (m.form) {
    case OomForm::CpuNotEnoughMemory:
    case OomForm::CpuCannotAllocate:
    case OomForm::TorchLegacy:
        e << tr("PyTorch asked the operating system for one block of %1 and did not get it. The message does not say "
                "how much memory was free, so the whole request counts as missing: to run this unchanged, the machine "
                "needs at least %2 more free memory (RAM plus swap) at that moment. That is the exact amount behind "
                "\"buy new RAM\".")
                 .arg(request, both(m.request->bytes));
        if (m.form == OomForm::TorchLegacy)
            e << tr("This old message printed whole gigabytes, rounded down: the request was between %1 and %2.")
                     .arg(binary(m.request->low), binary(m.request->high + 1));
        if (m.errorCode == 12)
            e << tr("Error code 12 is ENOMEM: the kernel refused the allocation. Besides physical memory, a container "
                    "memory limit, ulimit -v or strict overcommit settings can cause it.");
        if (m.request->bytes >= (qint64(8) << 30))
            e << tr("One tensor of %1 is rarely intended. Check its shape: loading a whole dataset into one tensor "
                    "(load it in batches with a DataLoader instead), an accidental broadcast such as x[:, None] - "
                    "y[None, :], or a dimension in the wrong place are the usual causes.")
                     .arg(both(m.request->bytes));
        break;
    case OomForm::GpuSemicolons:
    case OomForm::GpuSentences:
        if (d.tensorReason == TensorRangeReason::LargeBuffer && d.tensorAlsoLow > 0)
            e << tr("The caching allocator asks the driver for whole segments: any tensor between %1 and %2 gets a new "
                    "%3 segment when no cached block fits, and a tensor of %2 or more gets its size rounded up to a "
                    "multiple of %4. So the tensor that failed was between %1 and %2, or between %5 and %6; the "
                    "device was already full.")
                     .arg(whole(kSmallSize), whole(kMinLargeAlloc), whole(kLargeBuffer), whole(kRoundLarge),
                          binary(d.tensorAlsoLow), binary(d.tensorAlsoHigh));
        else if (d.tensorReason == TensorRangeReason::LargeBuffer)
            e << tr("The caching allocator asks the driver for whole segments: any tensor between %1 and %2 gets a new "
                    "%3 segment when no cached block fits. So the tensor that failed was between %1 and %2; the device "
                    "was already full.")
                     .arg(whole(kSmallSize), whole(kMinLargeAlloc), whole(kLargeBuffer));
        else if (d.tensorReason == TensorRangeReason::SmallSegment)
            e << tr("The caching allocator keeps tensors of up to %1 in %2 segments: the tensor that failed was at "
                    "most %1; the device was already full.")
                     .arg(whole(kSmallSize), whole(kSmallBuffer));
        else if (d.tensorReason == TensorRangeReason::RoundedTo2MiB && showsTensorRange(d))
            e << tr("The caching allocator rounds large requests up to a multiple of %3: the tensor itself was "
                    "between %1 and %2.")
                     .arg(binary(d.tensorLow), binary(d.tensorHigh), whole(kRoundLarge));
        if (d.largerThanDevice)
            e << tr("This one request is larger than the whole %1 the process may use: no amount of freeing helps. "
                    "Make this tensor smaller (batch, sequence length, resolution) or split the computation.")
                     .arg(QString::fromStdString(d.limitedByFraction && m.allowed ? m.allowed->text
                                                 : m.total                        ? m.total->text
                                                                                  : ""));
        else if (d.shortfallBytes && *d.shortfallBytes > 0)
            e << tr("It needed %1 and only %2 was available: %3 short. A device with at least %4, everything else the "
                    "same, would have had room for this allocation; the allocations after it may need more.")
                     .arg(request, binary(m.request->bytes - *d.shortfallBytes), binary(*d.shortfallBytes),
                          d.capacityNeeded ? binaryAtLeast(*d.capacityNeeded) : QString());
        if (d.limitedByFraction)
            e << tr("The limit was set by torch.cuda.set_per_process_memory_fraction: %1 allowed, not the whole device.")
                     .arg(QString::fromStdString(m.allowed->text));
        if (d.fragmentationLikely)
            e << tr("PyTorch holds %1 reserved but unallocated, more than the %2 missing, but in pieces too small for "
                    "one block of %3: fragmentation. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch 2.1 and "
                    "later; max_split_size_mb before) lets the allocator grow segments instead of leaving holes.")
                     .arg(binary(d.fragmentedBytes), binary(*d.shortfallBytes), request);
        if (d.otherProcessesBytes > 0)
            e << tr("Processes listed by id hold %1 on this device (inside a container your own process can appear "
                    "under another id). nvidia-smi shows who they are.")
                     .arg(binary(d.otherProcessesBytes));
        if (d.nonPyTorchBytes > 0)
            e << tr("This process uses %1 outside PyTorch's allocator: the CUDA context, library workspaces (cuBLAS, "
                    "cuDNN) and anything else that calls cudaMalloc directly.")
                     .arg(binary(d.nonPyTorchBytes));
        break;
    case OomForm::MpsBackend:
        e << tr("The MPS allocator stopped at its high-watermark limit (max allowed), a share of the unified memory "
                "that macOS shares between CPU and GPU.");
        if (d.shortfallBytes && *d.shortfallBytes > 0)
            e << tr("It needed %1 and %2 was left under the limit: %3 short.")
                     .arg(request, binary(m.request->bytes - *d.shortfallBytes), binary(*d.shortfallBytes));
        e << tr("PYTORCH_MPS_HIGH_WATERMARK_RATIO raises the limit (0.0 removes it) at the risk of the whole system "
                "running out of memory; reducing the memory the model needs is safer.");
        break;
    case OomForm::GpuNoNumbers:
        e << tr("The CUDA runtime itself failed to allocate, outside PyTorch's caching allocator: while creating the "
                "context, cuBLAS or cuDNN handles and workspaces, or in a library that calls cudaMalloc directly. No "
                "numbers are printed; nvidia-smi shows what else uses the device. Kernel errors are reported "
                "asynchronously, so the line in the traceback may not be the one that failed (CUDA_LAUNCH_BLOCKING=1 "
                "finds it).");
        break;
    case OomForm::Unrecognized: break;
    }
}

void OomReportBuilder::addUnrecognized(OomReport& r, const QString& text) {
    const QString low = text.toLower();
    if (text.trimmed().isEmpty()) {
        r.explanation << tr("Paste a PyTorch out-of-memory message (the last lines of the traceback are enough).");
    } else if (low.contains(QLatin1String("dataloader worker")) && low.contains(QLatin1String("killed"))) {
        r.explanation << tr("A DataLoader worker process was killed, usually by the Linux OOM killer: each worker holds "
                            "its own copy of what the Dataset keeps in memory. Fewer workers (num_workers), a Dataset "
                            "that reads samples lazily, or more RAM help.");
    } else if (low.contains(QLatin1String("killed")) || low.contains(QLatin1String("oom-kill")) ||
               low.contains(QLatin1String("out of memory: killed process"))) {
        r.explanation << tr("\"Killed\" without a Python traceback means the Linux OOM killer ended the process: the "
                            "whole machine ran out of memory, so PyTorch had no chance to print a message. dmesg shows "
                            "the kill and the process's size at that moment. The CPU lessons apply.");
    } else if (low.contains(QLatin1String("out of memory")) || low.contains(QLatin1String("outofmemoryerror"))) {
        r.explanation << tr("This mentions running out of memory, but not in a form memviz can read numbers from. "
                            "Paste the whole line that starts with RuntimeError or torch.OutOfMemoryError.");
    } else {
        r.explanation << tr("This does not look like a PyTorch out-of-memory message.");
    }
    r.explanation << tr("memviz reads these forms:\n"
                        "• DefaultCPUAllocator: not enough memory: you tried to allocate N bytes.\n"
                        "• DefaultCPUAllocator: can't allocate memory: you tried to allocate N bytes. Error code 12 "
                        "(Cannot allocate memory)\n"
                        "• $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM!\n"
                        "• CUDA out of memory. Tried to allocate X (GPU 0; Y total capacity; Z already allocated; W "
                        "free; V reserved in total by PyTorch)\n"
                        "• CUDA out of memory. Tried to allocate X. GPU 0 has a total capacity of Y of which W is free. "
                        "... Of the allocated memory Z is allocated by PyTorch, and V is reserved by PyTorch but "
                        "unallocated.\n"
                        "• MPS backend out of memory (MPS allocated: ..., max allowed: ...). Tried to allocate X.\n"
                        "• CUDA error: out of memory");
}

QList<OomFix> OomReportBuilder::modelFreeFixes(const OomReport& r) {
    QList<OomFix> fixes;
    const OomMessage& m = r.message;
    const OomDiagnosis& d = r.diagnosis;
    if (d.fragmentationLikely)
        fixes.push_back({QStringLiteral("expandable-segments"), tr("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"),
                         tr("Lets the caching allocator grow segments instead of leaving gaps; up to the %1 reserved but "
                            "unallocated becomes usable.")
                             .arg(binary(d.fragmentedBytes)),
                         d.fragmentedBytes, QString()});
    if (!m.isGpu() && m.request && m.request->bytes >= (qint64(1) << 30))
        fixes.push_back({QStringLiteral("dataloader-batches"), tr("Load the data in batches with a DataLoader"),
                         tr("Keep one batch in memory instead of the whole tensor; the tensor-size lesson computes a "
                            "batch's size."),
                         -1, QStringLiteral("tensor-size")});
    return fixes;
}

costmodel::DeviceKind OomReportBuilder::deviceOf(const OomReport& report) {
    const std::string& b = report.message.backend;
    return b == "CUDA" || b == "HIP" ? costmodel::DeviceKind::Cuda : costmodel::DeviceKind::Cpu;
}

void OomReportBuilder::addModelFixes(OomReport& report, const QString& title, const costmodel::ResolvedModel& model,
                                     const costmodel::EstimateOptions& options) {
    using namespace costmodel;
    const ModelFixes computed = modelFixes(model, options);
    // The memory the process could use, when the message says.
    std::optional<std::int64_t> limit;
    if (report.diagnosis.limitedByFraction && report.message.allowed) limit = report.message.allowed->bytes;
    else if (report.message.total) limit = report.message.total->bytes;
    QList<OomFix> fixes = modelFreeFixes(report);
    for (const ModelFix& f : computed.fixes) {
        OomFix fix;
        fix.id = QString::fromStdString(f.id);
        fix.lessonId = QString::fromStdString(f.lesson);
        fix.savedBytes = f.savedBytes;
        fix.peakBytes = f.peakBytes;
        if (f.id == "smaller-batch") {
            fix.title = tr("Halve the batch: %1 → %2").arg(options.batch).arg(f.options.batch);
            fix.detail = tr("Activations, the input and temporaries shrink with the batch; weights and optimizer state do not.");
        } else if (f.id == "bf16") {
            fix.title = tr("Train in bfloat16");
            fix.detail = tr("Weights, gradients, optimizer state and activations take half the bytes; bfloat16 keeps "
                            "float32's range.");
        } else if (f.id == "mixed-precision") {
            fix.title = tr("Mixed precision (torch.autocast)");
            fix.detail = tr("Activations of matrix products and convolutions in 16 bits; weights, gradients and optimizer "
                            "state stay float32.");
        } else if (f.id == "checkpointing") {
            const int k = checkpointSegmentsFor(model, f.options.checkpoint);
            fix.title = tr("Gradient checkpointing with K = %1 ≈ √%2 segments").arg(k).arg(model.topLevelLayerCount());
            fix.detail = tr("checkpoint_sequential keeps only each segment's input and recomputes %1 of %2 layers in the "
                            "backward pass.")
                             .arg(workshop::recomputedLayers(model.topLevelLayerCount(), k))
                             .arg(model.topLevelLayerCount());
        } else if (f.id == "lighter-optimizer") {
            fix.title = tr("A lighter optimizer: %1 instead of %2")
                            .arg(optimizerLabel(f.options.optimizer), optimizerLabel(options.optimizer));
            fix.detail = tr("%1 state value(s) per parameter instead of %2.")
                             .arg(stateElementsPerParameter(f.options.optimizer, f.options.lbfgsHistory))
                             .arg(stateElementsPerParameter(options.optimizer, options.lbfgsHistory));
        } else if (f.id == "no-grad") {
            fix.title = tr("If it failed in evaluation: torch.no_grad()");
            fix.detail = tr("Without grad, no activations are kept for a backward pass.");
        }
        fix.detail += QLatin1Char(' ') + tr("Predicted peak: %1.").arg(binary(f.peakBytes));
        if (limit) {
            fix.fits = f.peakBytes <= *limit ? 1 : 0;
            fix.detail += QLatin1Char(' ') +
                          (fix.fits ? tr("Fits in the device's %1.").arg(binary(*limit))
                                    : tr("Still %1 over the device's %2.").arg(binary(f.peakBytes - *limit), binary(*limit)));
        }
        fixes.push_back(fix);
    }
    QString setup = tr("%1, batch %2, %3, %4")
                        .arg(title)
                        .arg(options.batch)
                        .arg(options.amp ? tr("AMP") : dtypeLabel(options.dtype), optimizerLabel(options.optimizer));
    report.context = setup;
    report.facts.push_back({tr("Cost model: peak of %1").arg(setup), binary(computed.basePeakBytes)});
    if (limit && computed.basePeakBytes <= *limit)
        report.explanation << tr("For %1 the cost model predicts a peak of %2, which fits the device's %3: the program that "
                                 "failed needs more than this setup (a larger model, batch or sequence, tensors kept between "
                                 "steps, or other processes on the device). The savings below are for this setup.")
                                  .arg(setup, binary(computed.basePeakBytes), binary(*limit));
    setFixes(report, std::move(fixes));
}

void OomReportBuilder::setFixes(OomReport& report, QList<OomFix> fixes) {
    // Most saving first; unknown savings, and no_grad (it applies only if the failure was in
    // evaluation), after the fixes for the training step itself.
    const auto late = [](const OomFix& f) { return f.savedBytes < 0 || f.id == QLatin1String("no-grad"); };
    std::stable_sort(fixes.begin(), fixes.end(), [&](const OomFix& a, const OomFix& b) {
        if (late(a) != late(b)) return late(b);
        return a.savedBytes > b.savedBytes;
    });
    report.fixes = std::move(fixes);
}

QString OomReportBuilder::plainText(const OomReport& r) {
    QString out = r.title + QLatin1Char('\n');
    if (!r.message.excerpt.empty()) out += QStringLiteral("  \"%1\"\n").arg(QString::fromStdString(r.message.excerpt));
    out += QLatin1Char('\n');
    int width = 0;
    for (const OomFact& f : r.facts) width = std::max(width, int(f.label.size()));
    for (const OomFact& f : r.facts)
        out += QStringLiteral("  %1  %2\n").arg(f.label + QLatin1Char(':'), -(width + 1)).arg(f.value);
    if (!r.facts.isEmpty()) out += QLatin1Char('\n');
    for (const QString& p : r.explanation) out += p + QStringLiteral("\n\n");
    if (!r.shapes.empty()) {
        out += tr("Tensors of this size:") + QLatin1Char('\n');
        for (const ShapeGuess& g : r.shapes) out += QStringLiteral("  %1\n").arg(shapeText(g));
        out += QLatin1Char('\n');
    }
    if (!r.fixes.isEmpty()) {
        out += r.context.isEmpty() ? tr("Fixes:") : tr("Fixes for %1, most saving first:").arg(r.context);
        out += QLatin1Char('\n');
        int i = 1;
        for (const OomFix& f : r.fixes) {
            out += QStringLiteral("  %1. %2").arg(i++).arg(f.title);
            if (f.savedBytes >= 0) out += QStringLiteral(" (%1)").arg(tr("saves %1").arg(binary(f.savedBytes)));
            out += QStringLiteral("\n     %1\n").arg(f.detail);
        }
    }
    return out;
}

QString OomReportBuilder::html(const OomReport& r, bool withFacts) {
    QString h = QStringLiteral("<h2>%1</h2>").arg(r.title.toHtmlEscaped());
    if (withFacts && !r.facts.isEmpty()) {
        h += QStringLiteral("<table cellspacing='2' cellpadding='3'>");
        for (const OomFact& f : r.facts)
            h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(f.label.toHtmlEscaped(), f.value.toHtmlEscaped());
        h += QStringLiteral("</table>");
    }
    for (const QString& p : r.explanation) h += QStringLiteral("<p>%1</p>").arg(p.toHtmlEscaped().replace('\n', "<br>"));
    if (!r.shapes.empty()) {
        h += QStringLiteral("<h3>%1</h3><ul>").arg(tr("Tensors of this size").toHtmlEscaped());
        for (const ShapeGuess& g : r.shapes)
            h += QStringLiteral("<li><code>%1</code> — %2</li>").arg(shapeText(g).toHtmlEscaped(), binary(g.bytes));
        h += QStringLiteral("</ul>");
    }
    if (!r.fixes.isEmpty()) {
        const QString heading = r.context.isEmpty() ? tr("Fixes") : tr("Fixes for %1, most saving first").arg(r.context);
        h += QStringLiteral("<h3>%1</h3><ol>").arg(heading.toHtmlEscaped());
        for (const OomFix& f : r.fixes) {
            h += QStringLiteral("<li><b>%1</b>").arg(f.title.toHtmlEscaped());
            if (f.savedBytes >= 0) h += QStringLiteral(" — %1").arg(tr("saves %1").arg(binary(f.savedBytes)).toHtmlEscaped());
            h += QStringLiteral("<br>%1").arg(f.detail.toHtmlEscaped());
            if (!f.lessonId.isEmpty())
                h += QStringLiteral(" <a href='lesson:%1'>%2</a>").arg(f.lessonId, tr("Open the lesson").toHtmlEscaped());
            h += QStringLiteral("</li>");
        }
        h += QStringLiteral("</ol>");
    }
    return h;
}

} // namespace memviz
