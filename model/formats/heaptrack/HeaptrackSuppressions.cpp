// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackSuppressions.h"

#include <vector>

#include "formats/heaptrack/HeaptrackModel.h"

namespace memviz {

namespace {

std::string_view trimmedView(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

} // namespace

std::optional<std::string> parseSuppressionLine(std::string_view line) {
    line = trimmedView(line);
    if (line.empty() || line.front() == '#' || !line.starts_with("leak:")) return std::nullopt;
    line.remove_prefix(5);
    if (line.empty()) return std::nullopt;
    return std::string(line);
}

bool suppressionMatches(std::string_view pattern, std::string_view text) {
    if (pattern == text) return true;
    if (text.empty()) return false;
    bool anchored = false;
    if (!pattern.empty() && pattern.front() == '^') {
        anchored = true;
        pattern.remove_prefix(1);
    }
    bool afterStar = false;
    std::size_t pos = 0; // how far into text we matched
    while (!pattern.empty()) {
        if (pattern.front() == '*') {
            pattern.remove_prefix(1);
            anchored = false;
            afterStar = true;
            continue;
        }
        if (pattern.front() == '$') return pos == text.size() || afterStar;
        if (pos == text.size()) return false;
        // The literal run up to the next '*' or '$' must occur in the rest of the text.
        const std::size_t runEnd = pattern.find_first_of("*$");
        const std::string_view run = pattern.substr(0, runEnd);
        const std::size_t found = text.find(run, pos);
        if (found == std::string_view::npos) return false;
        if (anchored && found != pos) return false;
        pos = found + run.size();
        pattern = runEnd == std::string_view::npos ? std::string_view() : pattern.substr(runEnd);
        anchored = false;
        afterStar = false;
    }
    return true;
}

std::span<const std::string_view> builtinSuppressions() {
    static constexpr std::string_view list[] = {
        "__nss_module_allocate", "__gconv_read_conf",  "__new_exitfn",  "tzset_internal",
        "dl_open_worker",        "g_main_context_new", "g_thread_self",
    };
    return list;
}

void applyLeakSuppressions(HeaptrackModel& model) {
    const auto builtin = builtinSuppressions();
    std::vector<std::string_view> patterns(builtin.begin(), builtin.end());
    for (const std::string& p : model.suppressions) patterns.push_back(p);

    std::vector<char> stringHit(model.strings.size(), 0);
    bool any = false;
    for (std::size_t i = 1; i < model.strings.size(); ++i)
        for (std::string_view p : patterns)
            if (suppressionMatches(p, model.strings[i])) {
                stringHit[i] = 1;
                any = true;
                break;
            }
    if (!any) return;
    const auto hit = [&](std::uint32_t s) { return s < stringHit.size() && stringHit[s]; };
    const auto frameHit = [&](const HeaptrackFrame& f) { return hit(f.function) || hit(f.file); };

    std::vector<char> ipHit(model.ips.size(), 0);
    for (std::size_t i = 1; i < model.ips.size(); ++i) {
        const HeaptrackIp& ip = model.ips[i];
        bool h = hit(ip.module) || frameHit(ip.frame);
        for (std::uint32_t k = 0; !h && k < ip.inlinedCount; ++k) h = frameHit(model.inlined[ip.inlinedBegin + k]);
        ipHit[i] = h;
    }
    // Parents come before their children, so one pass in index order sees every ancestor.
    std::vector<char> nodeHit(model.nodes.size(), 0);
    for (std::size_t n = 1; n < model.nodes.size(); ++n) {
        const HeaptrackNode& node = model.nodes[n];
        nodeHit[n] = (node.parent < n && nodeHit[node.parent]) || (node.ip < ipHit.size() && ipHit[node.ip]);
    }
    for (std::size_t n = 1; n < model.nodeCosts.size(); ++n) {
        if (model.nodeCosts[n] == 0 || !nodeHit[n]) continue;
        HeaptrackCost& c = model.costs[model.nodeCosts[n]];
        model.totals.suppressed += c.leaked;
        model.totals.leaked -= c.leaked;
        c.leaked = 0;
    }
}

} // namespace memviz
