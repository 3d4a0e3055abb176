// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotImporter.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/Errors.h"
#include "core/PreviewSink.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "core/ImportStages.h"
#include "formats/snapshot/SnapshotBuilder.h"
#include "formats/snapshot/SnapshotReader.h"
#include "formats/snapshot/SnapshotRows.h"
#include "formats/snapshot/SnapshotStream.h"
#include "formats/snapshot/StackTable.h"
#include "io/InputFile.h"
#include "pickle/PickleReader.h"
#include "pickle/PickleStream.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

// A parsed pickle takes about four times its size in memory; refuse (with a clear message)
// what this machine cannot hold rather than run out of memory half-way.
std::uint64_t physicalMemory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) : (8ull << 30);
}

constexpr std::int64_t kBuildPageCacheKiB = 8192;
// A trace entry as PyTorch pickles it takes 60 to 80 bytes or more (a dict of eight or more keys
// fetched from the memo, an address, a size, a time, frames); the benchmark's 1 GB file, 78.
constexpr std::uint64_t kFewestBytesPerEntry = 48;

std::atomic<int> fallbacks{0};
std::atomic<std::uint64_t> entriesStreamed{0};
std::atomic<std::uint64_t> entriesReplayedEarly{0};

pickle::Limits limitsFor(std::uint64_t memory) {
    pickle::Limits limits;
    limits.maxValues = std::max<std::uint64_t>(1u << 20, memory / 64); // 16-byte values in a quarter of memory
    return limits;
}

// The reader's small blocks (memo pages of Known values, 20 KB each: 170 MB of a 3 GB snapshot
// with a frames list per entry) are freed now but stay resident in the heap, under the replay's
// allocations that come next (issue 33: 1.10 GB peak instead of 0.92).
void returnFreedMemory() {
#ifdef __GLIBC__
    ::malloc_trim(0);
#endif
}

struct Warning {
    std::string kind, where, message;
};

// The streaming path (SnapshotStream): the file is read through a window and the value tree
// is never held whole. False when the pickle does something it cannot honour exactly; nothing
// has been written then.
bool importStreaming(InputFile& in, TraceWriter& out, const Progress& progress, std::uint64_t memory) {
    in.holdWhole(); // the same ceiling against decompression bombs as a file read whole
    importStage("start", true);
    const std::int64_t total = in.fileSize() > 0 ? in.fileSize() : 1;
    std::vector<Warning> warnings; // given only if the stream succeeds (a fallback warns again)
    const snapshot::WarnFn warn = [&warnings](std::string_view kind, std::string_view where, std::string_view msg) {
        warnings.push_back({std::string(kind), std::string(where), std::string(msg)});
    };
    pickle::Document doc;
    snapshot::StackTable stacks(doc);
    std::optional<snapshot::SnapshotData> data;
    std::vector<snapshot::ReplayedEntries> replays;
    try {
        snapshot::SnapshotStream sink(doc, stacks, progress, warn);
        // At most a quarter of memory's worth each: address space beyond the machine's memory
        // may be refused (overcommit), where growing as needed would have worked.
        if (in.compression() == Compression::None && in.fileSize() > 0)
            sink.expectEntriesUpTo(std::min(static_cast<std::uint64_t>(in.fileSize()) / kFewestBytesPerEntry,
                                            memory / 4 / sizeof(snapshot::Entry)));
        std::int64_t nextProgress = 0;
        const pickle::ByteSource source = [&](char* dst, std::size_t n) {
            if (in.fileOffset() >= nextProgress) {
                progress.update(in.fileOffset() * 7 / 10, total);
                nextProgress = in.fileOffset() + (16 << 20);
            }
            return in.read(dst, n);
        };
        pickle::parseStream(doc, source, sink, limitsFor(memory));
        importStage("parsed");
        data = sink.finish();
        replays = sink.takeReplays();
        entriesStreamed += sink.streamedEntries();
    } catch (const pickle::StreamFallback& e) {
        if (std::getenv("MEMVIZ_SNAPSHOT_STREAM_DEBUG")) std::fprintf(stderr, "memviz: %s; reading the whole tree\n", e.what());
        ++fallbacks;
        if (PreviewSink* preview = previewSink()) preview->restart(); // its points may be wrong
        return false;
    }
    const int protocol = doc.protocol();
    doc = pickle::Document(); // the records hold everything now
    stacks.doneReading();
    returnFreedMemory();
    importStage("freed");
    for (const Warning& w : warnings) out.warn(w.kind, w.where, w.message);
    progress.update(total * 7 / 10, total);
    // The records stay in memory while the builder writes, and its rows are appended in order:
    // a big page cache would only add to the peak (issue 12: 36 MB for a 102 MB file).
    out.limitPageCache(kBuildPageCacheKiB);
    snapshot::SnapshotBuilder builder(out, stacks, *data);
    builder.setPickleProtocol(protocol);
    builder.useReplays(std::move(replays));
    builder.build(progress);
    entriesReplayedEarly += builder.entriesReplayedWhileReading();
    importStage("built");
    progress.update(total, total);
    return true;
}

} // namespace

int SnapshotImporter::streamFallbacks() { return fallbacks.load(); }
std::uint64_t SnapshotImporter::streamedEntries() { return entriesStreamed.load(); }
std::uint64_t SnapshotImporter::entriesReplayedWhileReading() { return entriesReplayedEarly.load(); }

bool SnapshotImporter::streamingEnabled() {
    const char* v = std::getenv("MEMVIZ_SNAPSHOT_STREAM");
    return !v || std::strcmp(v, "0") != 0;
}

std::string SnapshotImporter::id() const { return format_id::kSnapshot; }

std::vector<std::string> SnapshotImporter::filePatterns() const {
    return {"*.pickle", "*.pkl", "*.pickle.gz", "*.pkl.gz", "*.pickle.zst", "*.pkl.zst"};
}

int SnapshotImporter::sniff(std::string_view head, std::string_view) const {
    // Protocol 2+ pickles start with PROTO (0x80) and the protocol number.
    if (head.size() < 2 || static_cast<unsigned char>(head[0]) != 0x80 || head[1] < 2 || head[1] > 5) return 0;
    const bool dictForm = head.find("segments") != std::string_view::npos &&
                          (head.find("device_traces") != std::string_view::npos ||
                           head.find("total_size") != std::string_view::npos);
    const bool listForm = head.find("total_size") != std::string_view::npos && head.find("blocks") != std::string_view::npos;
    // Any other pickle still comes here, to be told clearly that it is not a snapshot.
    return dictForm || listForm ? 100 : 10;
}

void SnapshotImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    const std::uint64_t memory = physicalMemory();
    if (streamingEnabled()) {
        if (importStreaming(in, out, progress, memory)) return;
        // Read the whole tree, from the start of the file again.
        InputFile again(in.path());
        readWhole(again, out, progress, memory);
        return;
    }
    readWhole(in, out, progress, memory);
}

void SnapshotImporter::readWhole(InputFile& in, TraceWriter& out, const Progress& progress, std::uint64_t memory) {
    const std::uint64_t limit = memory / 5;
    std::string bytes = in.readAll(static_cast<std::size_t>(limit));
    const std::int64_t total = in.fileSize() > 0 ? in.fileSize() : 1;
    progress.update(total / 10, total);
    const int protocol = bytes.size() > 1 ? static_cast<unsigned char>(bytes[1]) : 0;

    const pickle::Document doc = pickle::parse(std::move(bytes), limitsFor(memory), [&](std::uint64_t done, std::uint64_t all) {
        progress.update(total / 10 + static_cast<std::int64_t>(static_cast<double>(done) / static_cast<double>(all) *
                                                               static_cast<double>(total) * 0.5),
                        total);
    });
    snapshot::StackTable stacks(doc);
    const snapshot::SnapshotData data = snapshot::readSnapshot(
        doc, stacks, progress,
        [&out](std::string_view kind, std::string_view where, std::string_view msg) { out.warn(kind, where, msg); });
    progress.update(total * 7 / 10, total);
    snapshot::SnapshotBuilder builder(out, stacks, data);
    builder.setPickleProtocol(protocol);
    builder.build(progress);
    progress.update(total, total);
}

} // namespace memviz
