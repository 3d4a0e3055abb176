// SPDX-License-Identifier: MIT
// Reading a trace's budget figures (see TraceFacts.h).
#include "budget/TraceFacts.h"

#include <algorithm>

#include "formats/FormatIds.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/massif/MassifQueries.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

std::vector<SiteFact> heaptrackSites(Database& db, std::int64_t traceId) {
    std::vector<SiteFact> out;
    for (const AllocationSite& s : queryAllocationSites(db, traceId))
        out.push_back({s.function.empty() ? frameFunctionText(s.function, s.address) : s.function, s.file, s.module, s.line,
                       s.peakBytes});
    return out;
}

// The peak snapshot's allocation sites: the heap tree's first level, as ms_print lists them.
std::vector<SiteFact> massifSites(Database& db, std::int64_t traceId) {
    const std::vector<MassifSnapshot> snapshots = listMassifSnapshots(db, traceId);
    const MassifSnapshot* peak = nullptr;
    for (const MassifSnapshot& s : snapshots)
        if (s.peak()) peak = &s;
    const MassifSnapshot* largest = nullptr; // no snapshot marked peak: the largest detailed one
    for (const MassifSnapshot& s : snapshots)
        if (s.detailed() && (!largest || s.totalBytes() > largest->totalBytes())) largest = &s;
    if (!peak) peak = largest;
    std::vector<SiteFact> out;
    if (!peak) return out;
    const MassifTree tree = loadMassifTree(db, traceId, peak->number);
    if (tree.nodes.empty()) return out;
    for (const std::size_t child : tree.nodes[0].children) {
        const MassifNode& n = tree.nodes[child];
        out.push_back({n.function.empty() ? n.label : n.function, n.location, "", 0, n.bytes});
    }
    return out;
}

} // namespace

std::string SiteFact::label() const {
    if (file.empty()) return module.empty() || !function.empty() ? function : module;
    return function + "  " + file + (line > 0 ? ":" + std::to_string(line) : std::string());
}

bool emptyTrace(const TraceSummary& s) {
    // massif counts no events, only snapshots: a device with bytes is not empty either.
    return std::none_of(s.devices.begin(), s.devices.end(), [](const DeviceSummary& d) { return d.events > 0 || d.peakBytes > 0; });
}

TraceFacts loadTraceFacts(Database& db, std::int64_t traceId, const FactsWanted& wanted) {
    TraceFacts f;
    f.summary = loadSummary(db, traceId);
    const std::string& format = f.summary.trace.format;
    for (const SeriesInfo& s : listSeries(db, traceId)) {
        if (s.style != kSeriesStacked) continue;
        f.hasCategories = true;
        if (!wanted.categories) continue;
        for (const DeviceSummary& d : f.summary.devices)
            if (d.device == s.device) f.categories.push_back({d.name, s.name, seriesValueAt(db, s.id, d.peakTimeNs).value_or(0)});
    }
    if (wanted.ops) {
        f.ops = queryOps(db, traceId, OpsFilter{});
        f.opsRead = true;
    }
    f.hasSites = format == format_id::kHeaptrack || format == format_id::kMassif;
    if (f.hasSites && wanted.sites) {
        f.sites = format == format_id::kHeaptrack ? heaptrackSites(db, traceId) : massifSites(db, traceId);
        f.sitesWhat = format == format_id::kHeaptrack ? "the site's peak, as heaptrack_print counts it"
                                                      : "bytes at the peak snapshot, as ms_print lists them";
        std::stable_sort(f.sites.begin(), f.sites.end(), [](const SiteFact& a, const SiteFact& b) { return a.bytes > b.bytes; });
    }
    if (format == format_id::kHeaptrack)
        if (const auto h = loadHeaptrackSummary(db, traceId)) f.heaptrackLeaked = h->leakedBytes;
    return f;
}

} // namespace memviz
