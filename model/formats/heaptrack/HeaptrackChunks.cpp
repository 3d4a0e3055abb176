// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackChunks.h"

#include <algorithm>
#include <string>

#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/ColumnChunk.h"
#include "store/Database.h"

namespace memviz {

namespace {

const std::string kNodesWhat = "heaptrack node chunk";
const std::string kStacksWhat = "heaptrack site stack chunk";
constexpr std::size_t kMaxChunkBytes = 64u << 20;
// Codec 1 row sizes, and the most a row takes in codec 2.
constexpr std::size_t kNodeBytes = 8;              // node - parent, ip (u32 each)
constexpr std::size_t kEntryBytes = 4 + 4 + 4 * 8; // site step, node (step within a site), 4 costs

// A site stack entry's four costs, in their column order.
constexpr std::int64_t HeaptrackSiteStackEntry::*kStackCosts[] = {
    &HeaptrackSiteStackEntry::allocations, &HeaptrackSiteStackEntry::temporary, &HeaptrackSiteStackEntry::peakBytes,
    &HeaptrackSiteStackEntry::leakedBytes};

// A narrow column of u32 values into set(i, value); nullptr when damaged or a value is not a u32.
template <typename Set>
const unsigned char* getU32Column(const unsigned char* p, const unsigned char* end, std::size_t n, Set&& set) {
    bool bad = false;
    p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) {
        bad |= v < 0 || v > std::int64_t{0xffffffff};
        set(i, static_cast<std::uint32_t>(v));
    });
    return bad ? nullptr : p;
}

} // namespace

// Node chunk (codec 2 since schema version 12): (node - parent) and ip as narrow columns
// (store/ColumnChunk.h). Parents are mostly the node just before, so the first column is nearly
// all small numbers and compresses to little. Codec 1 (u32 columns) is still read.
std::vector<unsigned char> encodeHeaptrackNodes(std::span<const HeaptrackStoredNode> nodes, std::uint32_t firstNode) {
    const std::size_t n = nodes.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), columns::kNarrowHeaderBytes + 2 * columns::kNarrowColumnHeaderBytes + n * kNodeBytes, true);
    columns::Bytes& raw = chunk.raw();
    columns::putNarrow(raw, n, [&](std::size_t i) { return static_cast<std::uint32_t>(firstNode + i - nodes[i].parent); });
    columns::putNarrow(raw, n, [&](std::size_t i) { return nodes[i].ip; });
    return chunk.compress();
}

std::vector<HeaptrackStoredNode> decodeHeaptrackNodes(std::span<const unsigned char> blob, std::uint32_t firstNode) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kNodesWhat);
    std::vector<std::uint32_t> steps;
    std::vector<HeaptrackStoredNode> out;
    if (const auto narrow = columns::narrowCount(raw, kHeaptrackNodesPerChunk, kNodesWhat)) {
        const std::size_t n = *narrow;
        steps.resize(n);
        out.resize(n);
        const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
        const unsigned char* end = raw.data() + raw.size();
        p = getU32Column(p, end, n, [&](std::size_t i, std::uint32_t v) { steps[i] = v; });
        if (p) p = getU32Column(p, end, n, [&](std::size_t i, std::uint32_t v) { out[i].ip = v; });
        if (!p || p != end) throw StoreError("damaged " + kNodesWhat + " in the store (narrow columns do not fill the chunk)");
    } else {
        const std::size_t n = columns::readCount(raw, kNodeBytes, kNodesWhat);
        steps.resize(n);
        out.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            steps[i] = columns::at<std::uint32_t>(raw.data() + 4, i);
            out[i].ip = columns::at<std::uint32_t>(raw.data() + 4 + n * 4, i);
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::uint64_t id = std::uint64_t{firstNode} + i;
        if (steps[i] == 0 || steps[i] > id) throw StoreError("damaged " + kNodesWhat + " in the store (a parent after its node)");
        out[i].parent = static_cast<std::uint32_t>(id - steps[i]);
    }
    return out;
}

// Site stack chunk (codec 2 since schema version 12; codec 1, fixed widths, is still read): the
// site as a step from the entry before (0 within a site), the node as a step from the one
// before within a site (its id at a site's first entry), then the costs, as narrow columns.
std::vector<unsigned char> encodeHeaptrackSiteStacks(std::span<const HeaptrackSiteStackEntry> e) {
    const std::size_t n = e.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), columns::kNarrowHeaderBytes + 6 * columns::kNarrowColumnHeaderBytes + n * kEntryBytes, true);
    columns::Bytes& raw = chunk.raw();
    columns::putNarrow(raw, n, [&](std::size_t i) { return static_cast<std::uint32_t>(e[i].site - (i ? e[i - 1].site : 0)); });
    columns::putNarrow(raw, n, [&](std::size_t i) {
        return static_cast<std::uint32_t>(i && e[i].site == e[i - 1].site ? e[i].node - e[i - 1].node : e[i].node);
    });
    columns::putNarrow(raw, n, [&](std::size_t i) { return e[i].allocations; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return e[i].temporary; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return e[i].peakBytes; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return e[i].leakedBytes; });
    return chunk.compress();
}

std::vector<HeaptrackSiteStackEntry> decodeHeaptrackSiteStacks(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kStacksWhat);
    std::vector<std::uint32_t> siteSteps, nodeValues;
    std::vector<HeaptrackSiteStackEntry> out;
    if (const auto narrow = columns::narrowCount(raw, kHeaptrackSiteStacksPerChunk, kStacksWhat)) {
        const std::size_t n = *narrow;
        siteSteps.resize(n);
        nodeValues.resize(n);
        out.resize(n);
        const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
        const unsigned char* end = raw.data() + raw.size();
        p = getU32Column(p, end, n, [&](std::size_t i, std::uint32_t v) { siteSteps[i] = v; });
        if (p) p = getU32Column(p, end, n, [&](std::size_t i, std::uint32_t v) { nodeValues[i] = v; });
        for (std::int64_t HeaptrackSiteStackEntry::*cost : kStackCosts)
            if (p) p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) { out[i].*cost = v; });
        if (!p || p != end) throw StoreError("damaged " + kStacksWhat + " in the store (narrow columns do not fill the chunk)");
    } else {
        const std::size_t n = columns::readCount(raw, kEntryBytes, kStacksWhat);
        siteSteps.resize(n);
        nodeValues.resize(n);
        out.resize(n);
        const unsigned char* p = raw.data() + 4;
        for (std::size_t i = 0; i < n; ++i) {
            siteSteps[i] = columns::at<std::uint32_t>(p, i);
            nodeValues[i] = columns::at<std::uint32_t>(p + n * 4, i);
        }
        p += n * 8;
        for (std::int64_t HeaptrackSiteStackEntry::*cost : kStackCosts) {
            for (std::size_t i = 0; i < n; ++i) out[i].*cost = columns::at<std::int64_t>(p, i);
            p += n * 8;
        }
    }
    std::uint32_t site = 0, node = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        node = i && siteSteps[i] == 0 ? node + nodeValues[i] : nodeValues[i];
        site += siteSteps[i];
        out[i].site = site;
        out[i].node = node;
    }
    return out;
}

HeaptrackSiteStackChunkWriter::HeaptrackSiteStackChunkWriter(Database& db, std::int64_t traceId)
    : db_(db), traceId_(traceId) {
    pending_.reserve(kHeaptrackSiteStacksPerChunk);
}

void HeaptrackSiteStackChunkWriter::add(const HeaptrackSiteStackEntry& entry) {
    pending_.push_back(entry);
    if (pending_.size() == kHeaptrackSiteStacksPerChunk) flush();
}

void HeaptrackSiteStackChunkWriter::flush() {
    if (pending_.empty()) return;
    Statement s(db_, "INSERT INTO heaptrack_site_stack_chunks(trace_id, chunk, first_site, last_site, entry_count, codec, "
                     "data) VALUES (?,?,?,?,?,?,?)");
    s.bind(1, traceId_)
        .bind(2, chunk_++)
        .bind(3, static_cast<std::int64_t>(pending_.front().site))
        .bind(4, static_cast<std::int64_t>(pending_.back().site))
        .bind(5, static_cast<std::int64_t>(pending_.size()))
        .bind(6, kCodecZstdNarrowColumns)
        .bindBlob(7, encodeHeaptrackSiteStacks(pending_))
        .run();
    pending_.clear();
}

void HeaptrackSiteStackChunkWriter::finish() { flush(); }

namespace {

bool hasRows(Database& db, std::string_view sql, std::int64_t traceId) {
    Statement s(db, sql);
    s.bind(1, traceId);
    return s.step();
}

bool hasNodeChunks(Database& db, std::int64_t traceId) {
    return hasRows(db, "SELECT 1 FROM heaptrack_node_chunks WHERE trace_id = ? LIMIT 1", traceId);
}

bool hasStackChunks(Database& db, std::int64_t traceId) {
    return hasRows(db, "SELECT 1 FROM heaptrack_site_stack_chunks WHERE trace_id = ? LIMIT 1", traceId);
}

} // namespace

std::vector<HeaptrackStoredNode> loadHeaptrackNodes(Database& db, std::int64_t traceId) {
    std::vector<HeaptrackStoredNode> out;
    if (!hasNodeChunks(db, traceId)) {
        // A store written before schema step 7: one row per node.
        Statement s(db, "SELECT node_id, ip_id, parent_id FROM heaptrack_trace_nodes WHERE trace_id = ? ORDER BY node_id");
        s.bind(1, traceId);
        while (s.step()) {
            const auto id = static_cast<std::size_t>(s.int64(0));
            if (out.size() <= id) out.resize(id + 1);
            out[id] = {static_cast<std::uint32_t>(s.int64(1)), static_cast<std::uint32_t>(s.int64(2))};
        }
        return out;
    }
    Statement s(db, "SELECT first_node, data FROM heaptrack_node_chunks WHERE trace_id = ? ORDER BY first_node");
    s.bind(1, traceId);
    out.resize(1);
    while (s.step()) {
        // The chunks follow each other from node 1 on, as the writer makes them.
        if (s.int64(0) != static_cast<std::int64_t>(out.size()) || out.size() > UINT32_MAX)
            throw StoreError("damaged " + kNodesWhat + " in the store (node " + std::to_string(s.int64(0)) +
                             " where node " + std::to_string(out.size()) + " should follow)");
        const std::vector<HeaptrackStoredNode> chunk = decodeHeaptrackNodes(s.blob(1), static_cast<std::uint32_t>(out.size()));
        out.insert(out.end(), chunk.begin(), chunk.end());
    }
    return out;
}

HeaptrackNodeLookup::HeaptrackNodeLookup(Database& db, std::int64_t traceId)
    : db_(db), traceId_(traceId), rows_(!hasNodeChunks(db, traceId)) {}

HeaptrackStoredNode HeaptrackNodeLookup::node(std::int64_t id) {
    if (id <= 0 || id > std::int64_t{UINT32_MAX}) return {};
    if (rows_) {
        Statement s(db_, "SELECT ip_id, parent_id FROM heaptrack_trace_nodes WHERE trace_id = ? AND node_id = ?");
        s.bind(1, traceId_).bind(2, id);
        if (!s.step()) return {};
        return {static_cast<std::uint32_t>(s.int64(0)), static_cast<std::uint32_t>(s.int64(1))};
    }
    // Chunks hold kHeaptrackNodesPerChunk nodes from node 1 on, except perhaps the last; the
    // stored first_node and node_count decide.
    const auto index = static_cast<std::size_t>((id - 1) / static_cast<std::int64_t>(kHeaptrackNodesPerChunk));
    if (chunks_.size() <= index) {
        chunks_.resize(index + 1);
        loaded_.resize(index + 1, false);
    }
    if (!loaded_[index]) {
        const auto first = static_cast<std::int64_t>(index * kHeaptrackNodesPerChunk + 1);
        Statement s(db_, "SELECT node_count, data FROM heaptrack_node_chunks WHERE trace_id = ? AND first_node = ?");
        s.bind(1, traceId_).bind(2, first);
        if (s.step()) {
            chunks_[index] = decodeHeaptrackNodes(s.blob(1), static_cast<std::uint32_t>(first));
            if (static_cast<std::int64_t>(chunks_[index].size()) != s.int64(0))
                throw StoreError("damaged " + kNodesWhat + " in the store (node count)");
        }
        loaded_[index] = true;
    }
    const std::vector<HeaptrackStoredNode>& chunk = chunks_[index];
    const auto offset = static_cast<std::size_t>(id - 1) % kHeaptrackNodesPerChunk;
    return offset < chunk.size() ? chunk[offset] : HeaptrackStoredNode{};
}

std::vector<HeaptrackSiteStackEntry> loadHeaptrackSiteStacks(Database& db, std::int64_t traceId, std::int64_t site) {
    std::vector<HeaptrackSiteStackEntry> out;
    if (!hasStackChunks(db, traceId)) {
        Statement s(db, "SELECT site_id, node_id, allocations, temporary, peak_bytes, leaked_bytes FROM heaptrack_site_stacks "
                        "WHERE trace_id = ?1 AND (?2 < 0 OR site_id = ?2) ORDER BY site_id, node_id");
        s.bind(1, traceId).bind(2, site);
        while (s.step())
            out.push_back({static_cast<std::uint32_t>(s.int64(0)), static_cast<std::uint32_t>(s.int64(1)), s.int64(2),
                           s.int64(3), s.int64(4), s.int64(5)});
        return out;
    }
    Statement s(db, "SELECT data FROM heaptrack_site_stack_chunks WHERE trace_id = ?1 "
                    "AND (?2 < 0 OR (first_site <= ?2 AND last_site >= ?2)) ORDER BY chunk");
    s.bind(1, traceId).bind(2, site);
    while (s.step()) {
        std::vector<HeaptrackSiteStackEntry> chunk = decodeHeaptrackSiteStacks(s.blob(0));
        if (site < 0 && out.empty()) {
            out = std::move(chunk);
            continue;
        }
        for (const HeaptrackSiteStackEntry& e : chunk)
            if (site < 0 || e.site == site) out.push_back(e);
    }
    return out;
}

bool heaptrackHasSiteStacks(Database& db, std::int64_t traceId) {
    return hasStackChunks(db, traceId) ||
           hasRows(db, "SELECT 1 FROM heaptrack_site_stacks WHERE trace_id = ? LIMIT 1", traceId);
}

} // namespace memviz
