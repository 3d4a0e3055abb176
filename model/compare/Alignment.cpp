// SPDX-License-Identifier: MIT
#include "compare/Alignment.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "formats/FormatIds.h"
#include "formats/live/LiveQueries.h"
#include "formats/profiler/ProfilerQuery.h"

namespace memviz {

namespace {

constexpr std::size_t kMaxSteps = 1'000'000;
constexpr std::string_view kProfilerStep = "ProfilerStep#";
constexpr std::string_view kProbeStep = "step "; // ProbeStreamWriter's label of a step mark

std::optional<std::int64_t> number(std::string_view text) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return n;
}

bool isLive(const std::string& format) { return format == format_id::kLiveProbe || format == format_id::kLiveProc; }

std::optional<std::int64_t> stepTime(const std::vector<TraceStep>& steps, std::int64_t n) {
    for (const TraceStep& s : steps)
        if (s.number == n) return s.t;
    return std::nullopt;
}

std::int64_t peakTime(const std::vector<SeriesPoint>& curve) {
    return std::max_element(curve.begin(), curve.end(), [](const SeriesPoint& x, const SeriesPoint& y) { return x.v < y.v; })->t;
}

} // namespace

AlignSpec parseAlignSpec(const std::string& text) {
    if (text == "auto") return {};
    if (text == "start") return {CompareAlign::Start, 0, {}};
    if (text == "peak") return {CompareAlign::Peak, 0, {}};
    if (text.starts_with("step:")) {
        const auto n = number(std::string_view(text).substr(5));
        if (!n || *n < 0) throw std::invalid_argument("--align step:N needs a step number (0, 1, ...), got \"" + text + "\"");
        return {CompareAlign::Step, *n, {}};
    }
    if (text.starts_with("marker:") && text.size() > 7) return {CompareAlign::Marker, 0, text.substr(7)};
    throw std::invalid_argument("--align must be auto, start, peak, step:N or marker:NAME, got \"" + text + "\"");
}

std::string alignSpecText(const AlignSpec& spec) {
    switch (spec.kind) {
    case CompareAlign::Auto: return "auto";
    case CompareAlign::Start: return "start";
    case CompareAlign::Peak: return "peak";
    case CompareAlign::Step: return "step:" + std::to_string(spec.step);
    case CompareAlign::Marker: return "marker:" + spec.marker;
    }
    return {};
}

std::vector<TraceStep> readTraceSteps(Database& db, std::int64_t traceId, const std::string& format) {
    std::vector<TraceStep> steps;
    if (format == format_id::kProfiler) {
        for (const NamedCallSpan& s : queryNamedCallSpans(db, traceId, std::string(kProfilerStep), true, kMaxSteps))
            if (const auto n = number(std::string_view(s.name).substr(kProfilerStep.size()))) steps.push_back({*n, s.begin});
    } else if (isLive(format)) {
        for (const LiveMarker& m : listLiveMarkers(db, traceId))
            if (m.kind == "step" && m.label.starts_with(kProbeStep) && steps.size() < kMaxSteps)
                if (const auto n = number(std::string_view(m.label).substr(kProbeStep.size()))) steps.push_back({*n, m.t});
    }
    return steps;
}

std::optional<std::int64_t> findMarker(Database& db, std::int64_t traceId, const std::string& format, const std::string& name) {
    if (format == format_id::kProfiler) {
        const auto spans = queryNamedCallSpans(db, traceId, name, false, 1);
        if (!spans.empty()) return spans.front().begin;
    } else if (isLive(format)) {
        for (const LiveMarker& m : listLiveMarkers(db, traceId))
            if (m.label == name) return m.t;
    }
    return std::nullopt;
}

Alignment alignTraces(const TraceComparison& c, const AlignSpec& spec) {
    Alignment out;
    out.used = spec.kind;
    switch (spec.kind) {
    case CompareAlign::Auto:
        for (const TraceStep& s : c.a.steps)
            if (const auto tb = stepTime(c.b.steps, s.number)) {
                out.used = CompareAlign::Step;
                out.step = s.number;
                out.shift = s.t - *tb;
                return out;
            }
        out.used = CompareAlign::Start;
        [[fallthrough]];
    case CompareAlign::Start: // every trace's time starts at 0 (TraceRecord::durationNs is its end)
        return out;
    case CompareAlign::Peak:
        if (!c.a.curve.empty() && !c.b.curve.empty()) out.shift = peakTime(c.a.curve) - peakTime(c.b.curve);
        return out;
    case CompareAlign::Step: {
        out.step = spec.step;
        const auto ta = stepTime(c.a.steps, spec.step), tb = stepTime(c.b.steps, spec.step);
        auto missing = [&](const ComparedTrace& t, const char* which) {
            if (t.steps.empty())
                return std::string(which) + " marks no training steps (a profiler trace's ProfilerStep#N, a probe recording's steps)";
            return std::string(which) + " has no step " + std::to_string(spec.step) + " (its steps: " +
                   std::to_string(t.steps.front().number) + " to " + std::to_string(t.steps.back().number) + ")";
        };
        if (!ta) out.problem = missing(c.a, "A");
        else if (!tb) out.problem = missing(c.b, "B");
        else out.shift = *ta - *tb;
        return out;
    }
    case CompareAlign::Marker:
        if (!c.a.marker) out.problem = "A has no marker named \"" + spec.marker + "\"";
        else if (!c.b.marker) out.problem = "B has no marker named \"" + spec.marker + "\"";
        else out.shift = *c.a.marker - *c.b.marker;
        return out;
    }
    return out;
}

} // namespace memviz
