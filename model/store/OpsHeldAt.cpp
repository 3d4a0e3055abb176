// SPDX-License-Identifier: MIT
#include "store/OpsHeldAt.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/Progress.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/OpsQuery.h"

namespace memviz {

namespace {

struct Replay {
    struct Block {
        std::int32_t op;
        std::int64_t size;
    };
    std::unordered_map<std::int64_t, Block> live; // by address
    std::unordered_map<std::int32_t, std::int64_t> alive, net;
    bool everyAllocHasAddress = true;
    std::int64_t running = 0; // what the events hold: the sum the peak prefix is chosen by

    void apply(const Event& e) {
        if (e.kind == EventKind::Alloc) {
            net[e.op] += e.size;
            running += e.size;
            if (e.address == 0) everyAllocHasAddress = false;
            const auto [it, fresh] = live.try_emplace(e.address, Block{e.op, e.size});
            if (!fresh) { // an address reused while live: the earlier one is gone
                alive[it->second.op] -= it->second.size;
                it->second = Block{e.op, e.size};
            }
            alive[e.op] += e.size;
        } else if (e.kind == EventKind::Free && !(e.flags & kFlagUnmatched)) {
            net[e.op] -= e.size;
            running -= e.size;
            if (const auto it = live.find(e.address); it != live.end()) {
                alive[it->second.op] -= it->second.size;
                live.erase(it);
            }
        }
    }
};

} // namespace

OpsHeldAt opsHeldAt(Database& db, std::int64_t traceId, int device, std::int64_t t, const Progress* progress) {
    Replay r;
    std::vector<Event> atT; // the events at t exactly
    Statement s(db, "SELECT t_first, data FROM event_chunks WHERE trace_id = ? AND t_first <= ? ORDER BY t_last, chunk");
    s.bind(1, traceId).bind(2, t);
    while (s.step()) {
        if (progress) progress->checkCancelled();
        for (const Event& e : decodeEvents(s.blob(1))) {
            if (e.timeNs > t || e.device != device) continue;
            if (e.timeNs == t) atT.push_back(e);
            else r.apply(e);
        }
    }
    // Of the events at t, the prefix after which the events hold the most.
    std::size_t best = atT.size();
    if (!atT.empty()) {
        std::int64_t sum = 0, top = 0;
        best = 0;
        for (std::size_t i = 0; i < atT.size(); ++i) {
            const Event& e = atT[i];
            if (e.kind == EventKind::Alloc) sum += e.size;
            else if (e.kind == EventKind::Free && !(e.flags & kFlagUnmatched)) sum -= e.size;
            if (i == 0 || sum > top) {
                top = sum;
                best = i + 1;
            }
        }
    }
    for (std::size_t i = 0; i < best; ++i) r.apply(atT[i]);

    std::unordered_map<std::int64_t, std::string> names;
    {
        Statement n(db, "SELECT id, name FROM names WHERE trace_id = ? AND kind = ?");
        n.bind(1, traceId).bind(2, static_cast<int>(NameKind::Op));
        while (n.step()) names.emplace(n.int64(0), n.text(1));
    }
    OpsHeldAt out;
    out.paired = r.everyAllocHasAddress;
    std::map<std::string, std::int64_t> byName;
    for (const auto& [op, bytes] : out.paired ? r.alive : r.net) {
        const auto it = names.find(op);
        byName[it != names.end() ? it->second : kNoOpName] += bytes;
    }
    for (const auto& [name, bytes] : byName)
        if (bytes != 0 || !out.paired) out.ops.emplace_back(name, bytes);
    std::stable_sort(out.ops.begin(), out.ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

} // namespace memviz
