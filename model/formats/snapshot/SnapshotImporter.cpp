// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotImporter.h"

#include <algorithm>
#include <unistd.h>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/snapshot/SnapshotBuilder.h"
#include "formats/snapshot/SnapshotReader.h"
#include "formats/snapshot/SnapshotRows.h"
#include "formats/snapshot/StackTable.h"
#include "io/InputFile.h"
#include "pickle/PickleReader.h"
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

} // namespace

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
    const std::uint64_t limit = memory / 5;
    std::string bytes = in.readAll(static_cast<std::size_t>(limit));
    const std::int64_t total = in.fileSize() > 0 ? in.fileSize() : 1;
    progress.update(total / 10, total);
    const int protocol = bytes.size() > 1 ? static_cast<unsigned char>(bytes[1]) : 0;

    pickle::Limits limits;
    limits.maxValues = std::max<std::uint64_t>(1u << 20, memory / 64); // 16-byte values in a quarter of memory
    const pickle::Document doc = pickle::parse(std::move(bytes), limits, [&](std::uint64_t done, std::uint64_t all) {
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
