// SPDX-License-Identifier: MIT
#include "compare/TraceComparison.h"

#include "compare/Alignment.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <strings.h>

#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/profiler/ProfilerQuery.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

bool sameName(const std::string& x, const std::string& y) { return strcasecmp(x.c_str(), y.c_str()) == 0; }

// The device index named `name` in `summary`; nullopt when absent.
std::optional<int> deviceIndex(const TraceSummary& summary, const std::string& name) {
    for (const DeviceSummary& d : summary.devices)
        if (sameName(d.name, name)) return d.device;
    return std::nullopt;
}

// The device's live bytes: its "allocated" series, else its first series in bytes.
std::vector<SeriesPoint> curveOf(Database& db, std::int64_t traceId, std::optional<int> device, int columns) {
    if (!device) return {};
    const SeriesInfo* chosen = nullptr;
    const std::vector<SeriesInfo> series = listSeries(db, traceId);
    for (const SeriesInfo& s : series)
        if (s.device == *device && s.name == series_name::kAllocated) chosen = &s;
    for (const SeriesInfo& s : series)
        if (!chosen && s.device == *device && s.unit == "bytes") chosen = &s;
    if (!chosen) return {};
    return querySeries(db, chosen->id, TimeRange{chosen->tFirst, chosen->tLast}, columns > 0 ? columns : 4096).points;
}

// Every stacked series of `summary`'s devices at that device's peak, as (device, name, value).
struct CategoryValue {
    std::string device, name;
    std::int64_t value = 0;
};
std::vector<CategoryValue> categoriesAtPeak(Database& db, std::int64_t traceId, const TraceSummary& summary,
                                            const std::string& device) {
    std::vector<CategoryValue> out;
    for (const SeriesInfo& s : listSeries(db, traceId)) {
        if (s.style != kSeriesStacked) continue;
        for (const DeviceSummary& d : summary.devices)
            if (d.device == s.device && (device.empty() || sameName(d.name, device)))
                out.push_back({d.name, s.name, seriesValueAt(db, s.id, d.peakTimeNs).value_or(0)});
    }
    return out;
}

std::vector<CategoryDiff> diffCategories(const std::vector<CategoryValue>& a, const std::vector<CategoryValue>& b) {
    std::vector<CategoryDiff> out;
    auto add = [&out](const CategoryValue& v, bool isB) {
        auto it = std::find_if(out.begin(), out.end(), [&](const CategoryDiff& d) { return d.device == v.device && d.name == v.name; });
        if (it == out.end()) it = out.insert(out.end(), CategoryDiff{v.device, v.name, {}});
        (isB ? it->atPeak.b : it->atPeak.a) = v.value;
    };
    for (const CategoryValue& v : a) add(v, false);
    for (const CategoryValue& v : b) add(v, true);
    std::stable_sort(out.begin(), out.end(), [](const CategoryDiff& x, const CategoryDiff& y) {
        return std::llabs(x.atPeak.delta()) > std::llabs(y.atPeak.delta());
    });
    return out;
}

// One device of two snapshots: its blocks, and what was alive at each snapshot's peak.
void compareSnapshotDevice(TraceComparison& c, Database& a, std::int64_t traceA, std::optional<int> ia, Database& b,
                           std::int64_t traceB, std::optional<int> ib, const DeviceDiff& d,
                           const std::vector<SnapshotSegmentRow>& sa, const std::vector<SnapshotSegmentRow>& sb,
                           const std::pair<StackCatalog, StackCatalog>& stacks) {
    const auto ba = ia ? loadBlocks(a, traceA, *ia) : std::vector<SnapshotBlockRow>{};
    const auto bb = ib ? loadBlocks(b, traceB, *ib) : std::vector<SnapshotBlockRow>{};
    auto site = [](const StackCatalog& s, std::int32_t stack) { return stack < 0 ? std::string() : s.siteOf(stack); };
    for (BlockDiff& block : diffBlocks(sa, ba, sb, bb)) {
        std::string siteA = site(stacks.first, block.stackA), siteB = site(stacks.second, block.stackB);
        c.blocks.push_back({d.name, std::move(block), std::move(siteA), std::move(siteB)});
    }
    auto atPeak = [](Database& db, std::int64_t trace, std::optional<int> device, const StackCatalog& s) {
        if (!device) return std::vector<SiteBytes>{};
        const std::vector<SnapshotAllocationRow> all = loadAllocations(db, trace, *device);
        return aliveBySite(all, peakEntry(all), s);
    };
    const std::vector<PeakSiteDiff> peak = diffPeakSites(atPeak(a, traceA, ia, stacks.first), atPeak(b, traceB, ib, stacks.second));
    for (const PeakSiteDiff& p : peak) c.peakSites.emplace_back(d.name, p);
}

} // namespace

TraceComparison compareTraces(Database& a, std::int64_t traceA, Database& b, std::int64_t traceB, const std::string& device,
                              int columns, const Progress& progress, bool snapshotDetails) {
    TraceComparison c;
    c.a.summary = loadSummary(a, traceA);
    c.b.summary = loadSummary(b, traceB);
    c.device = device;
    const std::optional<int> devA = device.empty() ? std::optional<int>{} : deviceIndex(c.a.summary, device);
    const std::optional<int> devB = device.empty() ? std::optional<int>{} : deviceIndex(c.b.summary, device);
    if (!device.empty() && !devA && !devB) throw std::invalid_argument("no device \"" + device + "\" in either trace");

    c.devices = diffDevices(c.a.summary, c.b.summary);
    if (device.empty() && std::none_of(c.devices.begin(), c.devices.end(), [](const DeviceDiff& d) { return d.inA && d.inB; })) {
        auto names = [](const TraceSummary& s) {
            std::string out;
            for (const DeviceSummary& d : s.devices) out += (out.empty() ? "" : ", ") + d.name;
            return out.empty() ? std::string("no device") : out;
        };
        throw std::runtime_error("A and B have no device in common (A: " + names(c.a.summary) + "; B: " + names(c.b.summary) +
                                 "), so there is nothing to compare");
    }
    if (!device.empty()) std::erase_if(c.devices, [&](const DeviceDiff& d) { return !sameName(d.name, device); });
    progress.checkCancelled();

    // The curves: the chosen device, or A's first device (B's device of the same name).
    std::string curveDevice = device;
    if (curveDevice.empty() && !c.devices.empty()) curveDevice = c.devices.front().name;
    c.a.curve = curveOf(a, traceA, deviceIndex(c.a.summary, curveDevice), columns);
    c.b.curve = curveOf(b, traceB, deviceIndex(c.b.summary, curveDevice), columns);
    progress.checkCancelled();

    const std::string& formatA = c.a.summary.trace.format;
    const std::string& formatB = c.b.summary.trace.format;
    if (formatA == format_id::kHeaptrack && formatB == format_id::kHeaptrack) {
        // The sites are the operators here, matched by location: the operator names of
        // unresolved frames hold addresses, which differ between runs.
        c.sites = diffAllocationSites(queryAllocationSites(a, traceA), queryAllocationSites(b, traceB));
    } else {
        auto ops = [&](Database& db, std::int64_t id, std::optional<int> dev) {
            if (!device.empty() && !dev) return std::vector<OpRow>{};
            return queryOps(db, id, OpsFilter{dev, std::nullopt}, &progress);
        };
        c.ops = diffOps(ops(a, traceA, devA), ops(b, traceB, devB));
    }
    if (hasProfilerCalls(a, traceA) && hasProfilerCalls(b, traceB))
        c.keyAverages = diffProfilerOps(queryProfilerOps(a, traceA, std::nullopt, false),
                                        queryProfilerOps(b, traceB, std::nullopt, false), device);
    progress.checkCancelled();
    if (comparesSnapshots(c))
        for (const DeviceDiff& d : c.devices) {
            const auto ia = deviceIndex(c.a.summary, d.name), ib = deviceIndex(c.b.summary, d.name);
            const auto sa = ia ? loadSegments(a, traceA, *ia) : std::vector<SnapshotSegmentRow>{};
            const auto sb = ib ? loadSegments(b, traceB, *ib) : std::vector<SnapshotSegmentRow>{};
            for (const SegmentDiff& s : diffSegments(sa, sb)) c.segments.emplace_back(d.name, s);
            progress.checkCancelled();
        }
    if (snapshotDetails) addSnapshotDetails(c, a, traceA, b, traceB, progress);
    c.a.steps = readTraceSteps(a, traceA, formatA);
    c.b.steps = readTraceSteps(b, traceB, formatB);
    c.categories = diffCategories(categoriesAtPeak(a, traceA, c.a.summary, device), categoriesAtPeak(b, traceB, c.b.summary, device));
    return c;
}

bool comparesSnapshots(const TraceComparison& c) {
    return c.a.summary.trace.format == format_id::kSnapshot && c.b.summary.trace.format == format_id::kSnapshot;
}

void addSnapshotDetails(TraceComparison& c, Database& a, std::int64_t traceA, Database& b, std::int64_t traceB,
                        const Progress& progress) {
    if (!comparesSnapshots(c)) return;
    c.blocks.clear();
    c.peakSites.clear();
    const std::pair<StackCatalog, StackCatalog> stacks{loadStackCatalog(a, traceA), loadStackCatalog(b, traceB)};
    for (const DeviceDiff& d : c.devices) {
        const auto ia = deviceIndex(c.a.summary, d.name), ib = deviceIndex(c.b.summary, d.name);
        const auto sa = ia ? loadSegments(a, traceA, *ia) : std::vector<SnapshotSegmentRow>{};
        const auto sb = ib ? loadSegments(b, traceB, *ib) : std::vector<SnapshotSegmentRow>{};
        progress.checkCancelled();
        compareSnapshotDevice(c, a, traceA, ia, b, traceB, ib, d, sa, sb, stacks);
        progress.checkCancelled();
    }
}

std::vector<SeriesPoint> differenceCurve(const std::vector<SeriesPoint>& a, const std::vector<SeriesPoint>& b,
                                         std::int64_t shiftB) {
    std::vector<SeriesPoint> out;
    out.reserve(a.size() + b.size());
    std::size_t i = 0, j = 0;
    std::int64_t va = 0, vb = 0;
    constexpr std::int64_t kEnd = std::numeric_limits<std::int64_t>::max();
    while (i < a.size() || j < b.size()) {
        const std::int64_t ta = i < a.size() ? a[i].t : kEnd;
        const std::int64_t tb = j < b.size() ? b[j].t + shiftB : kEnd;
        const std::int64_t t = std::min(ta, tb);
        while (i < a.size() && a[i].t == t) va = a[i++].v;
        while (j < b.size() && b[j].t + shiftB == t) vb = b[j++].v;
        if (!out.empty() && out.back().t == t) out.back().v = vb - va;
        else out.push_back({t, vb - va});
    }
    return out;
}

} // namespace memviz
