#include "formats/FormatRegistry.h"

#include <filesystem>
#include <sys/stat.h>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/alloclog/AllocLogImporter.h"
#include "formats/memtimeline/MemoryTimelineImporter.h"
#include "formats/profiler/ChromeTraceImporter.h"
#include "formats/heaptrack/HeaptrackImporter.h"
#include "formats/massif/MassifImporter.h"
#include "formats/snapshot/SnapshotImporter.h"
#include "io/InputFile.h"
#include "store/TraceWriter.h"

namespace memviz {

const std::vector<std::unique_ptr<Importer>>& allImporters() {
    static const std::vector<std::unique_ptr<Importer>> list = [] {
        std::vector<std::unique_ptr<Importer>> v;
        // One line per format.
        v.push_back(std::make_unique<AllocLogImporter>());
        v.push_back(std::make_unique<ChromeTraceImporter>());
        v.push_back(std::make_unique<MemoryTimelineImporter>());
        v.push_back(std::make_unique<HeaptrackImporter>());
        v.push_back(std::make_unique<MassifImporter>());
        v.push_back(std::make_unique<SnapshotImporter>());
        return v;
    }();
    return list;
}

const Importer* importerById(std::string_view id) {
    for (const auto& imp : allImporters())
        if (imp->id() == id) return imp.get();
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
    for (const auto& imp : allImporters()) {
        const int score = imp->sniff(head, fileName);
        if (score > bestScore) {
            bestScore = score;
            best = imp.get();
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
    TraceWriter writer(db, info);
    progress.enterPhase(ProgressPhase::Reading);
    importer->run(in, writer, progress);
    progress.checkCancelled();
    progress.enterPhase(ProgressPhase::Writing);
    return writer.commit();
}

} // namespace memviz
