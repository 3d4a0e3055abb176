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
constexpr std::size_t kNodeBytes = 8;              // node - parent, ip (u32 each)
constexpr std::size_t kEntryBytes = 4 + 4 + 4 * 8; // site step, node (step within a site), 4 costs

} // namespace

// Node chunk: (node - parent) and ip as u32 columns. Parents are mostly the node just before,
// so the first column is nearly all small numbers and compresses to little.
std::vector<unsigned char> encodeHeaptrackNodes(std::span<const HeaptrackStoredNode> nodes, std::uint32_t firstNode) {
    columns::Builder chunk(static_cast<std::uint32_t>(nodes.size()), 4 + nodes.size() * kNodeBytes);
    columns::Bytes& raw = chunk.raw();
    columns::put<std::uint32_t>(raw, nodes.size(), [&](std::size_t i) {
        return static_cast<std::uint32_t>(firstNode + i - nodes[i].parent);
    });
    columns::put<std::uint32_t>(raw, nodes.size(), [&](std::size_t i) { return nodes[i].ip; });
    return chunk.compress();
}

std::vector<HeaptrackStoredNode> decodeHeaptrackNodes(std::span<const unsigned char> blob, std::uint32_t firstNode) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kNodesWhat);
    const std::size_t n = columns::readCount(raw, kNodeBytes, kNodesWhat);
    std::vector<HeaptrackStoredNode> out(n);
    const unsigned char* step = raw.data() + 4;
    const unsigned char* ip = step + n * 4;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t id = std::uint64_t{firstNode} + i;
        const auto d = columns::at<std::uint32_t>(step, i);
        if (d == 0 || d > id) throw StoreError("damaged " + kNodesWhat + " in the store (a parent after its node)");
        out[i] = {columns::at<std::uint32_t>(ip, i), static_cast<std::uint32_t>(id - d)};
    }
    return out;
}

// Site stack chunk: the site as a step from the entry before (0 within a site), the node as a
// step from the one before within a site (its id at a site's first entry), then the costs.
std::vector<unsigned char> encodeHeaptrackSiteStacks(std::span<const HeaptrackSiteStackEntry> e) {
    columns::Builder chunk(static_cast<std::uint32_t>(e.size()), 4 + e.size() * kEntryBytes);
    columns::Bytes& raw = chunk.raw();
    const std::size_t n = e.size();
    columns::put<std::uint32_t>(raw, n, [&](std::size_t i) { return e[i].site - (i ? e[i - 1].site : 0); });
    columns::put<std::uint32_t>(raw, n, [&](std::size_t i) {
        return i && e[i].site == e[i - 1].site ? e[i].node - e[i - 1].node : e[i].node;
    });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return e[i].allocations; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return e[i].temporary; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return e[i].peakBytes; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return e[i].leakedBytes; });
    return chunk.compress();
}

std::vector<HeaptrackSiteStackEntry> decodeHeaptrackSiteStacks(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kStacksWhat);
    const std::size_t n = columns::readCount(raw, kEntryBytes, kStacksWhat);
    std::vector<HeaptrackSiteStackEntry> out(n);
    const unsigned char* p = raw.data() + 4;
    std::uint32_t site = 0, node = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto siteStep = columns::at<std::uint32_t>(p, i);
        const auto nodeValue = columns::at<std::uint32_t>(p + n * 4, i);
        node = i && siteStep == 0 ? node + nodeValue : nodeValue;
        site += siteStep;
        out[i].site = site;
        out[i].node = node;
    }
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) out[i].allocations = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) out[i].temporary = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) out[i].peakBytes = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) out[i].leakedBytes = columns::at<std::int64_t>(p, i);
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
        .bind(6, kCodecZstdColumns)
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
