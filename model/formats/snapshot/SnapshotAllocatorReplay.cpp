// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotAllocatorReplay.h"

#include "formats/FormatIds.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"

namespace memviz {

costmodel::AllocatorReplayInput loadAllocatorReplayInput(Database& db, std::int64_t traceId, int device) {
    using costmodel::RecordedBlock;
    costmodel::AllocatorReplayInput in;
    for (const SnapshotSegmentRow& s : loadSegments(db, traceId, device))
        in.segments.push_back({s.address, s.totalSize, s.stream, s.stack, s.expandable});
    for (const SnapshotBlockRow& b : loadBlocks(db, traceId, device)) {
        RecordedBlock::State state = RecordedBlock::State::Inactive;
        if (b.state == "active_allocated") state = RecordedBlock::State::Allocated;
        else if (b.state == "active_pending_free") state = RecordedBlock::State::PendingFree;
        else if (b.state != "inactive") continue;
        in.blocks.push_back({b.address, b.size, b.requestedSize, state});
    }
    in.entries = loadEntries(db, traceId, device, 0);
    Statement streams(db, "SELECT first_seq, last_seq, stream FROM snapshot_entry_streams WHERE trace_id = ? AND device = ?");
    streams.bind(1, traceId).bind(2, device);
    while (streams.step()) {
        if (in.streams.empty()) in.streams.assign(in.entries.size(), 0);
        const std::int64_t last = std::min<std::int64_t>(streams.int64(1), static_cast<std::int64_t>(in.entries.size()) - 1);
        const std::int64_t stream = streams.int64(2);
        for (std::int64_t k = std::max<std::int64_t>(0, streams.int64(0)); k <= last; ++k) in.streams[static_cast<std::size_t>(k)] = stream;
    }
    Statement legacy(db, "SELECT count(*) FROM snapshot_action_counts WHERE trace_id = ? AND device = ? AND action = 'free'");
    legacy.bind(1, traceId).bind(2, device);
    in.legacyFrees = legacy.step() && legacy.int64(0) > 0;
    std::vector<std::pair<std::string, std::string>> settings;
    Statement m(db, "SELECT key, value FROM trace_metadata WHERE trace_id = ? AND key LIKE ? ORDER BY key");
    const std::string prefix = std::string(metadata_key::kAllocatorSettings) + ".";
    m.bind(1, traceId).bind(2, prefix + "%");
    while (m.step()) settings.emplace_back(m.text(0).substr(prefix.size()), m.text(1));
    in.config = costmodel::allocatorConfigFromSettings(settings);
    return in;
}

} // namespace memviz
