// SPDX-License-Identifier: MIT
#include "formats/FormatRegistry.h"

#include <filesystem>
#include <sys/stat.h>

#include "core/Errors.h"
#include "core/ImportStages.h"
#include "core/Progress.h"
#include "formats/alloclog/AllocLogImporter.h"
#include "formats/heaptrack/HeaptrackImporter.h"
#include "formats/heaptrack/HeaptrackSchema.h"
#include "formats/live/LiveSchema.h"
#include "formats/live/LiveNativeSchema.h"
#include "formats/massif/MassifImporter.h"
#include "formats/massif/MassifSchema.h"
#include "formats/memtimeline/MemoryTimelineImporter.h"
#include "formats/profiler/ChromeTraceImporter.h"
#include "formats/profiler/ProfilerSchema.h"
#include "formats/snapshot/SnapshotImporter.h"
#include "ranks/GatheredRanksSchema.h"
#include "formats/snapshot/SnapshotSchema.h"
#include "io/InputFile.h"
#include "store/ImportJournal.h"
#include "store/TraceWriter.h"

namespace memviz {

const std::vector<FormatEntry>& allFormats() {
    static const std::vector<FormatEntry> formats = [] {
        std::vector<FormatEntry> v;
        const auto add = [&v](std::unique_ptr<Importer> importer, std::vector<SchemaStep> schema) {
            v.push_back({std::move(importer), std::move(schema)});
        };
        // One line per format: its importer, and the schema steps of its tables.
        add(std::make_unique<AllocLogImporter>(), {});
        add(std::make_unique<ChromeTraceImporter>(), {{3, kProfilerSchemaSql}});
        add(std::make_unique<MemoryTimelineImporter>(), {});
        add(std::make_unique<HeaptrackImporter>(), {{2, kHeaptrackSchemaSql},
                                                    {7, kHeaptrackChunksSchemaSql},
                                                    {11, kHeaptrackFrameChunksSchemaSql},
                                                    {12, kHeaptrackNarrowChunksSql}});
        add(std::make_unique<MassifImporter>(), {{2, kMassifSchemaSql}});
        add(std::make_unique<SnapshotImporter>(), {{4, kSnapshotSchemaSql}, {4, kSnapshotIndexesSql}, {7, kSnapshotContextSchemaSql}, {15, kSnapshotStreamSchemaSql}});
        add(nullptr, {{5, kLiveSchemaSql}, {6, kLiveNativeSchemaSql}, {14, kLiveStoragesSchemaSql}}); // live recordings (formats/live): recorded, not imported
        add(nullptr, {{13, kGatheredRanksSchemaSql}}); // a gathered rank set (ranks/GatheredRanks.h): gathered, not imported
        return v;
    }();
    return formats;
}

// The store's migrations ask the registry for the formats' tables (store/Schema.h).
const std::vector<SchemaStep>& formatSchemaSteps() {
    static const std::vector<SchemaStep> steps = [] {
        std::vector<SchemaStep> v;
        for (const FormatEntry& f : allFormats()) v.insert(v.end(), f.schema.begin(), f.schema.end());
        return v;
    }();
    return steps;
}

const std::vector<const Importer*>& allImporters() {
    static const std::vector<const Importer*> list = [] {
        std::vector<const Importer*> v;
        for (const FormatEntry& f : allFormats())
            if (f.importer) v.push_back(f.importer.get());
        return v;
    }();
    return list;
}

const Importer* importerById(std::string_view id) {
    for (const Importer* imp : allImporters())
        if (imp->id() == id) return imp;
    return nullptr;
}

const Importer& detectImporter(const std::string& path) {
    const std::string head = InputFile::head(path, kSniffBytes);
    if (head.empty()) {
        // A missing, unreadable, or corrupt / truncated compressed file throws its own error here.
        InputFile probe(path);
        char byte = 0;
        probe.read(&byte, 1);
        throw ImportError(path + ": the file is empty");
    }
    const std::string fileName = std::filesystem::path(path).filename().string();
    const Importer* best = nullptr;
    int bestScore = 0;
    for (const Importer* imp : allImporters()) {
        const int score = imp->sniff(head, fileName);
        if (score > bestScore) {
            bestScore = score;
            best = imp;
        }
    }
    if (!best) throw ImportError(path + ": unrecognised file format (none of the supported formats matches its content)");
    return *best;
}

std::int64_t importFile(Database& db, const std::string& path, const Progress& progress, const std::string& formatId) {
    const Importer* importer = nullptr;
    if (!formatId.empty()) {
        importer = importerById(formatId);
        if (!importer) throw ImportError("unknown format id \"" + formatId + "\"");
    } else {
        importer = &detectImporter(path);
    }
    InputFile in(path);
    TraceInfo info;
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    info.sourcePath = ec ? path : absolute.lexically_normal().string();
    info.format = importer->id();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        info.sourceSize = st.st_size;
        info.sourceMtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    const ImportJournal journal(db); // the first trace of a store is written once, not via the log
    TraceWriter writer(db, info);
    progress.enterPhase(ProgressPhase::Reading);
    importer->run(in, writer, progress);
    progress.checkCancelled();
    progress.enterPhase(ProgressPhase::Writing);
    const auto id = writer.commit();
    importStage("committed");
    return id;
}

} // namespace memviz
