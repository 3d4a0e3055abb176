// SPDX-License-Identifier: MIT
#pragma once
// The heaptrack backtrace tree and the per-site backtraces as compressed column chunks
// (schema step 7, HeaptrackSchema.h; the shared layout is store/ColumnChunk.h; narrow columns,
// codec 2, since step 12), and their readers. Stores written before step 7 keep their rows in heaptrack_trace_nodes and
// heaptrack_site_stacks; the readers here fall back to those rows when a trace has no chunks.
#include <cstdint>
#include <span>
#include <vector>

namespace memviz {

class Database;

// A backtrace node: its frame (instruction pointer) and its caller node (0 = none).
struct HeaptrackStoredNode {
    std::uint32_t ip = 0;
    std::uint32_t parent = 0;
    bool operator==(const HeaptrackStoredNode&) const = default;
};

// One backtrace merged into an allocation site, with its own costs.
struct HeaptrackSiteStackEntry {
    std::uint32_t site = 0;
    std::uint32_t node = 0;
    std::int64_t allocations = 0;
    std::int64_t temporary = 0;
    std::int64_t peakBytes = 0;
    std::int64_t leakedBytes = 0;
    bool operator==(const HeaptrackSiteStackEntry&) const = default;
};

constexpr std::size_t kHeaptrackNodesPerChunk = 65536;
constexpr std::size_t kHeaptrackSiteStacksPerChunk = 32768;

// Nodes firstNode, firstNode + 1, ...: each parent must be below its node.
std::vector<unsigned char> encodeHeaptrackNodes(std::span<const HeaptrackStoredNode> nodes, std::uint32_t firstNode);
// Throws StoreError for a damaged blob.
std::vector<HeaptrackStoredNode> decodeHeaptrackNodes(std::span<const unsigned char> blob, std::uint32_t firstNode);

// Entries sorted by site.
std::vector<unsigned char> encodeHeaptrackSiteStacks(std::span<const HeaptrackSiteStackEntry> entries);
std::vector<HeaptrackSiteStackEntry> decodeHeaptrackSiteStacks(std::span<const unsigned char> blob);

// Writes the chunk rows inside the import's transaction: entries sorted by site, then node.
// (The node chunks are written while the file is read: HeaptrackStreamTables.)
class HeaptrackSiteStackChunkWriter {
public:
    HeaptrackSiteStackChunkWriter(Database& db, std::int64_t traceId);
    void add(const HeaptrackSiteStackEntry& entry);
    void finish();

private:
    void flush();
    Database& db_;
    std::int64_t traceId_;
    std::int64_t chunk_ = 0;
    std::vector<HeaptrackSiteStackEntry> pending_;
};

// The whole tree by node id (element 0 = the root, {0, 0}); empty when the trace has none.
std::vector<HeaptrackStoredNode> loadHeaptrackNodes(Database& db, std::int64_t traceId);

// Reads nodes by id, decoding only the chunks a lookup needs (a backtrace's walk to the root).
class HeaptrackNodeLookup {
public:
    HeaptrackNodeLookup(Database& db, std::int64_t traceId);
    // {0, 0} for a node the trace does not have.
    HeaptrackStoredNode node(std::int64_t id);

private:
    Database& db_;
    std::int64_t traceId_;
    bool rows_ = false; // an old store: the rows of heaptrack_trace_nodes
    std::vector<std::vector<HeaptrackStoredNode>> chunks_; // by chunk index, decoded on demand
    std::vector<bool> loaded_;
};

// Every site's backtraces, or one site's (site >= 0), sorted by site then node.
std::vector<HeaptrackSiteStackEntry> loadHeaptrackSiteStacks(Database& db, std::int64_t traceId, std::int64_t site = -1);
bool heaptrackHasSiteStacks(Database& db, std::int64_t traceId);

} // namespace memviz
