// SPDX-License-Identifier: MIT
#include "formats/massif/MassifQueries.h"

#include <algorithm>
#include <unordered_map>

#include "store/Database.h"

namespace memviz {

std::vector<MassifSnapshot> listMassifSnapshots(Database& db, std::int64_t traceId) {
    // File order is x order with the snapshot number as tie-breaker (massif numbers them
    // in order); rowid order is not available in a WITHOUT ROWID table.
    Statement s(db, "SELECT snapshot, time, x, heap_bytes, extra_bytes, stacks_bytes, tree FROM massif_snapshots "
                    "WHERE trace_id = ? ORDER BY x, snapshot");
    s.bind(1, traceId);
    std::vector<MassifSnapshot> out;
    while (s.step()) {
        MassifSnapshot m;
        m.number = s.int64(0);
        m.time = s.text(1);
        m.x = s.int64(2);
        m.heapBytes = s.int64(3);
        m.extraBytes = s.int64(4);
        m.stacksBytes = s.int64(5);
        m.tree = s.text(6);
        out.push_back(std::move(m));
    }
    return out;
}

MassifTree loadMassifTree(Database& db, std::int64_t traceId, std::int64_t snapshot) {
    Statement s(db, "SELECT node_id, parent_id, bytes, address, function, location, label FROM massif_tree_nodes "
                    "WHERE trace_id = ? AND snapshot = ? ORDER BY node_id");
    s.bind(1, traceId).bind(2, snapshot);
    MassifTree tree;
    tree.snapshot = snapshot;
    std::unordered_map<std::int64_t, std::size_t> index;
    while (s.step()) {
        MassifNode n;
        n.id = s.int64(0);
        n.parent = s.int64(1);
        n.bytes = s.int64(2);
        if (!s.isNull(3)) n.address = s.int64(3);
        n.function = s.text(4);
        n.location = s.text(5);
        n.label = s.text(6);
        index[n.id] = tree.nodes.size();
        tree.nodes.push_back(std::move(n));
    }
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
        const auto it = index.find(tree.nodes[i].parent);
        if (it != index.end() && it->second < i) tree.nodes[it->second].children.push_back(i);
    }
    for (MassifNode& n : tree.nodes)
        std::stable_sort(n.children.begin(), n.children.end(),
                         [&](std::size_t a, std::size_t b) { return tree.nodes[a].bytes > tree.nodes[b].bytes; });
    return tree;
}

} // namespace memviz
