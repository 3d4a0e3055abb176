// SPDX-License-Identifier: MIT
#pragma once
// Read side of the massif tables: the snapshot list (ms_print's table) and the heap tree of
// a detailed snapshot.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memviz {

class Database;

struct MassifSnapshot {
    std::int64_t number = 0;
    std::string time;   // as written, in the file's time unit
    std::int64_t x = 0; // position on the timeline
    std::int64_t heapBytes = 0;
    std::int64_t extraBytes = 0;
    std::int64_t stacksBytes = 0;
    std::string tree; // "empty", "detailed" or "peak"
    std::int64_t totalBytes() const { return heapBytes + extraBytes + stacksBytes; }
    bool detailed() const { return tree != "empty"; }
    bool peak() const { return tree == "peak"; }
};

struct MassifNode {
    std::int64_t id = 0;
    std::int64_t parent = -1;
    std::int64_t bytes = 0;
    std::optional<std::int64_t> address;
    std::string function;
    std::string location;
    std::string label;
    std::vector<std::size_t> children; // indices into MassifTree::nodes, largest first
};

struct MassifTree {
    std::int64_t snapshot = -1;
    std::vector<MassifNode> nodes; // nodes[0] is the root; empty for an empty snapshot
};

// In file order.
std::vector<MassifSnapshot> listMassifSnapshots(Database& db, std::int64_t traceId);
MassifTree loadMassifTree(Database& db, std::int64_t traceId, std::int64_t snapshot);

} // namespace memviz
