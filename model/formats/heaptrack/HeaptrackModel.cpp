// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackModel.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "formats/heaptrack/HeaptrackSuppressions.h"

namespace memviz {

namespace {

// The allocation functions heaptrack hides from the top of backtraces.
constexpr std::string_view kOperatorNew[] = {
    "operator new(unsigned long)",
    "operator new[](unsigned long)",
    "operator new(unsigned int)",
    "operator new[](unsigned int)",
};

std::string_view baseName(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

void appendNumber(std::string& key, std::uint64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

} // namespace

HeaptrackModel::HeaptrackModel() {
    strings.emplace_back();
    ips.emplace_back();
    nodes.emplace_back();
    nodeCosts.push_back(0);
    costs.emplace_back();
}

const std::string& HeaptrackModel::string(std::uint32_t index) const {
    return index < strings.size() ? strings[index] : strings[0];
}

const HeaptrackIp& HeaptrackModel::ip(std::uint32_t index) const { return index < ips.size() ? ips[index] : ips[0]; }

HeaptrackNode HeaptrackModel::node(std::uint32_t index) const { return index < nodes.size() ? nodes[index] : nodes[0]; }

std::uint32_t HeaptrackModel::addString(std::string_view s) {
    strings.emplace_back(s);
    const auto index = static_cast<std::uint32_t>(strings.size() - 1);
    if (std::find(std::begin(kOperatorNew), std::end(kOperatorNew), s) != std::end(kOperatorNew)) opNewStrings.push_back(index);
    return index;
}

void HeaptrackModel::addNode(std::uint32_t ipIndex, std::uint32_t parent) {
    HeaptrackNode n{ipIndex, parent};
    // Like heaptrack: a backtrace that starts in operator new starts at its caller instead.
    // Parents precede their children, so this walk ends.
    while (n.ip != 0 && std::find(opNewIps.begin(), opNewIps.end(), n.ip) != opNewIps.end()) n = node(n.parent);
    // As for infos (addInfo): a big recording has millions of nodes; reserving address space
    // once it is big saves the copies and the page faults of growing by doubling (perf: the
    // largest share of the import's page faults).
    if (nodes.size() == 4096) {
        nodes.reserve(std::size_t{1} << 22);
        nodeCosts.reserve(std::size_t{1} << 22);
    }
    nodes.push_back(n);
    nodeCosts.push_back(0);
}

void HeaptrackModel::addInfo(std::int64_t size, std::uint32_t nodeIndex) {
    // Big recordings define hundreds of thousands of infos; reserving address space (pages
    // are only backed once touched) saves the copies and page faults of growing by doubling.
    // Only once the recording is big: 24 MiB per small file cost most of its import under ASan.
    if (infos.size() == 4096) infos.reserve(std::size_t{1} << 20);
    if (nodeCosts[nodeIndex] == 0) {
        if (costs.size() == 4096) costs.reserve(std::size_t{1} << 20);
        nodeCosts[nodeIndex] = static_cast<std::uint32_t>(costs.size());
        costs.emplace_back();
    }
    infos.push_back({size, nodeIndex, kNoName, nodeCosts[nodeIndex]});
}

std::string HeaptrackModel::siteKey(const HeaptrackIp& ip) const {
    // heaptrack_print merges backtraces whose innermost frames are equal apart from the
    // address: same module, function, file, line and inlined frames.
    std::string key;
    key.reserve(32 + 12 * ip.inlinedCount);
    appendNumber(key, ip.module);
    const auto addFrame = [&key](const HeaptrackFrame& f) {
        appendNumber(key, f.function);
        appendNumber(key, f.file);
        appendNumber(key, f.line);
    };
    addFrame(ip.frame);
    for (std::uint32_t i = 0; i < ip.inlinedCount; ++i) addFrame(inlined[ip.inlinedBegin + i]);
    return key;
}

std::int32_t HeaptrackModel::siteOf(std::uint32_t nodeIndex) {
    const std::uint32_t ipIndex = node(nodeIndex).ip;
    HeaptrackIp& ipRef = ipIndex < ips.size() ? ips[ipIndex] : ips[0];
    if (ipRef.site >= 0) return ipRef.site;
    auto [it, inserted] = siteByKey_.emplace(siteKey(ipRef), static_cast<std::int32_t>(sites.size()));
    if (inserted) sites.push_back(HeaptrackSite{ipIndex, {}, {}});
    ipRef.site = it->second;
    return ipRef.site;
}

std::string HeaptrackModel::siteLabel(std::int32_t site) const {
    const HeaptrackIp& i = ip(sites[static_cast<std::size_t>(site)].ip);
    std::string label;
    if (i.frame.function) {
        label = string(i.frame.function);
    } else if (i.address) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(i.address));
        label = buf;
    } else {
        label = "??";
    }
    if (i.frame.file) label += " (" + std::string(baseName(string(i.frame.file))) + ":" + std::to_string(i.frame.line) + ")";
    else if (i.module) label += " (in " + std::string(baseName(string(i.module))) + ")";
    return label;
}

void HeaptrackModel::finish() {
    for (HeaptrackCost& c : costs)
        if (c.stamp != peakEpoch_) {
            c.peak = c.leaked;
            c.stamp = peakEpoch_;
        }
    applyLeakSuppressions(*this);
    for (std::uint32_t n = 0; n < nodeCosts.size(); ++n) {
        if (nodeCosts[n] == 0) continue;
        const HeaptrackCost& c = costs[nodeCosts[n]];
        HeaptrackSite& site = sites[static_cast<std::size_t>(siteOf(n))];
        site.cost.allocations += c.allocations;
        site.cost.temporary += c.temporary;
        site.cost.leaked += c.leaked;
        site.cost.peak += c.peak;
        site.nodes.push_back(n);
    }
}

} // namespace memviz
