// SPDX-License-Identifier: MIT
// The fuzz targets (see FuzzTargets.h): one function per parser entry point.
#include "FuzzTargets.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>
#include <vector>
#include <zstd.h>

#include "FuzzPickleStream.h"
#include "FuzzStore.h"
#include "core/Errors.h"
#include "core/PreviewSink.h"
#include "costmodel/CostModel.h"
#include "budget/BudgetFile.h"
#include "costmodel/FitPlan.h"
#include "costmodel/HfConfig.h"
#include "costmodel/Safetensors.h"
#include "costmodel/SpecParser.h"
#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "formats/live/HeaptrackStream.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeProtocol.h"
#include "formats/live/ProbeStreamWriter.h"
#include "io/InputFile.h"
#include "pickle/PickleReader.h"
#include "formats/snapshot/SnapshotAllocatorReplay.h"
#include "formats/snapshot/SnapshotCodec.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "ranks/SlurmJob.h"
#include "workshop/OomDiagnosis.h"
#include "workshop/OomMessage.h"

namespace memviz::fuzz {

namespace {

// Importers, through importFile() as a user's file goes; the format is fixed so that every
// input reaches the parser under test (the sniffers have a target of their own).
Outcome allocLog(std::string_view d) { return importBytes("memviz-alloc-log", d); }
Outcome chromeTrace(std::string_view d) { return importBytes("pytorch-profiler", d); }
Outcome memoryTimeline(std::string_view d) { return importBytes("pytorch-memory-timeline", d); }
// The live preview of a streamed import (core/PreviewSink.h): a device's points never go back
// in x between restarts.
struct PreviewOrder : PreviewSink {
    std::vector<std::pair<std::string, std::int64_t>> lastX;
    void preview(const PreviewBatch& b) override {
        auto it = std::find_if(lastX.begin(), lastX.end(), [&](const auto& d) { return d.first == b.device; });
        if (it == lastX.end()) it = lastX.insert(lastX.end(), {b.device, INT64_MIN});
        for (const PreviewPoint& p : b.points) {
            if (p.x < it->second) finding("preview points of a device go back in x");
            it->second = p.x;
        }
    }
    void restart() override { lastX.clear(); }
};

// The allocator replay of every CUDA device of an accepted snapshot (costmodel/AllocatorReplay),
// with a gap and a card: the gap's parts add up to reserved, whatever the file holds.
void replayDevices(Database& db, std::int64_t traceId) {
    for (const SnapshotDeviceStats& d : loadSnapshotOverview(db, traceId).devices) {
        if (d.cudaDevice < 0) continue;
        costmodel::AllocatorReplayInput in = loadAllocatorReplayInput(db, traceId, d.device);
        in.gapAt = 0;
        in.cardBytes = std::int64_t{64} << 20;
        const costmodel::AllocatorReplayResult r = costmodel::replayAllocator(in);
        for (const auto* g : {r.gapAt ? &*r.gapAt : nullptr, r.cardFailure ? &r.cardFailure->gap : nullptr})
            if (g && g->reserved != g->requested + g->rounding + g->splitFreeSmall + g->splitFreeLarge + g->pendingFree + g->cachedSegments)
                finding("the allocator replay's gap does not add up to reserved");
    }
}

// The importer (which streams, with a preview), the streaming reader in chunks against the
// whole tree, and the allocator replay of what was stored.
Outcome snapshot(std::string_view d) {
    checkSnapshotStream(d);
    PreviewOrder preview;
    const ScopedPreviewSink scope(&preview);
    return importBytes("pytorch-cuda-snapshot", d, replayDevices);
}
Outcome heaptrack(std::string_view d) { return importBytes("heaptrack", d); }
Outcome massif(std::string_view d) { return importBytes("massif", d); }
Outcome anyFormat(std::string_view d) { return importBytes("", d); }

// The safe unpickler alone, and a walk over everything it built.
Outcome pickleReader(std::string_view d) {
    Outcome o;
    try {
        const pickle::Document doc = pickle::parse(std::string(d));
        if (doc.depth(doc.root()) > pickle::Limits{}.maxDepth) finding("a pickle nested deeper than the limit was accepted");
        pickle::debugString(doc, doc.root(), 8, 65536);
        o.accepted = true;
    } catch (const pickle::PickleError& e) {
        o.message = e.what();
    }
    checkPickleStream(d, o); // the streaming reader, in chunks, must agree
    return o;
}

// The probe stream as ProbeRecorder records it: line by line into a live recording, then
// finalised into the ordinary trace shape.
Outcome probeStream(std::string_view d) {
    Database& db = scratchStore();
    Outcome o;
    std::int64_t traceId = 0;
    {
        LiveRecordingSpec spec;
        spec.source = "probe";
        spec.format = kLiveProbeFormat;
        spec.title = "fuzz";
        spec.epochNs = 0;
        LiveWriter writer(db, spec);
        traceId = writer.traceId();
        ProbeStreamWriter stream(writer);
        LiveEnd end{"disconnected", {}, {}, {}};
        std::int64_t now = 1'000'000'000;
        try {
            while (!d.empty()) {
                const std::size_t nl = d.find('\n');
                stream.applyLine(d.substr(0, nl), now);
                d = nl == std::string_view::npos ? std::string_view() : d.substr(nl + 1);
                now += 1'000'000;
                if (stream.saidBye()) {
                    end.reason = "exited";
                    end.exitCode = stream.exitCode();
                    break;
                }
                writer.commitIfDue(now);
            }
            o.accepted = true;
        } catch (const ProbeProtocolError& e) {
            end.reason = "error";
            end.message = e.what();
            o.message = e.what();
        }
        writer.setEnd(end);
        writer.commit();
    }
    finalizeLiveRecording(db, traceId);
    deleteTrace(traceId);
    return o;
}

// heaptrack's two live streams as `record --native` follows them (HeaptrackStream.h): fed once
// whole and once in chunks whose sizes the input itself chooses. The readers carry a cut line
// over to the next chunk, so the figures must not depend on where the chunks were cut; and
// what they report must add up (the sites' bytes and calls are the totals' parts, the last
// tick is the state now).
template <typename Stream>
void feedInChunks(Stream& stream, std::string_view d) {
    std::size_t seed = d.size();
    while (!d.empty()) {
        seed = seed * 31 + static_cast<unsigned char>(d[seed % d.size()]);
        const std::size_t n = std::min(d.size(), 1 + seed % 61);
        stream.feed(d.substr(0, n));
        d.remove_prefix(n);
    }
}

Outcome heaptrackRaw(std::string_view d) {
    HeaptrackRawStream whole, cut;
    whole.feed(d);
    feedInChunks(cut, d);
    if (whole.consumed() != cut.consumed() || whole.peakConsumed() != cut.peakConsumed() ||
        whole.calls() != cut.calls() || whole.timeMs() != cut.timeMs())
        finding("the raw heaptrack stream's figures depend on how it was cut into chunks");
    if (whole.peakConsumed() < whole.consumed()) finding("the raw stream's peak is below the heap now");
    const std::vector<HeaptrackTick> ticks = cut.takeTicks();
    if (cut.calls() > 0 && (ticks.empty() || ticks.back().consumed != cut.consumed() || ticks.back().calls != cut.calls()))
        finding("the raw stream's last tick is not the state now");
    return {true, {}};
}

Outcome heaptrackInterpreted(std::string_view d) {
    HeaptrackStream whole, cut;
    whole.feed(d);
    feedInChunks(cut, d);
    if (whole.consumed() != cut.consumed() || whole.peakConsumed() != cut.peakConsumed() ||
        whole.calls() != cut.calls() || whole.temporary() != cut.temporary() || whole.lines() != cut.lines() ||
        whole.timeMs() != cut.timeMs() || whole.fileVersion() != cut.fileVersion())
        finding("the interpreted heaptrack stream's figures depend on how it was cut into chunks");
    const std::vector<HeaptrackLiveSite> a = whole.topSites(SIZE_MAX), b = cut.topSites(SIZE_MAX);
    if (a.size() != b.size()) finding("the interpreted stream's sites depend on the chunks");
    std::uint64_t bytes = 0;
    std::int64_t calls = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].function != b[i].function || a[i].location != b[i].location || a[i].bytes != b[i].bytes ||
            a[i].peakBytes != b[i].peakBytes || a[i].calls != b[i].calls)
            finding("the interpreted stream's sites depend on the chunks");
        if (i > 0 && a[i].bytes > a[i - 1].bytes) finding("topSites() is not ordered by the bytes held");
        bytes += static_cast<std::uint64_t>(a[i].bytes);
        calls += a[i].calls;
    }
    if (static_cast<std::int64_t>(bytes) != whole.consumed() || calls != whole.calls())
        finding("the sites' bytes or calls do not add up to the stream's totals");
    return {true, {}};
}

// `memviz explain`: the message parser and the diagnosis built on it.
Outcome oomMessage(std::string_view d) {
    const workshop::OomMessage m = workshop::parseOomMessage(d);
    if (m.recognized()) workshop::diagnose(m);
    return {m.recognized(), {}};
}

// `memviz estimate --spec`: the parser (with its shape checks), the estimate, and the spec
// written back as JSON (--print-spec), which must read again as the same model.
Outcome modelSpec(std::string_view d) {
    Outcome o;
    try {
        const costmodel::ModelSpec spec = costmodel::parseModelSpec(d, "fuzz.json");
        const std::string again = costmodel::modelSpecToJson(spec);
        try {
            if (costmodel::modelSpecToJson(costmodel::parseModelSpec(again, "printed")) != again)
                finding("a spec printed by --print-spec reads back as a different model:\n" + again);
        } catch (const costmodel::SpecError& e) {
            finding(std::string("a spec printed by --print-spec does not read back: ") + e.what() + "\n" + again);
        }
        costmodel::EstimateOptions options;
        options.timeline = false;
        costmodel::estimate(spec, options);
        o.accepted = true;
    } catch (const costmodel::SpecError& e) {
        o.message = e.what();
    }
    return o;
}

// `memviz check --budgets FILE.json` (BudgetFile): every budget it accepts must print back as an
// option the command line reads as the same budget.
Outcome budgetsFile(std::string_view d) {
    Outcome o;
    try {
        for (const Budget& b : parseBudgetFile(d, "fuzz.json")) {
            const Budget again = b.kind == BudgetKind::Category || b.kind == BudgetKind::Op || b.kind == BudgetKind::Site
                                     ? parseMaxBudget(b.value, "again")
                                     : parseBudget(b.kind, b.value, "again");
            if (again.kind != b.kind || again.maxBytes != b.maxBytes || again.name != b.name || again.device != b.device)
                finding("a budget reads differently from the command line: " + b.value);
        }
        o.accepted = true;
    } catch (const BudgetError& e) {
        o.message = e.what();
    }
    return o;
}

// What `memviz ranks --slurm` reads from Slurm (ranks/SlurmJob.h): `scontrol show job -o`
// records, an array's task list, `sbatch --parsable`'s job id. Every record's task list must
// print back (arraySpec) as a list that reads as the same tasks.
Outcome slurmOutput(std::string_view d) {
    Outcome o;
    const std::string text(d);
    for (const SlurmJobState& s : parseScontrolJobs(text)) {
        if (s.arrayTaskIds.empty()) continue;
        const auto again = parseArrayTaskIds(arraySpec(s.arrayTaskIds, 0));
        std::vector<int> sorted = s.arrayTaskIds;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        if (!again || *again != sorted) finding("a task list reads back as other tasks");
    }
    try {
        o.message = parseSbatchJobId(text);
        o.accepted = true;
    } catch (const SlurmJobError& e) {
        o.message = e.what();
    }
    return o;
}

// A .safetensors header (the 8-byte length, then the JSON): only the header is read. An
// accepted header's counts must be consistent: the parameters are the elements less the
// buffers, the per-dtype counts add up to the elements.
Outcome safetensorsHeader(std::string_view d) {
    Outcome o;
    try {
        const costmodel::SafetensorsCount c =
            costmodel::readSafetensorsHeader(d, static_cast<std::int64_t>(d.size()), "fuzz.safetensors");
        std::int64_t sum = 0;
        for (const auto& [dtype, n] : c.elementsByDtype) sum += n;
        if (sum != c.elements || c.parameterCount != c.elements - c.bufferElements || c.parameterCount < 0)
            finding("a safetensors header's counts do not add up");
        o.accepted = true;
    } catch (const costmodel::SafetensorsError& e) {
        o.message = e.what();
    }
    return o;
}

// A Hugging Face config.json: the reader, then the spec it gives at a short sequence, resolved
// (shape checks). The estimate itself is the model_spec target's; here only tiny models run it.
Outcome hfConfig(std::string_view d) {
    Outcome o;
    try {
        const costmodel::HfModel m = costmodel::readHfConfig(d, "config.json");
        if (m.parameterCount <= 0) finding("a config was accepted with no parameters");
        // fitModelFromHf resolves the spec (the weights held to the count); a small model is planned too
        const costmodel::FitModel f = costmodel::fitModelFromHf(m, std::min<std::int64_t>(8, std::max<std::int64_t>(1, m.maxPositions)));
        if (m.parameterCount < 100'000) {
            costmodel::PlanOptions p;
            p.estimate.timeline = false;
            costmodel::planStep(f, p);
        }
        o.accepted = true;
    } catch (const costmodel::HfConfigError& e) {
        o.message = e.what();
    } catch (const costmodel::SpecError& e) {
        o.message = e.what();
    }
    return o;
}

// InputFile's gzip/zstd layer: small odd-sized reads, then everything at once, then the head.
Outcome inputFile(std::string_view d) {
    const std::string path = asFile(d);
    Outcome o;
    try {
        std::int64_t total = 0;
        {
            InputFile in(path);
            char buf[4099];
            std::size_t ask = 1;
            while (const std::size_t n = in.read(buf, ask)) {
                total += static_cast<std::int64_t>(n);
                if (in.dataOffset() != total) finding("dataOffset() disagrees with the bytes read");
                if (in.fileOffset() > in.fileSize()) finding("fileOffset() is past the end of the file");
                ask = ask * 7 % sizeof buf + 1;
            }
        }
        InputFile again(path);
        const std::string all = again.readAll(std::size_t{1} << 30, 64);
        if (static_cast<std::int64_t>(all.size()) != total) finding("readAll() and read() disagree on the data");
        const std::string head = InputFile::head(path, 4096);
        if (head != std::string_view(all).substr(0, 4096)) finding("head() differs from the start of the data");
        o.accepted = true;
    } catch (const ImportError& e) {
        o.message = e.what();
    }
    return o;
}

// The chunk BLOBs of a hostile store (ChunkCodec, ColumnChunk, SnapshotCodec, the heaptrack
// chunks). Byte 0 picks the decoder (bits 0-1: events, points, records, snapshot allocations;
// with bit 6: heaptrack nodes, site stacks, ips, strings; bits 3-5: records' columns minus one,
// or the heaptrack node chunk's first node as 16^value) and whether the rest is a chunk's raw
// content, compressed here so that mutations reach the layouts (bit 2), or the stored BLOB
// itself. A chunk that decodes must encode and decode again to the same values.
void heaptrackChunk(unsigned char mode, const std::vector<unsigned char>& blob) {
    switch (mode & 3) {
    case 0: {
        const auto first = static_cast<std::uint32_t>(1) << (4 * ((mode >> 3) & 7));
        const std::vector<HeaptrackStoredNode> nodes = decodeHeaptrackNodes(blob, first);
        if (decodeHeaptrackNodes(encodeHeaptrackNodes(nodes, first), first) != nodes)
            finding("decoded heaptrack nodes encode to other nodes");
        break;
    }
    case 1: {
        const std::vector<HeaptrackSiteStackEntry> entries = decodeHeaptrackSiteStacks(blob);
        if (decodeHeaptrackSiteStacks(encodeHeaptrackSiteStacks(entries)) != entries)
            finding("decoded heaptrack site stacks encode to other entries");
        break;
    }
    case 2: {
        const HeaptrackIpChunk ips = decodeHeaptrackIps(blob);
        if (decodeHeaptrackIps(encodeHeaptrackIps(ips)) != ips) finding("decoded heaptrack ips encode to other ips");
        break;
    }
    default: {
        const std::vector<std::string> strings = decodeHeaptrackStrings(blob);
        const std::vector<std::string_view> views(strings.begin(), strings.end());
        if (decodeHeaptrackStrings(encodeHeaptrackStrings(views)) != strings)
            finding("decoded heaptrack strings encode to other strings");
        break;
    }
    }
}

Outcome storeChunks(std::string_view d) {
    if (d.empty()) return {};
    const auto mode = static_cast<unsigned char>(d[0]);
    std::vector<unsigned char> blob(d.begin() + 1, d.end());
    if (mode & 4) {
        std::vector<unsigned char> packed(ZSTD_compressBound(blob.size()));
        const std::size_t n = ZSTD_compress(packed.data(), packed.size(), blob.data(), blob.size(), 1);
        if (ZSTD_isError(n)) finding("zstd could not compress an input");
        packed.resize(n);
        blob = std::move(packed);
    }
    Outcome o;
    try {
        if (mode & 64) {
            heaptrackChunk(mode, blob);
            o.accepted = true;
            return o;
        }
        switch (mode & 3) {
        case 0: {
            const std::vector<Event> events = decodeEvents(blob);
            if (decodeEvents(encodeEvents(events)) != events) finding("decoded events encode to other events");
            break;
        }
        case 1: {
            const std::vector<SeriesPoint> points = decodePoints(blob);
            if (decodePoints(encodePoints(points)) != points) finding("decoded points encode to other points");
            break;
        }
        case 2: {
            const std::size_t columns = 1 + ((mode >> 3) & 7);
            const std::vector<std::int64_t> rows = decodeRecords(blob, columns);
            if (decodeRecords(encodeRecords(rows, columns), columns) != rows) finding("decoded records encode to other records");
            break;
        }
        default: {
            std::vector<SnapshotAllocationRow> rows;
            decodeAllocations(blob, 0, rows);
            std::vector<SnapshotAllocationRow> again;
            decodeAllocations(encodeAllocations(rows), 0, again);
            if (again.size() != rows.size()) finding("decoded allocations encode to another count");
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const SnapshotAllocationRow &a = rows[i], &b = again[i];
                if (a.address != b.address || a.requestedSize != b.requestedSize || a.blockSize != b.blockSize ||
                    a.allocSeq != b.allocSeq || a.freeSeq != b.freeSeq || a.tAlloc != b.tAlloc || a.tFree != b.tFree ||
                    a.stack != b.stack || a.freeStack != b.freeStack || a.origin != b.origin)
                    finding("decoded allocations encode to other allocations");
            }
            break;
        }
        }
        o.accepted = true;
    } catch (const StoreError& e) {
        o.message = e.what();
    }
    return o;
}

} // namespace

const std::vector<Target>& targets() {
    static const std::vector<Target> list = {
        {"alloclog_csv", allocLog, 16384, "allocation log, CSV (AllocLogCsv, AllocLogBuilder, TraceWriter)"},
        {"alloclog_jsonl", allocLog, 16384, "allocation log, JSON Lines (AllocLogJsonl, AllocLogBuilder, TraceWriter)"},
        {"chrome_trace", chromeTrace, 65536,
         "profiler Chrome trace (JsonEventStream, JsonSkip, ChromeEventParser, ProfilerTraceBuilder)"},
        {"memtimeline_raw", memoryTimeline, 32768, "memory timeline .raw.json (MemoryTimelineImporter)"},
        {"memtimeline_json", memoryTimeline, 32768, "memory timeline .json, [times, sizes] (MemoryTimelineImporter)"},
        {"pickle", pickleReader, 65536, "the safe unpickler (PickleReader)"},
        {"snapshot", snapshot, 131072, "CUDA snapshot pickle (PickleReader, SnapshotReader, SnapshotBuilder)"},
        {"heaptrack", heaptrack, 32768, "heaptrack text (HeaptrackReader, HeaptrackModel, HeaptrackStore)"},
        {"massif", massif, 32768, "massif.out (MassifReader)"},
        {"heaptrack_raw", heaptrackRaw, 16384, "heaptrack's raw pipe, live (HeaptrackRawStream)"},
        {"heaptrack_live", heaptrackInterpreted, 32768, "heaptrack_interpret's output, live (HeaptrackStream)"},
        {"probe", probeStream, 16384, "probe stream, protocol 1 (ProbeProtocol, ProbeStreamWriter, LiveFinalizer)"},
        {"oom_message", oomMessage, 8192, "OOM messages (OomMessage, OomDiagnosis)"},
        {"model_spec", modelSpec, 16384, "JSON model specs (SpecParser, ResolvedModel, the estimate)"},
        {"budgets", budgetsFile, 4096, "memviz check's budgets files (BudgetFile, Budget)"},
        {"safetensors_header", safetensorsHeader, 65536, "a .safetensors header (Safetensors: length, JSON, shapes, offsets)"},
        {"hf_config", hfConfig, 16384, "Hugging Face config.json (HfConfig, the spec it gives, resolved)"},
        {"input_file", inputFile, 65536, "InputFile's gzip / zstd layer"},
        {"sniff_import", anyFormat, 65536, "format sniffing, then the importer it picks"},
        {"slurm_output", slurmOutput, 16384, "Slurm's output as memviz ranks --slurm reads it (SlurmJob: scontrol, sbatch)"},
        {"store_chunks", storeChunks, 65536, "a store's chunk BLOBs (ChunkCodec, ColumnChunk, SnapshotCodec, heaptrack chunks)"},
    };
    return list;
}

const Target* findTarget(std::string_view name) {
    for (const Target& t : targets())
        if (name == t.name) return &t;
    return nullptr;
}

Outcome runGuarded(const Target& target, std::string_view data) {
    // Streamed data may expand to 32 GiB by default, which a 64 KiB zstd bomb nearly reaches
    // (2 GiB): minutes of decoding under the sanitizers, reported as a hang. The fuzz targets
    // keep the ratio ceiling and stop any stream at 64 MiB (docs/reliability.md).
    static const bool limited = [] {
        InputFile::setDecompressionLimits({64, 1 << 20, 64 << 20});
        return true;
    }();
    (void)limited;
    try {
        return target.run(data);
    } catch (const std::exception& e) {
        finding(std::string("unexpected ") + typeid(e).name() + " from " + target.name + ": " + e.what());
    } catch (...) {
        finding(std::string("unexpected non-standard exception from ") + target.name);
    }
}

} // namespace memviz::fuzz
